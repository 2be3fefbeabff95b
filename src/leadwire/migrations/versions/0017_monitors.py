"""websets: monitors (a list kept fresh on a cron schedule) and their runs, one row per slot

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 02:20:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import leadwire.platform.db

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
WHEN = leadwire.platform.db.UtcDateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "webset_monitors",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("api_key_id", sa.String(32), nullable=False),
        sa.Column(
            "webset_id", sa.String(32), sa.ForeignKey("websets.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("cron", sa.String(100), nullable=False),
        sa.Column("timezone", sa.String(64), nullable=False),
        sa.Column("behavior", sa.String(16), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("metadata", JSON, nullable=False),
        sa.Column("next_run_at", WHEN, nullable=False),
        sa.Column("last_run_at", WHEN, nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_index("ix_webset_monitors_due", "webset_monitors", ["status", "next_run_at"])
    op.create_index("ix_webset_monitors_user", "webset_monitors", ["user_id", "id"])
    op.create_table(
        "webset_monitor_runs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "monitor_id",
            sa.String(32),
            sa.ForeignKey("webset_monitors.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("slot_at", WHEN, nullable=False),
        sa.Column("job_id", sa.String(32), nullable=True),
        sa.Column("skipped_code", sa.String(64), nullable=True),
        sa.Column("created_at", WHEN, nullable=False),
        sa.UniqueConstraint("monitor_id", "slot_at", name="uq_webset_monitor_runs_slot"),
    )
    op.create_index("ix_webset_monitor_runs_monitor", "webset_monitor_runs", ["monitor_id", "id"])


def downgrade() -> None:
    op.drop_table("webset_monitor_runs")
    op.drop_table("webset_monitors")
