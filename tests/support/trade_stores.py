"""The hand-built shipments (`tests/support/trade.py`) loaded into either trade store the way an
operator loads theirs: `ingest_shipments` on a CSV in the documented schema."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from leadwire.providers.trade_ingest import ingest_shipments
from leadwire.providers.trade_schema import POSTGRES_TABLE
from tests.support.trade import SHIPMENTS, write_csv

# The app's tables live in `public` of the session's test database (and a test compares them with the
# migrations): trade data keeps to a schema of its own, reached through the connection's search_path.
TRADE_SCHEMA = "trade_test"


def asyncpg_dsn(sqlalchemy_url: str) -> str:
    """The asyncpg DSN of a test database, its search_path set to the trade schema."""
    return (
        sqlalchemy_url.replace("postgresql+asyncpg://", "postgresql://", 1) + f"?search_path={TRADE_SCHEMA}"
    )


def load_world(world_dir: Path, rows: list[dict[str, Any]] = SHIPMENTS) -> Path:
    """A world directory whose trade.duckdb holds `rows` (and nothing else)."""
    world_dir.mkdir(parents=True, exist_ok=True)
    report = ingest_shipments(
        write_csv(world_dir.parent / "shipments.csv", rows),
        store="duckdb",
        world_dir=world_dir,
        database_url=None,
    )
    assert report.accepted, report.errors
    return world_dir


def load_postgres(dsn: str, scratch: Path, rows: list[dict[str, Any]] = SHIPMENTS) -> str:
    """`trade_shipments` at `dsn` holding exactly `rows` (the table is dropped first)."""
    asyncio.run(_drop_table(dsn))
    report = ingest_shipments(
        write_csv(scratch / "shipments.csv", rows), store="postgres", world_dir=scratch, database_url=dsn
    )
    assert report.accepted, report.errors
    return dsn


async def _drop_table(dsn: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(f"CREATE SCHEMA IF NOT EXISTS {TRADE_SCHEMA}")
        await connection.execute(f"DROP TABLE IF EXISTS {TRADE_SCHEMA}.{POSTGRES_TABLE}")
    finally:
        await connection.close()
