"""outreach: the account's suppression list

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28 05:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import leadwire.platform.db

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outreach_suppressions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("value", sa.String(320), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("created_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("user_id", "channel", "value", name="uq_outreach_suppressions_value"),
    )
    op.create_index("ix_outreach_suppressions_lookup", "outreach_suppressions", ["user_id", "value"])


def downgrade() -> None:
    op.drop_index("ix_outreach_suppressions_lookup", table_name="outreach_suppressions")
    op.drop_table("outreach_suppressions")
