"""`platform.driver_read`: rows read on the driver are the rows a session reads, and the driver's
failures are the failures the app already answers (transient → 503, broken connections discarded)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy import column, func, select, table, text
from sqlalchemy import exc as sa_exc

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.db import DbTimeouts, describe_failure, is_transient, make_engine
from leadwire.platform.driver_read import DriverReads
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.views import PUBLIC_JOB_READ, public_job
from leadwire.platform.runtime import Runtime, build_runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error
from tests.support.jobs import create_echo, poll_job, running_worker
from tests.support.lifespan import asgi_client
from tests.support.processes import free_port

SLEEP = select(func.pg_sleep(5).label("slept"))
SLEEP_BRIEFLY = select(func.pg_sleep(0.2).label("slept"))
SLEEP_A_SECOND = select(func.pg_sleep(1).label("slept"))


async def _jobs_in_every_state(client: httpx.AsyncClient, headers: dict[str, str]) -> list[str]:
    bodies: list[dict[str, Any]] = [
        {"message": "naïve — ünïcode ✓"},
        {"fail": "echo_failed", "fail_detail": "asked to fail"},
        {"scheduled_in": 3600},
    ]
    ids = [(await create_echo(client, headers, body)).json()["item"]["id"] for body in bodies]
    for job_id, until in zip(ids[:2], (("succeeded",), ("failed",)), strict=True):
        await poll_job(client, headers, job_id, until=until)
    return ids


async def test_a_driver_row_reads_as_the_sessions_row(
    runtime: Runtime, client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    account = await accounts.create(plan="business", credits=100)
    async with running_worker(runtime):
        ids = await _jobs_in_every_state(client, account.headers)
    async with runtime.reader() as session:
        for job_id in ids:
            row = await runtime.driver_reads.first(PUBLIC_JOB_READ, {"job_id": job_id})
            job = await session.get(Job, job_id)
            assert job is not None and row is not None
            for column in PUBLIC_JOB_READ.selected_columns:
                assert getattr(row, column.key) == getattr(job, column.key), column.key
            assert public_job(row) == public_job(job)
    assert {
        public_job(await runtime.driver_reads.first(PUBLIC_JOB_READ, {"job_id": i}))["status"] for i in ids
    } == {
        "succeeded",
        "failed",
        "scheduled",
    }
    assert await runtime.driver_reads.first(PUBLIC_JOB_READ, {"job_id": "job_missing"}) is None


@contextlib.asynccontextmanager
async def _runtime(settings: Settings) -> AsyncIterator[Runtime]:
    runtime = await build_runtime(settings)
    try:
        yield runtime
    finally:
        await runtime.close()


def _pg_settings(tmp_path: Path, url: str, **overrides: Any) -> Settings:
    return Settings(
        data_dir=tmp_path,
        database_url=url,
        plugins="tests.support.echo",
        allowed_hosts="leadwire.test,localhost,127.0.0.1",
        **overrides,
    )


async def _end_other_sessions(url: str) -> int:
    """What a server restart or a DBA does to every session of the database but the caller's."""
    admin = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        return int(
            await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    finally:
        await admin.close()


async def test_connections_the_server_ended_are_replaced(tmp_path: Path, pg_database: str) -> None:
    async with _runtime(_pg_settings(tmp_path, pg_database, db_poll_pool_size=2)) as runtime:
        reads = runtime.driver_reads
        # Two connections in the pool, both about to be ended by the server.
        await asyncio.gather(*(reads.first(SLEEP_BRIEFLY, {}) for _ in range(2)))
        assert reads.connections == 2
        assert await _end_other_sessions(pg_database) >= 2
        # A read may meet a connection whose end the client has not seen yet: it fails as transient
        # (503 for a request), and every connection opened before it is replaced. The reads after it
        # find new ones.
        try:
            await reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"})
        except sa_exc.OperationalError as raised:
            assert raised.connection_invalidated and is_transient(raised)
        for _ in range(3):
            assert await reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}) is None


async def test_the_pool_never_holds_more_than_its_size(tmp_path: Path, pg_database: str) -> None:
    async with _runtime(_pg_settings(tmp_path, pg_database, db_poll_pool_size=2)) as runtime:
        reads = runtime.driver_reads
        assert reads.connections == 0  # opened on demand
        rows = await asyncio.gather(*(reads.first(SLEEP_BRIEFLY, {}) for _ in range(12)))
        assert len(rows) == 12 and reads.connections == 2


async def test_a_statement_past_the_timeout_is_transient_and_its_connection_stays_usable(
    tmp_path: Path, pg_database: str
) -> None:
    async with _runtime(
        _pg_settings(tmp_path, pg_database, db_statement_timeout_seconds=0.3, db_poll_pool_size=1)
    ) as runtime:
        with pytest.raises(sa_exc.DBAPIError) as raised:
            await runtime.driver_reads.first(SLEEP, {})
        assert is_transient(raised.value) and not raised.value.connection_invalidated
        assert isinstance(raised.value.orig, asyncpg.QueryCanceledError)
        assert describe_failure(raised.value).endswith("QueryCanceledError (SQLSTATE 57014)")
        assert await runtime.driver_reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}) is None
        assert runtime.driver_reads.connections == 1


async def test_a_read_cancelled_mid_statement_leaves_its_connection_answering_the_next_read(
    tmp_path: Path, pg_database: str
) -> None:
    async with _runtime(_pg_settings(tmp_path, pg_database, db_poll_pool_size=1)) as runtime:
        reads = runtime.driver_reads
        sleeping = asyncio.create_task(reads.first(SLEEP, {}))
        await asyncio.sleep(0.3)
        sleeping.cancel()
        with pytest.raises(asyncio.CancelledError):
            await sleeping
        # Were the sleep still running on it, the next read would answer "another operation is in
        # progress" or the sleep's row.
        for _ in range(3):
            assert await reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}) is None


async def test_an_unreachable_server_is_transient(tmp_path: Path) -> None:
    engine = make_engine(f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/nowhere", readonly=True)
    reads = DriverReads(engine, pool_size=1, timeouts=DbTimeouts())
    try:
        with pytest.raises(sa_exc.DBAPIError) as raised:
            await reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"})
        assert is_transient(raised.value)
    finally:
        await reads.close()
        await engine.dispose()


async def test_a_connection_ended_mid_read_fails_that_read_as_transient_and_is_replaced(
    tmp_path: Path, pg_database: str
) -> None:
    async with _runtime(_pg_settings(tmp_path, pg_database, db_poll_pool_size=1)) as runtime:
        reads = runtime.driver_reads
        sleeping = asyncio.create_task(reads.first(SLEEP, {}))
        await asyncio.sleep(0.3)
        assert await _end_other_sessions(pg_database) >= 1
        with pytest.raises(sa_exc.OperationalError) as raised:
            await sleeping
        assert raised.value.connection_invalidated and is_transient(raised.value)
        assert await reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}) is None


async def test_a_job_poll_recovers_by_itself_after_the_server_ended_its_connections(
    tmp_path: Path, pg_database: str
) -> None:
    async with _runtime(_pg_settings(tmp_path, pg_database)) as runtime:
        account = await AccountFactory(runtime).create(plan="business", credits=10)
        async with asgi_client(create_app(runtime=runtime)) as http:
            job_id = (await create_echo(http, account.headers, {"scheduled_in": 3600})).json()["item"]["id"]
            assert (await http.get(f"/api/v2/jobs/{job_id}", headers=account.headers)).status_code == 200
            await _end_other_sessions(pg_database)
            # The first poll may meet a connection whose end the client has not seen yet: then it is
            # 503 with Retry-After, never a 500. The poll after it answers.
            first = await http.get(f"/api/v2/jobs/{job_id}", headers=account.headers)
            if first.status_code != 200:
                assert_error(first, 503, "task_unavailable")
                assert first.headers["retry-after"] == "5"
            again = await http.get(f"/api/v2/jobs/{job_id}", headers=account.headers)
            assert again.status_code == 200 and again.json()["item"]["status"] == "scheduled"


async def test_an_in_memory_sqlite_database_is_read_on_the_engines_own_connection() -> None:
    # No second connection can open an in-memory database: the read borrows one from the engine.
    engine = make_engine("sqlite+aiosqlite:///:memory:", readonly=True)
    reads = DriverReads(engine, pool_size=1, timeouts=DbTimeouts())
    answers = table("answers", column("answer"))
    try:
        async with engine.connect() as connection:
            await connection.execute(text("CREATE TABLE answers (answer INTEGER)"))
            await connection.execute(text("INSERT INTO answers VALUES (42)"))
        # A connection of its own would open another, empty database: "no such table".
        row = await reads.first(select(answers.c.answer), {})
        assert row is not None and row.answer == 42
    finally:
        await reads.close()
        await engine.dispose()


async def test_a_read_that_waits_past_the_pool_timeout_is_transient(tmp_path: Path, pg_database: str) -> None:
    async with _runtime(
        _pg_settings(tmp_path, pg_database, db_poll_pool_size=1, db_pool_timeout_seconds=0.2)
    ) as runtime:
        reads = runtime.driver_reads
        holding = asyncio.create_task(reads.first(SLEEP_A_SECOND, {}))
        await asyncio.sleep(0.2)
        with pytest.raises(sa_exc.TimeoutError) as raised:
            await reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"})
        assert is_transient(raised.value)
        await holding
        assert await reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}) is None and reads.connections == 1


async def test_a_waiter_that_gives_up_leaves_the_queue_to_the_next(tmp_path: Path, pg_database: str) -> None:
    """A read cancelled while it waits for a connection is skipped: the connection goes to the next."""
    async with _runtime(_pg_settings(tmp_path, pg_database, db_poll_pool_size=1)) as runtime:
        reads = runtime.driver_reads
        holding = asyncio.create_task(reads.first(SLEEP_BRIEFLY, {}))
        await asyncio.sleep(0.05)
        gives_up = asyncio.create_task(reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}))
        waits = asyncio.create_task(reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}))
        await asyncio.sleep(0.05)
        gives_up.cancel()
        await holding
        assert await asyncio.wait_for(waits, 5) is None
        with pytest.raises(asyncio.CancelledError):
            await gives_up
        rows = await asyncio.gather(*(reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}) for _ in range(5)))
        assert rows == [None] * 5 and reads.connections == 1


async def test_a_connection_handed_to_a_waiter_as_it_gives_up_is_passed_on(
    tmp_path: Path, pg_database: str
) -> None:
    """The race the pool must not lose: a release hands the connection to a waiter whose task is
    cancelled before it resumes. The connection goes back, not astray with the cancelled read."""
    async with _runtime(_pg_settings(tmp_path, pg_database, db_poll_pool_size=1)) as runtime:
        reads = runtime.driver_reads
        assert await reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}) is None  # the pool is open
        pool = reads._pool
        held, generation = await pool._acquire()
        waiter = asyncio.create_task(pool._acquire())
        await asyncio.sleep(0.05)  # parked in the queue
        pool._release(held, generation)  # handed to the waiter's future...
        waiter.cancel()  # ...and cancelled before the waiter runs again
        with pytest.raises(asyncio.CancelledError):
            await waiter
        assert reads.connections == 1
        rows = await asyncio.gather(*(reads.first(PUBLIC_JOB_READ, {"job_id": "job_x"}) for _ in range(3)))
        assert rows == [None] * 3 and reads.connections == 1
