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
    route = "/api/v2/credits"
    try:
        acct = await AccountFactory(runtime).create(credits=10)
        async with asgi_client(create_app(runtime=runtime)) as http:
            for _ in range(3):  # connections in the read pool, all to be cut
                assert_ok(await http.get(route, headers=acct.headers))
            runtime.key_cache.ttl = 0  # the key is read again: on a connection that was cut
            before = (_served("GET", route, 200), _served("GET", route, 503), _retried("GET", route))
            assert await terminate_backends(pg_database) > 0
            caplog.clear()
            with caplog.at_level(logging.INFO, logger="leadwire.access"):
                response = await http.get(route, headers=acct.headers)
            assert_ok(response)
        lines = [r for r in caplog.records if r.name == "leadwire.access" and r.__dict__["route"] == route]
        after = (_served("GET", route, 200), _served("GET", route, 503), _retried("GET", route))
    finally:
        await runtime.close()
    assert [(r.__dict__["status"], r.__dict__.get("attempts")) for r in lines] == [(200, 2)]
    assert lines[0].__dict__["request_id"] == response.headers["x-request-id"]
    # One request answered 200, none answered 503, and one retry.
    assert (after[0] - before[0], after[1] - before[1], after[2] - before[2]) == (1, 0, 1)
    lost = [r for r in caplog.records if r.name == "leadwire" and "connection lost" in r.getMessage()]
    assert [r.levelno for r in lost] == [logging.WARNING]
