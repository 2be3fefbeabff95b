"""websets: imports, the lists users bring (to leave out of a prospect list)

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 23:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import leadwire.platform.db

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
UTC_DATETIME = leadwire.platform.db.UtcDateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "imports",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("title", sa.String(200), nullable=True),
        sa.Column("source_format", sa.String(8), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.Column("accepted", sa.Integer(), nullable=False),
        sa.Column("rejected", sa.Integer(), nullable=False),
        sa.Column("errors", JSON, nullable=False),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
    )
    op.create_index("ix_imports_user", "imports", ["user_id", "id"])
    op.create_table(
        "import_rows",
        sa.Column(
            "import_id", sa.String(32), sa.ForeignKey("imports.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("line", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(300), nullable=True),
        sa.Column("domain", sa.String(253), nullable=True),
        sa.Column("country", sa.String(2), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("import_rows")
    op.drop_index("ix_imports_user", table_name="imports")
    op.drop_table("imports")
