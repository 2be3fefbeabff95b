"""The migrations produce exactly the schema the models declare, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

import leadwire.models as models


def test_models_match_migrations(database_url: str) -> None:
    sync_url = database_url.replace("+aiosqlite", "").replace("+asyncpg", "+psycopg")
    engine = sa.create_engine(sync_url)
    try:
        with engine.connect() as connection:
            drift = compare_metadata(MigrationContext.configure(connection), models.Base.metadata)
    finally:
        engine.dispose()
    assert drift == []
