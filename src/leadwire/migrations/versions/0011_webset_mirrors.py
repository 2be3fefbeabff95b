"""websets: no mirrored fields, no repair on reads

`webset_runs.goal` copied the list's current goal (only the current run's was ever read) and
`websets.verify_cap` followed from the goal: both go. A list whose run's job ended (failed or
cancelled) without the list being told was repaired by every read; jobs now tell their list when they
end (`on_fail`, `on_cancel`), so the lists such old jobs left behind are repaired here, once.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    bind = op.get_bind()
    stuck = bind.execute(
        sa.text(
            "SELECT w.id, j.status, j.error_code FROM websets w "
            "LEFT JOIN webset_runs r ON r.webset_id = w.id AND r.number = w.run_number "
            "JOIN jobs j ON j.id = COALESCE(r.job_id, w.preparation_job_id) "
            "WHERE w.status IN ('generating_criteria', 'queued', 'searching', 'verifying') "
            "AND j.status IN ('failed', 'cancelled')"
        )
    ).all()
    for webset_id, status, error_code in stuck:
        bind.execute(
            sa.text(
                "UPDATE websets SET status = :status, stage = :status, failure_code = :code WHERE id = :id"
            ),
            {"status": status, "code": error_code if status == "failed" else None, "id": webset_id},
        )
    with op.batch_alter_table("webset_runs") as batch:
        batch.drop_column("goal")
    with op.batch_alter_table("websets") as batch:
        batch.drop_column("verify_cap")


def downgrade() -> None:
    with op.batch_alter_table("websets") as batch:
        batch.add_column(sa.Column("verify_cap", sa.Integer(), nullable=False, server_default="100"))
    with op.batch_alter_table("webset_runs") as batch:
        batch.add_column(sa.Column("goal", sa.Integer(), nullable=False, server_default="25"))
    op.execute(
        "UPDATE websets SET verify_cap = CASE WHEN goal * 4 < 100 THEN 100 "
        "WHEN goal * 4 > 4000 THEN 4000 ELSE goal * 4 END"
    )
