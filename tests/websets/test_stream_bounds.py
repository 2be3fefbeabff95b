"""Streams are owned, counted and bounded: a cap per key and per account (429 past it, the slot back when
a stream ends), and a stream ends soon after its key is revoked — over real sockets."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import httpx
import pytest

from leadwire.app import create_app
from leadwire.platform.events import followers as follow
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error
from tests.support.lifespan import served
from tests.websets.conftest import create_webset


@contextlib.asynccontextmanager
async def open_stream(
    http: httpx.AsyncClient, acct: TestAccount, webset_id: str
) -> AsyncIterator[httpx.Response]:
    """A live stream of the list, held open until the block ends (its headers read, not its end)."""
    async with http.stream(
        "GET", f"/api/v2/websets/{webset_id}/items/stream", headers=acct.headers
    ) as response:
        yield response


async def until(condition: object, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "condition never held"
        await asyncio.sleep(0.05)


async def test_streams_past_the_key_and_account_caps_are_429_and_a_closed_one_frees_its_slot(
    world_runtime: Runtime,
) -> None:
    world_runtime.stream_slots.per_key, world_runtime.stream_slots.per_account = 2, 3
    accounts = AccountFactory(world_runtime)
    first = await accounts.create()
    second = await accounts.key(first.user_id)
    async with (
        served(create_app(runtime=world_runtime)) as base,
        httpx.AsyncClient(base_url=base, timeout=10) as http,
    ):
        webset_id = (await create_webset(http, first.headers, count=25))["webset"][
            "id"
        ]  # no worker: stays open
        async with contextlib.AsyncExitStack() as held:
            for _ in range(2):
                response = await held.enter_async_context(open_stream(http, first, webset_id))
                assert response.status_code == 200
            refused = await http.get(f"/api/v2/websets/{webset_id}/items/stream", headers=first.headers)
            assert_error(refused, 429, "api_key_rate_limit_exceeded")
            assert int(refused.headers["Retry-After"]) > 0
            response = await held.enter_async_context(open_stream(http, second, webset_id))
            assert response.status_code == 200
            refused = await http.get(f"/api/v2/websets/{webset_id}/items/stream", headers=second.headers)
            assert_error(refused, 429, "api_rate_limit_exceeded")
            assert world_runtime.stream_slots.open_streams() == 3
        # The streams closed by their clients give their slots back.
        await until(lambda: world_runtime.stream_slots.open_streams() == 0)
        async with open_stream(http, first, webset_id) as response:
            assert response.status_code == 200


async def test_a_stream_ends_soon_after_its_key_is_revoked(
    world_runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(follow, "ALLOWED_CHECK_SECONDS", 0.2)
    accounts = AccountFactory(world_runtime)
    acct = await accounts.create()
    async with (
        served(create_app(runtime=world_runtime)) as base,
        httpx.AsyncClient(base_url=base, timeout=10) as http,
    ):
        webset_id = (await create_webset(http, acct.headers, count=25))["webset"]["id"]
        async with open_stream(http, acct, webset_id) as response:
            assert response.status_code == 200
            await accounts.revoke(acct.key_id)

            async def drained() -> None:
                async for _ in response.aiter_bytes():  # returns when the server ends the stream
                    pass

            # A liveness bound, not a timing target: before, the stream of a revoked key never ended.
            await asyncio.wait_for(drained(), timeout=30)
    await until(lambda: world_runtime.stream_slots.open_streams() == 0)
