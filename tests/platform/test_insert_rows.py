"""`insert_rows`: one statement for a batch of rows, on SQLite (executemany) and on PostgreSQL (an
INSERT ... SELECT over unnest), with every column's value read back as it was written."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, Integer, MetaData, String, Table, select

from leadwire.platform.db import (
    JsonType,
    UtcDateTime,
    insert_rows,
    make_engine,
    make_sessionmaker,
    transaction,
)

_ROWS: list[dict[str, Any]] = [
    {"id": 1, "name": "a", "doc": {"k": [1, 2]}, "at": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)},
    {"id": 2, "name": "b", "doc": ["x", {"y": None}], "at": datetime(2026, 1, 2, tzinfo=UTC)},
    {"id": 3, "name": None, "doc": [[1, 2], [3, 4]], "at": datetime(2026, 6, 1, tzinfo=UTC)},
    {"id": 4, "name": "d", "doc": None, "at": datetime(2026, 6, 1, tzinfo=UTC)},
    {"id": 5, "name": "e", "doc": "text", "at": datetime(2026, 6, 1, tzinfo=UTC)},
]


async def test_a_batch_reads_back_as_written_list_valued_json_included(database_url: str) -> None:
    metadata = MetaData()
    table = Table(
        "insert_rows_probe",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("name", String, nullable=True),
        Column("doc", JsonType, nullable=True),
        Column("at", UtcDateTime),
    )
    engine = make_engine(database_url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(metadata.create_all)
        sessions = make_sessionmaker(engine)
        async with transaction(sessions) as session:
            await insert_rows(session, table, _ROWS)
            await insert_rows(session, table, [])
        async with sessions() as session:
            found = [
                dict(row._mapping) for row in (await session.execute(select(table).order_by(table.c.id)))
            ]
        assert found == _ROWS
    finally:
        async with engine.begin() as connection:
            await connection.run_sync(metadata.drop_all)
        await engine.dispose()
