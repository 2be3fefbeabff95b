"""websets: enrichments (columns asked of every item) and their cells

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 02:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import leadwire.platform.db

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
WHEN = leadwire.platform.db.UtcDateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "webset_enrichments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "webset_id", sa.String(32), sa.ForeignKey("websets.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("description", sa.String(1000), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("options", JSON, nullable=False),
        sa.Column("metadata", JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("job_id", sa.String(32), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("updated_at", WHEN, nullable=False),
    )
    op.create_index("ix_webset_enrichments_webset", "webset_enrichments", ["webset_id", "created_at"])
    op.create_table(
        "enrichment_cells",
        sa.Column(
            "enrichment_id",
            sa.String(32),
            sa.ForeignKey("webset_enrichments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "item_id", sa.String(32), sa.ForeignKey("webset_items.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("job_id", sa.String(32), nullable=False),
        sa.Column("filled", sa.Boolean(), nullable=False),
        sa.Column("result", JSON, nullable=True),
        sa.Column("reasoning", sa.Text(), nullable=False),
        sa.Column("references", JSON, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_index("ix_enrichment_cells_job", "enrichment_cells", ["job_id"])
    op.create_index("ix_enrichment_cells_item_id", "enrichment_cells", ["item_id"])


def downgrade() -> None:
    op.drop_table("enrichment_cells")
    op.drop_table("webset_enrichments")
