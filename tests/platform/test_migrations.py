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


def _insert(connection: sa.Connection, table: str, **values: object) -> None:
    """A row of `table` as the schema stands at this revision: `values`, and a plain value of the right
    type for every other column that must have one."""
    from datetime import UTC, datetime

    defaults = {sa.Integer: 0, sa.BigInteger: 0, sa.Float: 0.0, sa.Boolean: False, sa.JSON: {}}
    row = dict(values)
    for column in sa.inspect(connection).get_columns(table):
        if column["name"] in row or column["nullable"] or column.get("default") is not None:
            continue
        kind = type(column["type"])
        if issubclass(kind, sa.DateTime):
            row[column["name"]] = datetime(2026, 1, 1, tzinfo=UTC)
        elif issubclass(kind, sa.JSON) or "JSON" in kind.__name__:
            row[column["name"]] = "{}" if table != "websets" else "[]"
        else:
            row[column["name"]] = next((v for t, v in defaults.items() if issubclass(kind, t)), "x")
    names = ", ".join(f'"{name}"' for name in row)
    marks = ", ".join(f":{name}" for name in row)
    connection.execute(sa.text(f"INSERT INTO {table} ({names}) VALUES ({marks})"), row)


def test_lists_left_running_by_ended_jobs_are_repaired_once_and_mirrors_dropped(
    empty_database_url: str,
) -> None:
    """0011: reads no longer repair a list whose job ended without telling it, so the migration does,
    once; `webset_runs.goal` and `websets.verify_cap` go, and come back on the way down."""
    upgrade(empty_database_url, "0010")
    engine = sa.create_engine(_sync(empty_database_url))
    try:
        with engine.begin() as connection:
            _insert(connection, "users", id="usr_1", email="a@example.test", plan="business")
            for job_id, status in (("job_failed", "failed"), ("job_live", "running")):
                _insert(connection, "jobs", id=job_id, user_id="usr_1", action="websets.discover",
                        status=status, error_code="job_timeout" if status == "failed" else None)  # fmt: skip
            for webset_id, job_id in (("ws_stuck", "job_failed"), ("ws_live", "job_live")):
                _insert(connection, "websets", id=webset_id, user_id="usr_1", status="searching",
                        stage="searching", run_number=1, goal=25, verify_cap=100, criteria="[]",
                        preparation_job_id="job_prep")  # fmt: skip
                _insert(connection, "webset_runs", id=f"run_{webset_id}", webset_id=webset_id, number=1,
                        job_id=job_id, goal=25, status="running", rounds="[]")  # fmt: skip
        upgrade(empty_database_url, "0011")
        with engine.connect() as connection:
            states = dict(connection.execute(sa.text("SELECT id, status FROM websets")).all())
            failure = connection.scalar(sa.text("SELECT failure_code FROM websets WHERE id = 'ws_stuck'"))
            run_columns = {c["name"] for c in sa.inspect(connection).get_columns("webset_runs")}
        assert states == {"ws_stuck": "failed", "ws_live": "searching"} and failure == "job_timeout"
        assert "goal" not in run_columns
        command.downgrade(alembic_config(empty_database_url), "0010")
        with engine.connect() as connection:
            assert connection.scalar(sa.text("SELECT verify_cap FROM websets WHERE id = 'ws_live'")) == 100
    finally:
        engine.dispose()
    upgrade(empty_database_url)
    assert _drift(empty_database_url) == []
