"""Every foreign key leads an index: console_sessions.user_id, sending_policies.user_id,
scheduled_sends.account_id and webset_monitors.webset_id had none, so deleting an account, a connected
account or a list scanned the whole table for its cascade (tests/platform/test_schema_indexes.py now
checks every foreign key)

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-28 15:00:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = (
    ("ix_console_sessions_user", "console_sessions", ["user_id"]),
    ("ix_sending_policies_user", "sending_policies", ["user_id"]),
    ("ix_scheduled_sends_connected_account", "scheduled_sends", ["account_id"]),
    ("ix_webset_monitors_webset", "webset_monitors", ["webset_id"]),
)


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)


def downgrade() -> None:
    for name, table, _columns in INDEXES:
        op.drop_index(name, table_name=table)
