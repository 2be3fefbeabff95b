"""Alembic environment: runs migrations over the async engine for SQLite and PostgreSQL alike.

On PostgreSQL a run holds an advisory lock, so two `leadwire migrate` started at once (two machines of
a deploy) run one after the other, the second finding nothing left to do. A statement may run long (an
index over a big table) but waits at most `LOCK_TIMEOUT` for a lock: a migration queued behind a
long transaction would otherwise hold up every query of the running service queued behind it.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from leadwire.models import Base
from leadwire.platform.db import DbTimeouts, make_engine

config = context.config
target_metadata = Base.metadata
MIGRATION_LOCK = 7_390_014_501  # pg_advisory_lock key of migration runs ("leadwire migrate")
STATEMENT_TIMEOUT_SECONDS = 3600.0
LOCK_TIMEOUT = "10s"


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = make_engine(
        config.get_main_option("sqlalchemy.url") or "",
        timeouts=DbTimeouts(statement=STATEMENT_TIMEOUT_SECONDS),
    )
    try:
        async with engine.connect() as connection:
            if engine.dialect.name == "postgresql":
                # Session-level: released when the connection closes (dispose), whatever happens.
                await connection.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK})")
                await connection.exec_driver_sql(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
                await connection.commit()
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported")
asyncio.run(_run_async())
