"""Imports written in batches, each its own short transaction: a suppression CSV's import has a record
(`outreach_suppression_imports`) whose entries count only once it is `completed`, and each entry
names the import that wrote it; a company import records when its last batch was written
(`imports.touched_at`), so one cut off mid-way is known. All additive; entries and imports made
before keep none and count as they did

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-08 01:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import leadwire.platform.db

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outreach_suppression_imports",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column(
            "user_id", sa.String(length=32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.Column("created_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("touched_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_outreach_suppression_imports_user", "outreach_suppression_imports", ["user_id", "status"]
    )
    # Plain ADD COLUMNs on both engines (no batch: SQLite adds a nullable column in place).
    op.add_column("outreach_suppressions", sa.Column("import_id", sa.String(length=32), nullable=True))
    op.create_index("ix_outreach_suppressions_import", "outreach_suppressions", ["import_id"])
    op.add_column(
        "imports", sa.Column("touched_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=True)
    )


def downgrade() -> None:
    # DROP COLUMN in place on both engines (SQLite >= 3.35): no batch rebuild of the table.
    op.drop_column("imports", "touched_at")
    op.drop_index("ix_outreach_suppressions_import", table_name="outreach_suppressions")
    op.drop_column("outreach_suppressions", "import_id")
    op.drop_index("ix_outreach_suppression_imports_user", table_name="outreach_suppression_imports")
    op.drop_table("outreach_suppression_imports")
