"""deliveries: index (user_id, id) for an account's sent messages read newest first (the console's
outreach page), and for the cascade when an account is deleted

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-28 11:15:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_deliveries_user_id_id", "deliveries", ["user_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_deliveries_user_id_id", table_name="deliveries")
