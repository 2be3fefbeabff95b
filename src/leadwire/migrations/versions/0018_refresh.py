"""websets: the refresh job that last re-verified an item (a refresh's checkpoint and charge), and the
one that last refilled an enrichment

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28 02:55:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("webset_items") as batch:
        batch.add_column(sa.Column("refreshed_job_id", sa.String(32), nullable=True))
    with op.batch_alter_table("webset_enrichments") as batch:
        batch.add_column(sa.Column("refilled_by", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("webset_enrichments") as batch:
        batch.drop_column("refilled_by")
    with op.batch_alter_table("webset_items") as batch:
        batch.drop_column("refreshed_job_id")
