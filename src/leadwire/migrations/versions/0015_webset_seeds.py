"""websets: a list's seed (candidates from an import's rows instead of a search)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 23:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("websets") as batch:
        batch.add_column(sa.Column("seed", JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("websets") as batch:
        batch.drop_column("seed")
