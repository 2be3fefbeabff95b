"""websets

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 01:45:50.749184
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import leadwire.platform.db

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "websets",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("target_kind", sa.String(length=16), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column(
            "criteria",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("criteria_updated_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column(
            "strategy",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("strategy_available_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("strategy_updated_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("failure_code", sa.String(length=64), nullable=True),
        sa.Column("failure_detail", sa.String(length=500), nullable=True),
        sa.Column("preparation_job_id", sa.String(length=32), nullable=False),
        sa.Column("run_number", sa.Integer(), nullable=False),
        sa.Column("items_revision", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=32), nullable=False),
        sa.Column("goal", sa.Integer(), nullable=False),
        sa.Column("verify_cap", sa.Integer(), nullable=False),
        sa.Column("verified", sa.Integer(), nullable=False),
        sa.Column("qualified", sa.Integer(), nullable=False),
        sa.Column("full", sa.Integer(), nullable=False),
        sa.Column("stop_reason", sa.String(length=32), nullable=True),
        sa.Column("progress_updated_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("created_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("started_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("finished_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("updated_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_websets_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_websets")),
    )
    with op.batch_alter_table("websets", schema=None) as batch_op:
        batch_op.create_index("ix_websets_user_created", ["user_id", "created_at", "id"], unique=False)

    op.create_table(
        "webset_items",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("webset_id", sa.String(length=32), nullable=False),
        sa.Column("entity_key", sa.String(length=300), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("run_number", sa.Integer(), nullable=False),
        sa.Column("target_kind", sa.String(length=16), nullable=False),
        sa.Column(
            "entity",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("match_status", sa.String(length=16), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column(
            "evaluations",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("released", sa.Boolean(), nullable=False),
        sa.Column("created_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["webset_id"], ["websets.id"], name=op.f("fk_webset_items_webset_id_websets"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webset_items")),
        sa.UniqueConstraint("webset_id", "entity_key", name="uq_webset_items_entity"),
    )
    with op.batch_alter_table("webset_items", schema=None) as batch_op:
        batch_op.create_index("ix_webset_items_position", ["webset_id", "position"], unique=False)

    op.create_table(
        "webset_runs",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("webset_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("job_id", sa.String(length=32), nullable=True),
        sa.Column("goal", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("released", sa.Integer(), nullable=False),
        sa.Column("query_index", sa.Integer(), nullable=False),
        sa.Column("query_depth", sa.Integer(), nullable=False),
        sa.Column(
            "rounds",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("created_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("finished_at", leadwire.platform.db.UtcDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["webset_id"], ["websets.id"], name=op.f("fk_webset_runs_webset_id_websets"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webset_runs")),
        sa.UniqueConstraint("webset_id", "number", name="uq_webset_runs_number"),
    )
    with op.batch_alter_table("webset_runs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_webset_runs_job_id"), ["job_id"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("webset_runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_webset_runs_job_id"))

    op.drop_table("webset_runs")
    with op.batch_alter_table("webset_items", schema=None) as batch_op:
        batch_op.drop_index("ix_webset_items_position")

    op.drop_table("webset_items")
    with op.batch_alter_table("websets", schema=None) as batch_op:
        batch_op.drop_index("ix_websets_user_created")

    op.drop_table("websets")
