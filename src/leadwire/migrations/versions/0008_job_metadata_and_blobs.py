"""job metadata column and job blobs

A job's `metadata` moves out of its payload into a column of its own, so a poll reads it without
reading (and decoding) the payload. Large binary parts of a payload (a dispatch's attachments) are kept
apart, in `job_blobs`, deleted when their job ends; `jobs.blob_bytes` is their size, which the account's
cap on queued bytes sums.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import leadwire.platform.db

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.add_column("jobs", sa.Column("job_metadata", JSON, nullable=True))
    op.add_column("jobs", sa.Column("blob_bytes", sa.BigInteger(), nullable=False, server_default="0"))
    if op.get_bind().dialect.name == "postgresql":
        op.execute("UPDATE jobs SET job_metadata = payload -> 'metadata' WHERE payload ? 'metadata'")
    else:
        op.execute(
            "UPDATE jobs SET job_metadata = json_extract(payload, '$.metadata') "
            "WHERE json_type(payload, '$.metadata') IS NOT NULL"
        )
    op.create_table(
        "job_blobs",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("job_id", sa.String(length=32), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["jobs.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_job_blobs_job_id", "job_blobs", ["job_id"])


def downgrade() -> None:
    op.drop_index("ix_job_blobs_job_id", table_name="job_blobs")
    op.drop_table("job_blobs")
    op.drop_column("jobs", "blob_bytes")
    op.drop_column("jobs", "job_metadata")
