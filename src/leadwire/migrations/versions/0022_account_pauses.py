"""channels: an account's pause (why, until when, how many in a row)

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import leadwire.platform.db

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("connect_accounts", sa.Column("paused_reason", sa.String(500), nullable=True))
    op.add_column(
        "connect_accounts",
        sa.Column("resume_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=True),
    )
    op.add_column(
        "connect_accounts", sa.Column("pause_count", sa.Integer(), nullable=False, server_default="0")
    )


def downgrade() -> None:
    with op.batch_alter_table("connect_accounts") as batch:
        batch.drop_column("pause_count")
        batch.drop_column("resume_at")
        batch.drop_column("paused_reason")
