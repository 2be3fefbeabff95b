"""channels: sending policies, the sends placed per account and day, the account's queue; a job's hold

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import leadwire.platform.db

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.add_column("jobs", sa.Column("hold", JSON, nullable=True))
    op.add_column("pacing_slots", sa.Column("hold_reason", sa.String(16), nullable=True))
    op.create_table(
        "sending_policies",
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("connect_accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("daily_cap", sa.Integer(), nullable=False),
        sa.Column("ramp", JSON, nullable=True),
        sa.Column("ramp_started_on", sa.Date(), nullable=True),
        sa.Column("window", JSON, nullable=True),
        sa.Column("timezone", sa.String(64), nullable=False),
        sa.Column("person_touch_interval_hours", sa.Integer(), nullable=False),
        sa.Column("updated_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sending_days",
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("connect_accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("scheduled", sa.Integer(), nullable=False),
    )
    op.create_table(
        "scheduled_sends",
        sa.Column("job_id", sa.String(32), sa.ForeignKey("jobs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("connect_accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("timezone", sa.String(64), nullable=True),
        sa.Column("timezone_source", sa.String(16), nullable=True),
        sa.Column("created_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_scheduled_sends_account", "scheduled_sends", ["user_id", "account_id", "job_id"])


def downgrade() -> None:
    op.drop_index("ix_scheduled_sends_account", table_name="scheduled_sends")
    op.drop_table("scheduled_sends")
    op.drop_table("sending_days")
    op.drop_table("sending_policies")
    op.drop_column("pacing_slots", "hold_reason")
    op.drop_column("jobs", "hold")
