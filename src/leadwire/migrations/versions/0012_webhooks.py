"""webhooks: endpoints and their deliveries (the outbox and the delivery log)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 19:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import leadwire.platform.db

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def _time(name: str, *, nullable: bool = False) -> sa.Column:
    return sa.Column(name, leadwire.platform.db.UtcDateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("events", JSON, nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("metadata", JSON, nullable=False),
        sa.Column("sealed_secret", sa.Text(), nullable=False),
        sa.Column("previous_sealed_secret", sa.Text(), nullable=True),
        _time("previous_secret_expires_at", nullable=True),
        _time("failing_since", nullable=True),
        sa.Column("disabled_reason", sa.Text(), nullable=True),
        _time("listen_expires_at", nullable=True),
        _time("created_at"),
        _time("updated_at"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_webhooks_user_status", "webhooks", ["user_id", "status"])
    op.create_table(
        "webhook_deliveries",
        sa.Column(
            "seq", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("webhook_id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("event_type", sa.String(length=64), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_status_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        _time("next_attempt_at", nullable=True),
        sa.Column("lease_owner", sa.String(length=64), nullable=True),
        _time("lease_expires_at", nullable=True),
        _time("created_at"),
        _time("updated_at"),
        sa.ForeignKeyConstraint(["webhook_id"], ["webhooks.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("seq"),
        sa.UniqueConstraint("id"),
    )
    op.create_index("ix_webhook_deliveries_webhook_seq", "webhook_deliveries", ["webhook_id", "seq"])
    op.create_index(
        "ix_webhook_deliveries_pending",
        "webhook_deliveries",
        ["webhook_id", "seq"],
        postgresql_where=sa.text("status = 'pending'"),
        sqlite_where=sa.text("status = 'pending'"),
    )
    op.create_index("ix_webhook_deliveries_finished", "webhook_deliveries", ["status", "updated_at"])


def downgrade() -> None:
    op.drop_table("webhook_deliveries")
    op.drop_table("webhooks")
