"""The migrations produce exactly the schema the models declare, on SQLite and PostgreSQL, and the
latest one goes down and up again on both."""

from __future__ import annotations

import asyncio
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

import leadwire.models as models
from leadwire.platform.migrate import alembic_config, upgrade
from tests.conftest import PG_ADMIN_DSN, _pg_admin, _sqlalchemy_pg_url, service_missing
from tests.support.processes import LEADWIRE, REPO, process_env


def _sync(url: str) -> str:
    return url.replace("+aiosqlite", "").replace("+asyncpg", "+psycopg")


def _drift(url: str) -> list[object]:
    engine = sa.create_engine(_sync(url))
    try:
        with engine.connect() as connection:
            return list(compare_metadata(MigrationContext.configure(connection), models.Base.metadata))
    finally:
        engine.dispose()


def test_models_match_migrations(database_url: str) -> None:
    assert _drift(database_url) == []


@pytest.fixture(params=["sqlite", "postgres"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of its own, with no schema: migrating it down leaves the shared ones alone."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'migrations.db'}"
        return
    yield from _empty_pg_database()


def _empty_pg_database() -> Iterator[str]:
    name = f"lw_mig_{uuid.uuid4().hex[:10]}"
    try:
        asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        service_missing(f"PostgreSQL at {PG_ADMIN_DSN} ({exc})")
    yield _sqlalchemy_pg_url(name)
    asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _job_columns(url: str) -> set[str]:
    engine = sa.create_engine(_sync(url))
    try:
        with engine.connect() as connection:
            return {column["name"] for column in sa.inspect(connection).get_columns("jobs")}
    finally:
        engine.dispose()


def test_job_error_detail_and_request_id_migrate_up_and_down(empty_database_url: str) -> None:
    upgrade(empty_database_url, "0005")
    assert not {"error_detail", "request_id"} & _job_columns(empty_database_url)
    upgrade(empty_database_url, "0006")
    assert {"error_detail", "request_id"} <= _job_columns(empty_database_url)
    command.downgrade(alembic_config(empty_database_url), "0005")
    assert not {"error_detail", "request_id"} & _job_columns(empty_database_url)
    upgrade(empty_database_url)
    assert _drift(empty_database_url) == []  # the way down left the rest of the schema as it was


@pytest.fixture
def empty_pg_url() -> Iterator[str]:
    yield from _empty_pg_database()


def test_migrate_runs_started_at_once_take_turns(empty_pg_url: str, tmp_path: Path) -> None:
    """Two machines of a deploy running `leadwire migrate` together: without the advisory lock both
    would create the same tables and one would fail."""
    env = process_env(tmp_path, empty_pg_url)
    runs = [
        subprocess.Popen(
            [*LEADWIRE, "migrate"], env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(3)
    ]
    outcomes = [(run.wait(timeout=120), run.stderr.read().decode()[-2000:]) for run in runs if run.stderr]
    assert [code for code, _ in outcomes] == [0, 0, 0], outcomes
    assert _drift(empty_pg_url) == []
