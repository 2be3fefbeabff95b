"""console: sessions of browsers signed in with an API key (its digest, never the key)

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-28 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import leadwire.platform.db

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "console_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("key_digest", sa.String(64), nullable=False),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("created_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("expires_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_console_sessions_key", "console_sessions", ["key_digest", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_console_sessions_key", table_name="console_sessions")
    op.drop_table("console_sessions")
