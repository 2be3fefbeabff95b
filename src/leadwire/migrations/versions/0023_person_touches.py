"""channels: who each v2 dispatch reaches and when (one touch per person across channels)

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-28 11:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import leadwire.platform.db

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "person_touches",
        sa.Column("job_id", sa.String(32), sa.ForeignKey("jobs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("person_key", sa.String(340), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("touched_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_person_touches_person", "person_touches", ["user_id", "person_key", "touched_at"])


def downgrade() -> None:
    op.drop_index("ix_person_touches_person", table_name="person_touches")
    op.drop_table("person_touches")
