"""Shared fixtures: every database-backed test runs on SQLite and on PostgreSQL.

Set LEADWIRE_TEST_REQUIRE_SERVICES=1 (CI does) to make a missing PostgreSQL or Redis a failure
instead of a skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from leadwire import capabilities
from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.migrate import upgrade
from leadwire.platform.runtime import Runtime, build_runtime
from tests.support import fuzzing, log_secrets
from tests.support.accounts import AccountFactory
from tests.support.conformance import ResponseConformance
from tests.support.lifespan import app_lifespan, asgi_client, forget_fastapi_callables
from tests.support.smtp import smtp_server  # noqa: F401  (a fixture for every test)

fuzzing.load_profile()  # derandomized property tests unless `make fuzz` (tests/support/fuzzing.py)

# The capabilities' declarations (scopes, actions, features, body limits) and the test plugin's, as
# every process installs them at start.
capabilities.enabled(("tests.support.echo",))

REQUIRE_SERVICES = os.environ.get("LEADWIRE_TEST_REQUIRE_SERVICES") == "1"
# Two test processes, PostgreSQL and the suite's subprocesses share two cores: opening a PostgreSQL
# session has taken past the 5 s production default there (CI: a connect timeout turned into a 503
# in an unrelated test). Tests that are about timeouts set their own; the servers tests start
# (tests/support/processes.py) are given it too.
os.environ.setdefault("LEADWIRE_DB_CONNECT_TIMEOUT_SECONDS", "30")
PG_ADMIN_DSN = os.environ.get("LEADWIRE_TEST_PG_DSN", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("LEADWIRE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def pytest_configure(config: pytest.Config) -> None:
    # No key, message body or attachment in any log line of the session (tests/support/log_secrets.py).
    config.pluginmanager.register(log_secrets, "leadwire-log-secrets")


@pytest.fixture(autouse=True)
def _apps_freed_after_each_test() -> Iterator[None]:
    """A test's apps are freed when it ends (tests/support/lifespan.forget_fastapi_callables)."""
    yield
    forget_fastapi_callables()


# The files that take minutes (processes, the schemathesis run, the API state machine) go first:
# `make test` spreads files over two processes (pytest-xdist, --dist loadfile), and a long file
# handed out last would leave one process working alone at the end.
LONG_FIRST = ("tests/platform/test_openapi_fuzz.py", "tests/e2e/", "tests/platform/test_api_state_machine.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::")[0]
        return next((n for n, prefix in enumerate(LONG_FIRST) if path.startswith(prefix)), len(LONG_FIRST))

    items.sort(key=rank)  # stable: the order within each group is the collection's


def service_missing(what: str) -> None:
    message = f"{what} is not reachable"
    if REQUIRE_SERVICES:
        pytest.fail(message + " (LEADWIRE_TEST_REQUIRE_SERVICES=1)")
    pytest.skip(message)


async def _pg_admin(*statements: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(PG_ADMIN_DSN, timeout=5)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


def _sqlalchemy_pg_url(database: str) -> str:
    base = PG_ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://", 1)
    return f"{base}/{database}"


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    name = f"lw_test_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    try:
        asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, Exception) as exc:
        if "asyncpg" in type(exc).__module__ or isinstance(exc, OSError | TimeoutError):
            service_missing(f"PostgreSQL ({exc})")
        raise
    url = _sqlalchemy_pg_url(name)
    upgrade(url)
    yield url
    asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "leadwire.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return path


async def _empty_pg(url: str) -> None:
    """Every table emptied, the schema kept. DELETE with foreign-key triggers off for the transaction
    (`session_replication_role = replica`), not TRUNCATE: a test leaves a few rows, and TRUNCATE gives
    each of the schema's tables and indexes a new file, 0.3 s per test where DELETE takes a few ms."""
    import asyncpg

    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        tables = await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
        )
        async with connection.transaction():
            await connection.execute("SET LOCAL session_replication_role = replica")
            for table in tables:
                await connection.execute(f'DELETE FROM "{table["tablename"]}"')
    finally:
        await connection.close()


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        target = tmp_path / "leadwire.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), target)
        return f"sqlite+aiosqlite:///{target}"
    url: str = request.getfixturevalue("pg_database")
    asyncio.run(_empty_pg(url))
    return url


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(
        data_dir=tmp_path / "var",
        database_url=database_url,
        redis_url=None,
        secret_key=None,
        plugins="tests.support.echo",
        allowed_hosts="leadwire.test,localhost,127.0.0.1",
        worker_poll_seconds=0.5,
        job_lease_seconds=5.0,
        shutdown_grace_seconds=2.0,
    )


@pytest.fixture
async def runtime(settings: Settings) -> AsyncIterator[Runtime]:
    runtime = await build_runtime(settings)
    yield runtime
    await runtime.close()


@pytest.fixture
async def app(runtime: Runtime) -> AsyncIterator[FastAPI]:
    application = create_app(runtime=runtime)
    async with app_lifespan(application):
        yield application


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """The app in-process; every response must conform to its OpenAPI document (tests/support/conformance)."""
    checker = ResponseConformance(app)

    async def register_secrets(request: httpx.Request) -> None:
        """Message bodies and attachments sent must never be logged (tests/support/log_secrets.py)."""
        if request.method == "POST" and "/outreach/" in request.url.path:
            # A streamed body (an oversized upload) is not read ahead: nothing of it is registered.
            with contextlib.suppress(ValueError, httpx.RequestNotRead):
                log_secrets.register_outreach_body(json.loads(request.content or b"null"))

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(
        transport=transport,
        base_url="http://leadwire.test",
        event_hooks={"request": [register_secrets], "response": [checker.hook()]},
    ) as http:
        yield http
    assert not checker.failures, "responses outside the OpenAPI document:\n" + "\n".join(checker.failures)


@pytest.fixture
def accounts(runtime: Runtime) -> AccountFactory:
    return AccountFactory(runtime)


@pytest.fixture
def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        service_missing(f"Redis ({exc})")
    return REDIS_URL


@pytest.fixture(scope="session")
def indexed_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small sandbox world (generator + search index) shared by the whole session."""
    from datetime import date

    from leadwire.sandbox.world import build_world
    from leadwire.search.build import build_search_index

    world_dir = tmp_path_factory.mktemp("world") / "world"
    # A fixed as_of keeps the world identical from run to run (ensure_world uses today's date).
    build_world(world_dir, seed=7, size="small", as_of=date(2026, 11, 1), progress=False)
    build_search_index(world_dir, progress=False)
    return world_dir


@pytest.fixture
def world_settings(settings: Settings, indexed_world: Path) -> Settings:
    return settings.model_copy(update={"world_dir": indexed_world})


@pytest.fixture
async def world_runtime(world_settings: Settings) -> AsyncIterator[Runtime]:
    runtime = await build_runtime(world_settings)
    yield runtime
    await runtime.close()


@pytest.fixture
async def world_client(world_runtime: Runtime) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(create_app(runtime=world_runtime)) as http:
        yield http
