"""credit_entries: index (user_id, created_at, id) for the account's ledger read newest first (replaces
the index on user_id alone, which it covers)

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-29 12:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_credit_entries_user_created", "credit_entries", ["user_id", "created_at", "id"])
    op.drop_index("ix_credit_entries_user_id", table_name="credit_entries")


def downgrade() -> None:
    op.create_index("ix_credit_entries_user_id", "credit_entries", ["user_id"])
    op.drop_index("ix_credit_entries_user_created", table_name="credit_entries")
