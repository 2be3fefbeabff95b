"""Who set up lasting work, so that taking a key away reaches it: a webhook records the key that
created it and that key's scopes (its events carry only what they read); a monitor records why it was
paused (`key_revoked` when its key went); a key records the key that created it (revoked with it).
All nullable: rows made before keep none (a webhook without a recorded key keeps every scope)

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-08 01:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    # Plain ADD COLUMNs on both engines (no batch: SQLite adds a nullable column in place).
    op.add_column("webhooks", sa.Column("creator_key_id", sa.String(length=32), nullable=True))
    op.add_column("webhooks", sa.Column("scopes", JSON, nullable=True))
    op.add_column("webset_monitors", sa.Column("pause_reason", sa.String(length=32), nullable=True))
    op.add_column("api_keys", sa.Column("created_by_key_id", sa.String(length=32), nullable=True))
    # What a revocation looks up: the keys a key created, the monitors and webhooks it set up.
    op.create_index("ix_api_keys_created_by", "api_keys", ["created_by_key_id"])
    op.create_index("ix_webset_monitors_api_key", "webset_monitors", ["api_key_id"])


def downgrade() -> None:
    # DROP COLUMN in place on both engines (SQLite >= 3.35): no batch rebuild of the table.
    op.drop_index("ix_webset_monitors_api_key", table_name="webset_monitors")
    op.drop_index("ix_api_keys_created_by", table_name="api_keys")
    op.drop_column("api_keys", "created_by_key_id")
    op.drop_column("webset_monitors", "pause_reason")
    op.drop_column("webhooks", "scopes")
    op.drop_column("webhooks", "creator_key_id")
