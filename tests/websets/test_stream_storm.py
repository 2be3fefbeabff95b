"""Streams against a read pool that runs dry (PostgreSQL, a real server on loopback): a stream that
cannot start answers 503 with `Retry-After` before any header of a stream is sent; one that started
and then cannot read ends with an `error` event (its code, and `retry:` to reconnect after) instead of
a cut connection; no task's exception is left unretrieved, nothing is logged as unhandled, and once the
pool is free again a stream opens as before. Bounded: 8 clients, a read pool of 2 (+1), 0.5 s waits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.db import transaction
from leadwire.platform.runtime import Runtime
from leadwire.websets import states
from leadwire.websets.models import Webset
from tests.conftest import _empty_pg
from tests.support.accounts import AccountFactory
from tests.support.lifespan import served
from tests.websets.conftest import create_webset

STREAMS = 4


@pytest.fixture
def database_url(pg_database: str) -> str:
    asyncio.run(_empty_pg(pg_database))
    return pg_database


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"db_read_pool_size": 2, "db_pool_timeout_seconds": 0.5})


@contextlib.asynccontextmanager
async def dry_read_pool(runtime: Runtime) -> AsyncIterator[list[AsyncConnection]]:
    """Every connection of the read pool checked out and held (until a checkout times out)."""
    engine = runtime.read_engine or runtime.engine
    held: list[AsyncConnection] = []
    try:
        while True:
            try:
                held.append(await engine.connect())
            except Exception:  # the pool's timeout: it is dry
                break
        yield held
    finally:
        for connection in held:
            await connection.close()


async def _body(response: httpx.Response) -> str:
    return "".join([chunk async for chunk in response.aiter_text()])


def _events(body: str) -> list[dict[str, str]]:
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and line[0] != ":")
        if fields:
            events.append(fields)
    return events


async def test_a_stream_that_cannot_read_is_refused_before_its_headers_or_ends_with_an_error_event(
    runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    loop = asyncio.get_running_loop()
    unretrieved: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: unretrieved.append(context))
    caplog.set_level(logging.WARNING)
    owner = await AccountFactory(runtime).create()
    async with (
        served(create_app(runtime=runtime)) as base,
        httpx.AsyncClient(base_url=base, timeout=20) as http,
    ):
        webset_id = (await create_webset(http, owner.headers))["webset"]["id"]  # no worker: it waits
        path = f"/api/v2/websets/{webset_id}/items/stream"
        opened = [await http.send(http.build_request("GET", path, headers=owner.headers), stream=True)]
        opened += [
            await http.send(http.build_request("GET", path, headers=owner.headers), stream=True)
            for _ in range(STREAMS - 1)
        ]
        assert [r.status_code for r in opened] == [200] * STREAMS
        async with dry_read_pool(runtime) as held:
            assert held, "the read pool gave no connection"
            refused = [await http.get(path, headers=owner.headers) for _ in range(STREAMS)]
            async with transaction(runtime.sessionmaker) as session:  # a change the followers must read
                webset = await session.get(Webset, webset_id)
                assert webset is not None
                await states.append_changed(session, runtime.notifier, webset, [], [])
            bodies = await asyncio.wait_for(asyncio.gather(*(_body(r) for r in opened)), timeout=15)
        for response in refused:
            assert response.status_code == 503 and response.headers["retry-after"], response.text
            assert response.json()["error"]["code"] == "task_unavailable"
            assert not response.headers["content-type"].startswith("text/event-stream")
        for body in bodies:
            last = _events(body)[-1]
            assert last["event"] == "error" and last["retry"] == "5000", body
            assert '"task_unavailable"' in last["data"]
        again = await http.send(http.build_request("GET", path, headers=owner.headers), stream=True)
        assert again.status_code == 200
        await again.aclose()
    await asyncio.sleep(0.05)
    loop.set_exception_handler(None)
    assert unretrieved == []
    unhandled = [
        r for r in caplog.records if "ASGI" in r.getMessage() or "unhandled" in r.getMessage().lower()
    ]
    assert unhandled == []
