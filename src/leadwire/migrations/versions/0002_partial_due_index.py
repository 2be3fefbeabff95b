"""Partial index of pending jobs for the claim query (replaces the full (status, scheduled_at) index).

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PENDING = sa.text("status IN ('queued', 'scheduled')")


def upgrade() -> None:
    op.drop_index("ix_jobs_due", table_name="jobs")
    op.create_index(
        "ix_jobs_pending_due",
        "jobs",
        ["scheduled_at", "id"],
        postgresql_where=_PENDING,
        sqlite_where=_PENDING,
    )


def downgrade() -> None:
    op.drop_index("ix_jobs_pending_due", table_name="jobs")
    op.create_index("ix_jobs_due", "jobs", ["status", "scheduled_at"])
