"""Helpers of the webset tests: create a list through the API and wait for it to finish."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.runtime import Runtime, build_runtime
from leadwire.sandbox.convert import convert_records
from leadwire.sandbox.ingest import ingest
from tests.support.envelope import assert_ok
from tests.support.lifespan import asgi_client


async def create_webset(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    response = await client.post(
        "/api/v2/websets", json={"query": "software companies", **body}, headers=headers
    )
    return assert_ok(response, 202)["item"]


async def wait_finished(
    client: httpx.AsyncClient, headers: dict[str, str], webset_id: str, *, timeout: float = 60.0
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        response = await client.get(f"/api/v2/websets/{webset_id}", headers=headers)
        if _retryable(response) and loop.time() < deadline:
            await asyncio.sleep(0.5)  # a busy database's 503 says "retry as it is", as a polling client does
            continue
        item: dict[str, Any] = assert_ok(response)["item"]
        if item["status"] in ("completed", "failed", "cancelled"):
            return item
        if loop.time() > deadline:
            raise AssertionError(f"webset {webset_id} stayed {item['status']}: {item['progress']}")
        await asyncio.sleep(0.05)


def _retryable(response: httpx.Response) -> bool:
    return response.status_code == 503 and response.json()["error"]["code"] == "task_unavailable"


async def all_items(
    client: httpx.AsyncClient, headers: dict[str, str], webset_id: str, **params: Any
) -> list[dict[str, Any]]:
    items, cursor = [], None
    while True:
        query = {"limit": 50, **params, **({"cursor": cursor} if cursor else {})}
        page = assert_ok(
            await client.get(f"/api/v2/websets/{webset_id}/items", params=query, headers=headers)
        )
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if not cursor:
            return items


def discovery_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The discovery job's handler hangs and its action's timeout is half a second: its job fails
    with `job_timeout` without the handler telling the list."""
    from leadwire.platform.jobs import registry
    from leadwire.websets import service

    async def stuck(ctx: Any, payload: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(60)
        raise AssertionError("unreachable")

    spec = registry.get(service.DISCOVER)
    monkeypatch.setitem(
        registry._specs, service.DISCOVER, dataclasses.replace(spec, handler=stuck, timeout_seconds=0.5)
    )


SWISS_CHEMICALS = 30  # more than one list of 25, fewer than two


@pytest.fixture(scope="session")
def small_pool_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Swiss chemical companies (30), and beside them Swiss banks and German chemical companies: what a
    search for Swiss chemical companies also turns up, and no list may be padded with."""
    rows = [
        {
            "name": f"Alpen Chemie {i}",
            "country": "CH",
            "industries": ["Chemicals"],
            "website": f"alpen{i}.example",
        }
        for i in range(SWISS_CHEMICALS)
    ]
    rows += [
        {"name": f"Bergbank {i}", "country": "CH", "industries": ["Banks"], "website": f"bergbank{i}.example"}
        for i in range(30)
    ]
    rows += [
        {
            "name": f"Rhein Chemie {i}",
            "country": "DE",
            "industries": ["Chemicals"],
            "website": f"rhein{i}.example",
        }
        for i in range(30)
    ]
    conversion = convert_records(enumerate(rows, start=1))
    work = tmp_path_factory.mktemp("pool")
    companies, documents = conversion.write(work / "ingest")
    world = work / "world"
    for kind, path in (("companies", companies), ("documents", documents)):
        assert ingest(world, kind, path).accepted
    return world


@contextlib.asynccontextmanager
async def runtime_over(settings: Settings, world: Path) -> AsyncIterator[Runtime]:
    """A runtime of the test's settings serving `world`."""
    runtime = await build_runtime(settings.model_copy(update={"world_dir": world}))
    try:
        yield runtime
    finally:
        await runtime.close()


@pytest.fixture
async def pool_runtime(settings: Settings, small_pool_world: Path) -> AsyncIterator[Runtime]:
    async with runtime_over(settings, small_pool_world) as runtime:
        yield runtime


@pytest.fixture
async def pool_client(pool_runtime: Runtime) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(create_app(runtime=pool_runtime)) as http:
        yield http


def domain(item: dict[str, object]) -> str:
    entity = item["entity"]
    assert isinstance(entity, dict)
    return str(entity["website"]).split("//", 1)[-1].split("/", 1)[0]
