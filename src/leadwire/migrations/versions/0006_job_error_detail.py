"""job error detail and request id

The failure's human sentence (`error.detail` of the public job) and the id of the request that
created the job (the worker's log lines of the job carry it). Both nullable: existing jobs have
neither.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN on both engines (no batch: SQLite adds a nullable column in place).
    op.add_column("jobs", sa.Column("request_id", sa.String(length=32), nullable=True))
    op.add_column("jobs", sa.Column("error_detail", sa.String(length=500), nullable=True))


def downgrade() -> None:
    # DROP COLUMN in place on both engines (SQLite >= 3.35): no batch rebuild of the jobs table.
    op.drop_column("jobs", "error_detail")
    op.drop_column("jobs", "request_id")
