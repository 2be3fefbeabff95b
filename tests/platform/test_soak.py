"""Soak, bounded in count and time: 200 live list streams (the per-key and per-account caps filled by
ten keys of four accounts) and 2,000 job polls against one API process for 20 s. Meanwhile and after,
every other route answers; once the streams close, no stream slot, database connection or task is
left behind. Timings are printed for the record, never asserted (`bench/soak.py` measures them)."""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from collections.abc import Awaitable, Callable

import httpx

from leadwire.app import create_app
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.lifespan import served
from tests.websets.conftest import create_webset

STREAMS_PER_ACCOUNT = 50  # the account cap: keys of 20, 20 and 10 (the key cap is 20)
ACCOUNTS = 4
POLLS = 2_000
POLLERS = 20
SECONDS = 20.0


async def _keys(accounts: AccountFactory) -> list[list[TestAccount]]:
    """Per account, its three keys."""
    keys = []
    for _ in range(ACCOUNTS):
        first = await accounts.create(credits=1000)
        keys.append([first, await accounts.key(first.user_id), await accounts.key(first.user_id)])
    return keys


async def _other_routes(http: httpx.AsyncClient, acct: TestAccount, webset_id: str) -> dict[str, int]:
    """Every kind of route but the soaked ones: reads, a write, a list, health and the document."""
    calls: dict[str, Callable[[], Awaitable[httpx.Response]]] = {
        "credits": lambda: http.get("/api/v2/credits", headers=acct.headers),
        "webset": lambda: http.get(f"/api/v2/websets/{webset_id}", headers=acct.headers),
        "websets": lambda: http.get("/api/v2/websets", headers=acct.headers),
        "items": lambda: http.get(f"/api/v2/websets/{webset_id}/items", headers=acct.headers),
        "accounts": lambda: http.get("/api/v2/connect/accounts", headers=acct.headers),
        "create": lambda: http.post("/api/v2/test/echo", json={}, headers=acct.headers),
        "readyz": lambda: http.get("/readyz"),
        "openapi": lambda: http.get("/openapi.json"),
    }
    return {name: (await call()).status_code for name, call in calls.items()}


async def test_streams_and_polls_held_for_twenty_seconds_leave_every_route_answering_and_nothing_held(
    world_runtime: Runtime,
) -> None:
    keys = await _keys(AccountFactory(world_runtime))
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=100)
    async with (
        served(create_app(runtime=world_runtime)) as base,
        httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http,
    ):
        websets = [(await create_webset(http, k[0].headers, count=25))["webset"]["id"] for k in keys]
        jobs = []
        for k in keys:
            created = await http.post("/api/v2/test/echo", json={}, headers=k[0].headers)
            jobs.append((k[0], created.json()["item"]["id"]))
        idle = await _latencies(http, keys[0][0])
        tasks_before = len(asyncio.all_tasks())

        async with contextlib.AsyncExitStack() as held:
            statuses = []
            for account_keys, webset_id in zip(keys, websets, strict=True):
                for key, count in zip(account_keys, (20, 20, 10), strict=True):
                    for _ in range(count):
                        response = await held.enter_async_context(
                            http.stream(
                                "GET", f"/api/v2/websets/{webset_id}/items/stream", headers=key.headers
                            )
                        )
                        statuses.append(response.status_code)
            assert statuses == [200] * STREAMS_PER_ACCOUNT * ACCOUNTS
            assert world_runtime.stream_slots.open_streams() == STREAMS_PER_ACCOUNT * ACCOUNTS

            polled, during = await asyncio.gather(
                _poll(http, jobs), _latencies(http, keys[1][0], spread=SECONDS)
            )
            assert len(polled) == POLLS and set(polled) == {200}, {s: polled.count(s) for s in set(polled)}
            answers = await _other_routes(http, keys[2][0], websets[2])
            assert all(200 <= status < 300 for status in answers.values()), str(answers)

        await _until(lambda: world_runtime.stream_slots.open_streams() == 0)
        after = await _latencies(http, keys[0][0])
        answers = await _other_routes(http, keys[3][0], websets[3])
        assert all(200 <= status < 300 for status in answers.values()), str(answers)
    # Everything checked out during the soak came back (the server has stopped, the runtime stays).
    assert world_runtime.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    if world_runtime.read_engine is not None:
        assert world_runtime.read_engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    assert world_runtime.poll_connections_in_use() == 0
    # A leaked task never ends; a loaded machine only takes longer to end the 200 streams' own tasks.
    await _until(
        lambda: len(asyncio.all_tasks()) <= tasks_before,
        timeout=60.0,
        why=lambda: sorted(str(task.get_coro()) for task in asyncio.all_tasks())[:20],
    )
    print(
        f"\ncredits p50 ms: idle {idle:.1f}, during the soak {during:.1f}, after {after:.1f}; "
        f"tasks before {tasks_before}, after {len(asyncio.all_tasks())}"
    )


async def _poll(http: httpx.AsyncClient, jobs: list[tuple[TestAccount, str]]) -> list[int]:
    """POLLS job polls from POLLERS concurrent clients, spread over SECONDS."""
    per_poller = POLLS // POLLERS
    pause = SECONDS / per_poller

    async def poller(n: int) -> list[int]:
        acct, job_id = jobs[n % len(jobs)]
        statuses = []
        for _ in range(per_poller):
            started = time.monotonic()
            statuses.append((await http.get(f"/api/v2/jobs/{job_id}", headers=acct.headers)).status_code)
            await asyncio.sleep(max(0.0, pause - (time.monotonic() - started)))
        return statuses

    results = await asyncio.gather(*(poller(n) for n in range(POLLERS)))
    return [status for statuses in results for status in statuses]


async def _latencies(http: httpx.AsyncClient, acct: TestAccount, *, spread: float = 0.0) -> float:
    """p50 milliseconds of 20 credit reads (spread over `spread` seconds)."""
    samples = []
    for _ in range(20):
        started = time.monotonic()
        response = await http.get("/api/v2/credits", headers=acct.headers)
        samples.append((time.monotonic() - started) * 1000)
        assert response.status_code == 200, response.text
        await asyncio.sleep(spread / 20)
    return statistics.median(samples)


async def _until(
    condition: Callable[[], bool], timeout: float = 15.0, why: Callable[[], object] | None = None
) -> None:
    """Wait for `condition`; past `timeout`, fail saying `why()` (what is left) when given."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"condition never held: {why() if why else ''}"
        await asyncio.sleep(0.1)
