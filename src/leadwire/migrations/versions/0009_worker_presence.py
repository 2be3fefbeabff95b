"""worker presence

One row per live worker process, beaten every few seconds: readiness and metrics know whether any
worker is alive, and a supervisor that saw a worker die releases its leases at once.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import leadwire.platform.db

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "worker_presence",
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("concurrency", sa.Integer(), nullable=False),
        sa.Column("running", sa.Integer(), nullable=False),
        sa.Column("started_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("beat_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("owner"),
    )


def downgrade() -> None:
    op.drop_table("worker_presence")
