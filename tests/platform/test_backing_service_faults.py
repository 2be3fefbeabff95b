"""PostgreSQL or Redis that hangs or is unreachable: bounded 503s from the database, never a hang or a
500; rate limits fall back to per-process counting when Redis fails, and `/readyz` says so."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from prometheus_client import REGISTRY
from sqlalchemy.engine import make_url

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.runtime import build_runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.faults import HangableProxy, hangable_proxy, terminate_backends
from tests.support.jobs import running_worker
from tests.support.lifespan import asgi_client
from tests.support.processes import free_port

# Generous bounds: what matters is "seconds, not minutes"; the timeouts below are 1 s.
BOUND_SECONDS = 10.0
FAST_TIMEOUTS = {
    "db_connect_timeout_seconds": 1.0,
    "db_statement_timeout_seconds": 1.0,
    "db_pool_timeout_seconds": 1.0,
    "redis_timeout_seconds": 0.3,
    "redis_retry_seconds": 60.0,
}


def _settings(tmp_path: Path, database_url: str, redis_url: str | None = None) -> Settings:
    return Settings(
        data_dir=tmp_path / "var",
        database_url=database_url,
        redis_url=redis_url,
        allowed_hosts="leadwire.test",
        plugins="tests.support.echo",
        **FAST_TIMEOUTS,
    )


@pytest.fixture
async def pg_proxy(pg_database: str) -> AsyncIterator[tuple[HangableProxy, str]]:
    from tests.conftest import _empty_pg

    await _empty_pg(pg_database)
    url = make_url(pg_database)
    async with hangable_proxy(url.host or "127.0.0.1", url.port or 5432) as proxy:
        yield proxy, url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)


def _fallbacks() -> float:
    return REGISTRY.get_sample_value("leadwire_ratelimit_fallback_total") or 0.0


async def _timed(request: object) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = await request  # type: ignore[misc]
    return response, time.monotonic() - started


async def test_hung_postgres_answers_503_within_the_timeouts_and_recovers(
    pg_proxy: tuple[HangableProxy, str], tmp_path: Path
) -> None:
    proxy, url = pg_proxy
    runtime = await build_runtime(_settings(tmp_path, url))
    try:
        acct = await AccountFactory(runtime).create(credits=10)
        async with asgi_client(create_app(runtime=runtime)) as http:
            assert_ok(await http.get("/api/v2/credits", headers=acct.headers))
            proxy.hang()  # pooled connections stop getting answers; new ones never finish connecting
            for path in ("/api/v2/credits", "/api/v2/jobs/job_01aaaaaaaaaaaaaaaaaaaaaaaa"):
                response, seconds = await _timed(http.get(path, headers=acct.headers))
                assert_error(response, 503, "task_unavailable")
                assert response.headers["retry-after"] == "5"
                assert seconds < BOUND_SECONDS
            ready, seconds = await _timed(http.get("/readyz"))
            assert ready.status_code == 503 and ready.json()["checks"]["database"] == "unavailable"
            assert seconds < BOUND_SECONDS

            proxy.heal()  # the server is back: the service recovers by itself
            statuses = [
                (await http.get("/api/v2/credits", headers=acct.headers)).status_code for _ in range(5)
            ]
            assert statuses[-1] == 200 and set(statuses) <= {200, 503}, statuses
            assert (await http.get("/readyz")).status_code == 200
    finally:
        await runtime.close()


async def _hung_listener() -> tuple[asyncio.Server, int]:
    async def never_answer(reader: asyncio.StreamReader, _writer: asyncio.StreamWriter) -> None:
        while await reader.read(65536):
            pass

    server = await asyncio.start_server(never_answer, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


@pytest.mark.parametrize("redis_state", ["hung", "unreachable"])
async def test_redis_outage_keeps_the_api_answering_with_per_process_limits(
    redis_state: str, settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server, port = await _hung_listener()
    if redis_state == "unreachable":
        server.close()
        await server.wait_closed()
        port = free_port()
    runtime = await build_runtime(
        settings.model_copy(update={"redis_url": f"redis://127.0.0.1:{port}/0", **FAST_TIMEOUTS})
    )
    fallbacks_before = _fallbacks()
    try:
        acct = await AccountFactory(runtime).create(credits=10)
        caplog.set_level(logging.WARNING, logger="leadwire.ratelimit")
        async with asgi_client(create_app(runtime=runtime)) as http:
            started = time.monotonic()
            responses = [await http.get("/api/v2/credits", headers=acct.headers) for _ in range(50)]
            assert time.monotonic() - started < BOUND_SECONDS
            assert {r.status_code for r in responses} == {200}
            # Counted per process meanwhile: the remaining budget still goes down request by request.
            remaining = [int(r.headers["x-user-ratelimit-remaining"]) for r in responses]
            # Each request takes one from the budget; a window that rolls over during the run resets it
            # once (a flake at a minute boundary when this asserted a strictly falling list).
            steps = [before - after for before, after in itertools.pairwise(remaining)]
            assert sum(1 for step in steps if step != 1) <= 1, remaining
            ready = await http.get("/readyz")
            assert ready.status_code == 200
            assert ready.json()["status"] == "degraded"
            assert ready.json()["checks"]["redis"] == "unavailable"
    finally:
        await runtime.close()
        server.close()
    assert _fallbacks() - fallbacks_before >= 49
    outage_lines = [r for r in caplog.records if "redis unavailable" in r.getMessage()]
    assert len(outage_lines) == 1  # logged once per outage, not once per request


async def test_redis_that_answers_reports_ready(settings: Settings, redis_url: str) -> None:
    runtime = await build_runtime(settings.model_copy(update={"redis_url": redis_url}))
    try:
        async with asgi_client(create_app(runtime=runtime)) as http, running_worker(runtime) as worker:
            await asyncio.wait_for(worker.announced.wait(), 10)
            ready = await http.get("/readyz")
            assert ready.json() == {
                "ok": True,
                "status": "ready",
                "checks": {"database": "ok", "redis": "ok", "workers": "ok"},
            }
    finally:
        await runtime.close()


async def test_readiness_is_not_fooled_by_a_pooled_connection_the_server_closed(
    tmp_path: Path, pg_database: str
) -> None:
    import asyncpg
    from sqlalchemy import text

    runtime = await build_runtime(_settings(tmp_path, pg_database))
    try:
        async with asgi_client(create_app(runtime=runtime)) as http:
            async with runtime.engine.connect() as connection:  # back in the pool afterwards
                pid = (await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one()
            # The server ends that session (as a restart or a DBA would); the pool does not pre-ping,
            # so its idle connection is dead until it is used once.
            admin = await asyncpg.connect(pg_database.replace("postgresql+asyncpg://", "postgresql://", 1))
            try:
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
            finally:
                await admin.close()
            ready = await http.get("/readyz")
            assert ready.status_code == 200, ready.text
            assert ready.json()["checks"]["database"] == "ok"
    finally:
        await runtime.close()


async def test_a_request_whose_pooled_connection_was_cut_is_answered_from_a_fresh_one(
    tmp_path: Path, pg_database: str
) -> None:
    """Every pooled connection cut (a restart, a failover): the next requests once met a dead connection
    and answered 503; now each is answered again, once, from a fresh connection."""
    from tests.conftest import _empty_pg

    await _empty_pg(pg_database)
    runtime = await build_runtime(_settings(tmp_path, pg_database))
    try:
        acct = await AccountFactory(runtime).create(credits=10)
        async with asgi_client(create_app(runtime=runtime)) as http:
            for _ in range(3):  # connections in every pool: the read, the write and the poll ones
                assert_ok(await http.get("/api/v2/credits", headers=acct.headers))
                created = await http.post("/api/v2/test/echo", json={}, headers=acct.headers)
                assert_ok(
                    await http.get(
                        f"/api/v2/jobs/{assert_ok(created, 202)['item']['id']}", headers=acct.headers
                    )
                )
            runtime.key_cache.ttl = 0  # the key is read again: on a connection that was cut
            assert await terminate_backends(pg_database) > 0
            assert_ok(await http.get("/api/v2/credits", headers=acct.headers))
            created = await http.post("/api/v2/test/echo", json={}, headers=acct.headers)
            job_id = assert_ok(created, 202)["item"]["id"]
            assert await terminate_backends(pg_database) > 0  # the poll pool's connections too
            assert_ok(await http.get(f"/api/v2/jobs/{job_id}", headers=acct.headers))
    finally:
        await runtime.close()


async def test_jobs_running_while_every_connection_is_cut_still_succeed(
    tmp_path: Path, pg_database: str
) -> None:
    """A handler whose database connection is cut mid-run is handed back and runs again (it once failed
    for good with handler_error); every job ends succeeded."""
    from tests.conftest import _empty_pg
    from tests.support.jobs import poll_job, running_worker

    await _empty_pg(pg_database)
    settings = _settings(tmp_path, pg_database).model_copy(update={"worker_poll_seconds": 0.05})
    runtime = await build_runtime(settings)
    try:
        acct = await AccountFactory(runtime).create(credits=100)
        async with asgi_client(create_app(runtime=runtime)) as http, running_worker(runtime, concurrency=8):
            ids = []
            for _ in range(8):
                created = await http.post(
                    "/api/v2/test/echo", json={"sleep": 0.5, "read_database": True}, headers=acct.headers
                )
                ids.append(assert_ok(created, 202)["item"]["id"])
            await asyncio.sleep(0.2)  # running: their progress reports and outcomes are still to write
            assert await terminate_backends(pg_database) > 0
            jobs = [
                await poll_job(http, acct.headers, job_id, until=("succeeded", "failed"), timeout=60)
                for job_id in ids
            ]
        assert [j["status"] for j in jobs] == ["succeeded"] * len(ids), [j.get("error") for j in jobs]
    finally:
        await runtime.close()
