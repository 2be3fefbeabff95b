"""websets: an enrichment the list's seed fills with each item it adds (a trade-seeded list's ready-made
columns), never a job

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28 05:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("webset_enrichments") as batch:
        batch.add_column(sa.Column("seed_fact", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("webset_enrichments") as batch:
        batch.drop_column("seed_fact")
