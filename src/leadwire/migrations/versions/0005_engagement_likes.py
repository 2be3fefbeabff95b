"""engagement likes

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import leadwire.platform.db

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "engagement_likes",
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("post_id", sa.String(length=200), nullable=False),
        sa.Column("post_url", sa.String(length=1000), nullable=True),
        sa.Column("job_id", sa.String(length=32), nullable=False),
        sa.Column("liked_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["connect_accounts.id"],
            name=op.f("fk_engagement_likes_account_id_connect_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", "post_id", name=op.f("pk_engagement_likes")),
    )
    op.create_index(op.f("ix_engagement_likes_job_id"), "engagement_likes", ["job_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_engagement_likes_job_id"), table_name="engagement_likes")
    op.drop_table("engagement_likes")
