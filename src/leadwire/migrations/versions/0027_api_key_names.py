"""api_keys: a name of the owner's choosing (`POST /api/v2/keys`), shown beside the prefix when keys are
listed; nullable, so the keys issued before it keep none

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-29 14:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN on both engines (no batch: SQLite adds a nullable column in place).
    op.add_column("api_keys", sa.Column("name", sa.String(length=100), nullable=True))


def downgrade() -> None:
    # DROP COLUMN in place on both engines (SQLite >= 3.35): no batch rebuild of the table.
    op.drop_column("api_keys", "name")
