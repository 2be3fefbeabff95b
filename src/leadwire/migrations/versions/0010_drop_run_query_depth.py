"""drop webset_runs.query_depth

The column was written on every discovery round and never read: a run resumes from `query_index`
and the rounds it recorded.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 11:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("webset_runs") as batch:
        batch.drop_column("query_depth")


def downgrade() -> None:
    with op.batch_alter_table("webset_runs") as batch:
        batch.add_column(sa.Column("query_depth", sa.Integer(), nullable=False, server_default="0"))
