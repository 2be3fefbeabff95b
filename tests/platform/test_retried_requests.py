"""A request answered again from a fresh database connection (`platform/http/retry.py`) is one request
in the access log and the metrics, with the status its client got; the retry is counted apart
(`leadwire_requests_retried_total`). It was logged and counted as the 503 its client never received."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.runtime import build_runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.faults import terminate_backends
from tests.support.lifespan import asgi_client


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def _served(method: str, route: str, status: int) -> float:
    return _sample("leadwire_http_requests_total", method=method, route=route, status=str(status))


def _retried(method: str, route: str) -> float:
    return _sample("leadwire_requests_retried_total", method=method, route=route)


async def test_a_request_answered_again_is_one_request_with_its_final_status_and_a_counted_retry(
    tmp_path: Path, pg_database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A route served by FastAPI (the balance), and a flat one (the job poll, `platform/flat_route`)."""
    from tests.conftest import _empty_pg

    await _empty_pg(pg_database)
    settings = Settings(
        data_dir=tmp_path / "var",
        database_url=pg_database,
        redis_url=None,
        allowed_hosts="leadwire.test",
        plugins="tests.support.echo",
    )
    runtime = await build_runtime(settings)
    seen: list[tuple[str, list[tuple[int, int | None]], bool, tuple[float, float, float]]] = []
    lost = []
    try:
        acct = await AccountFactory(runtime).create(credits=10)
        async with asgi_client(create_app(runtime=runtime)) as http:
            job_id = assert_ok(await http.post("/api/v2/test/echo", json={}, headers=acct.headers), 202)
            paths = {
                "/api/v2/credits": "/api/v2/credits",
                "/api/v2/jobs/{job_id}": f"/api/v2/jobs/{job_id['item']['id']}",
            }
            for _ in range(3):  # connections in the read and the poll pools, all to be cut
                for path in paths.values():
                    assert_ok(await http.get(path, headers=acct.headers))
            runtime.key_cache.ttl = 0  # the key is read again: on a connection that was cut
            for route, path in paths.items():
                before = (_served("GET", route, 200), _served("GET", route, 503), _retried("GET", route))
                assert await terminate_backends(pg_database) > 0
                caplog.clear()
                with caplog.at_level(logging.INFO):
                    response = await http.get(path, headers=acct.headers)
                assert_ok(response)
                lines = [r.__dict__ for r in caplog.records if r.name == "leadwire.access"]
                after = (_served("GET", route, 200), _served("GET", route, 503), _retried("GET", route))
                seen.append(
                    (
                        route,
                        [(line["status"], line.get("attempts")) for line in lines if line["route"] == route],
                        all(line["request_id"] == response.headers["x-request-id"] for line in lines),
                        (after[0] - before[0], after[1] - before[1], after[2] - before[2]),
                    )
                )
                lost += [r.levelno for r in caplog.records if "connection lost" in r.getMessage()]
    finally:
        await runtime.close()
    # Each: one access line, answered 200 on its second attempt under the id its client got; one request
    # answered 200, none answered 503, and one retry.
    assert seen == [(route, [(200, 2)], True, (1, 0, 1)) for route in paths]
    assert lost == [logging.WARNING, logging.WARNING]


async def test_a_request_answered_again_counts_once_against_the_rate_limits(
    tmp_path: Path, pg_database: str
) -> None:
    """The key is cached, so the first attempt is counted by the rate limiter before its read meets the
    cut connection; the request is counted once, by the attempt that answers."""
    from tests.conftest import _empty_pg

    await _empty_pg(pg_database)
    settings = Settings(
        data_dir=tmp_path / "var",
        database_url=pg_database,
        redis_url=None,  # the process's own counters, read below
        allowed_hosts="leadwire.test",
        plugins="tests.support.echo",
    )
    runtime = await build_runtime(settings)

    def counted(key_id: str) -> int:
        counts = runtime.rate_limiter.local._counts
        return sum(count for name, (_, count) in counts.items() if f":key:{key_id}:" in name)

    try:
        acct = await AccountFactory(runtime).create(credits=10)
        async with asgi_client(create_app(runtime=runtime)) as http:
            for _ in range(3):  # connections in the read pool, all to be cut
                assert_ok(await http.get("/api/v2/credits", headers=acct.headers))
            before, retried = counted(acct.key_id), _retried("GET", "/api/v2/credits")
            assert await terminate_backends(pg_database) > 0
            assert_ok(await http.get("/api/v2/credits", headers=acct.headers))
            after = counted(acct.key_id)
        assert _retried("GET", "/api/v2/credits") == retried + 1  # it was answered again
    finally:
        await runtime.close()
    assert after - before == 1
