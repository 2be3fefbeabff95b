"""Per-key and account-wide rate limits, their headers, Redis storage, and the active-job limit."""

from __future__ import annotations

import dataclasses
import uuid

import httpx
import pytest
from fastapi import FastAPI

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.admission.ratelimit import RateLimiter, RedisCounters
from leadwire.platform.errors import ApiError
from leadwire.platform.plans import PLANS, RateLimit, get_plan
from leadwire.platform.runtime import build_runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import create_echo

HEADERS = (
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-window-ms",
    "x-user-ratelimit-limit",
    "x-user-ratelimit-remaining",
    "ratelimit-policy",
    "ratelimit",
)


@pytest.fixture
def tight_free_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    plan = PLANS["free"]
    # Windows are aligned to the clock: an hour-long one keeps a test's requests inside one window.
    limits = {**plan.rate_limits, "read": RateLimit(per_key=3, per_account=5, window_seconds=3600)}
    monkeypatch.setitem(PLANS, "free", dataclasses.replace(plan, rate_limits=limits, max_active_jobs=2))


async def test_rate_limit_headers_on_every_authenticated_response(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(plan="pro")
    ok = await client.get("/api/v2/credits", headers=acct.headers)
    for name in HEADERS:
        assert name in ok.headers, name
    assert ok.headers["x-ratelimit-limit"] == "600" and ok.headers["x-ratelimit-window-ms"] == "60000"
    assert int(ok.headers["x-ratelimit-remaining"]) == 599
    error = await client.get("/api/v2/jobs/job_missing", headers=acct.headers)
    assert error.status_code == 404 and "x-ratelimit-remaining" in error.headers


async def test_key_limit_then_shared_account_limit(
    client: httpx.AsyncClient, accounts: AccountFactory, tight_free_plan: None
) -> None:
    first = await accounts.create(plan="free")
    second = await accounts.key(first.user_id)
    for _ in range(3):
        assert_ok(await client.get("/api/v2/credits", headers=first.headers))
    limited = await client.get("/api/v2/credits", headers=first.headers)
    assert_error(limited, 429, "api_key_rate_limit_exceeded")
    assert int(limited.headers["retry-after"]) >= 1 and limited.headers["x-ratelimit-remaining"] == "0"
    assert limited.headers["x-user-ratelimit-remaining"] == "2"  # 3 of the account's 5 spent, not 4
    # The second key has its own key budget but shares the account's 5 requests: 3 used by the first key.
    for _ in range(2):
        assert_ok(await client.get("/api/v2/credits", headers=second.headers))
    shared = await client.get("/api/v2/credits", headers=second.headers)
    assert_error(shared, 429, "api_rate_limit_exceeded")
    assert shared.headers["x-user-ratelimit-remaining"] == "0" and int(shared.headers["retry-after"]) >= 1
    # v1, with a third key, counts against the same account budget.
    third = await accounts.key(first.user_id)
    assert_error(
        await client.get("/api/v1/connect/accounts", headers=third.headers), 429, "api_rate_limit_exceeded"
    )


async def test_other_accounts_are_not_affected(
    client: httpx.AsyncClient, accounts: AccountFactory, tight_free_plan: None
) -> None:
    busy = await accounts.create(plan="free")
    calm = await accounts.create(plan="free")
    for _ in range(4):
        await client.get("/api/v2/credits", headers=busy.headers)
    assert_ok(await client.get("/api/v2/credits", headers=calm.headers))


async def test_request_classes_have_separate_budgets(
    client: httpx.AsyncClient, accounts: AccountFactory, tight_free_plan: None
) -> None:
    acct = await accounts.create(plan="free")
    for _ in range(3):
        await client.get("/api/v2/credits", headers=acct.headers)
    assert_error(
        await client.get("/api/v2/credits", headers=acct.headers), 429, "api_key_rate_limit_exceeded"
    )
    assert_ok(await create_echo(client, acct.headers), 202)  # the task class is untouched


async def test_active_job_limit_is_429_with_retry_after(
    client: httpx.AsyncClient, accounts: AccountFactory, tight_free_plan: None
) -> None:
    acct = await accounts.create(plan="free")
    assert_ok(await create_echo(client, acct.headers), 202)
    job = assert_ok(await create_echo(client, acct.headers), 202)["item"]["id"]
    third = await create_echo(client, acct.headers)
    assert_error(third, 429, "api_rate_limit_exceeded")
    assert third.headers["retry-after"]
    assert_ok(await client.post(f"/api/v2/jobs/{job}/cancel", headers=acct.headers))
    assert_ok(await create_echo(client, acct.headers), 202)


async def test_redis_storage_shares_limits_between_processes(
    settings: Settings, redis_url: str, tight_free_plan: None
) -> None:
    """Two runtimes (as two API processes would have) over one Redis share the account budget."""
    settings = settings.model_copy(update={"redis_url": redis_url})
    runtimes = [await build_runtime(settings), await build_runtime(settings)]
    apps: list[FastAPI] = [create_app(runtime=r) for r in runtimes]
    try:
        acct = await AccountFactory(runtimes[0]).create(plan="free")
        other_key = await AccountFactory(runtimes[0]).key(acct.user_id)
        statuses = []
        for i in range(6):
            app = apps[i % 2]
            headers = acct.headers if i < 3 else other_key.headers
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://localhost"
            ) as http:
                app.state.runtime = runtimes[i % 2]
                statuses.append((await http.get("/api/v2/credits", headers=headers)).status_code)
        assert statuses == [200, 200, 200, 200, 200, 429]
    finally:
        for runtime in runtimes:
            await runtime.close()


async def test_redis_counts_both_limits_in_one_script_and_spares_the_account_when_the_key_is_over(
    redis_url: str,
) -> None:
    counters = RedisCounters(redis_url, timeout=1.0)
    key, account = f"rl:test:key:{uuid.uuid4().hex}:60:1", f"rl:test:user:{uuid.uuid4().hex}:60:1"
    try:
        assert await counters.count(key, account, 61, per_key=2) == (1, 1)
        assert await counters.count(key, account, 61, per_key=2) == (2, 2)
        # Over its key's limit, a request is refused without spending the account's budget.
        assert await counters.count(key, account, 61, per_key=2) == (3, 2)
        for name in (key, account):
            assert 0 < await counters.client.ttl(RedisCounters.PREFIX + name) <= 61
    finally:
        await counters.client.delete(RedisCounters.PREFIX + key, RedisCounters.PREFIX + account)
        await counters.close()


async def test_redis_counts_of_one_loop_turn_share_a_round_trip_and_each_gets_its_own_count(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Requests counted together go as one pipeline; each still sees its own place in the count, and
    a Redis that lost the script (restarted, flushed) gets it loaded again."""
    import asyncio

    counters = RedisCounters(redis_url, timeout=2.0)
    key, account = f"rl:test:key:{uuid.uuid4().hex}:60:1", f"rl:test:user:{uuid.uuid4().hex}:60:1"
    pipelines = 0
    pipeline = counters.client.pipeline

    def counting_pipeline(*args: object, **kwargs: object) -> object:
        nonlocal pipelines
        pipelines += 1
        return pipeline(*args, **kwargs)

    monkeypatch.setattr(counters.client, "pipeline", counting_pipeline)
    try:
        await counters.client.script_flush()
        counts = await asyncio.gather(*(counters.count(key, account, 61, per_key=15) for _ in range(20)))
        # One batch, sent twice: once to learn the script was missing, once after loading it.
        assert pipelines == 2
        assert sorted(k for k, _ in counts) == list(range(1, 21))
        # Past the key's limit (15) the account's count stops: it ends at 15 whatever the order.
        assert max(a for _, a in counts) == 15
        assert await counters.count(key, account, 61, per_key=15) == (21, 15)
        assert pipelines == 3
    finally:
        await counters.client.delete(RedisCounters.PREFIX + key, RedisCounters.PREFIX + account)
        await counters.close()


async def test_a_redis_that_fails_fails_each_waiting_count() -> None:
    import asyncio

    counters = RedisCounters("redis://127.0.0.1:1/0", timeout=0.5)  # nothing listens there
    try:
        results = await asyncio.gather(
            *(counters.count("rl:k", "rl:a", 61, per_key=5) for _ in range(3)), return_exceptions=True
        )
        assert len(results) == 3 and all(isinstance(r, Exception) for r in results)
    finally:
        await counters.close()


async def test_a_count_whose_caller_gave_up_is_not_sent_and_no_caller_waits_forever(redis_url: str) -> None:
    """A caller that timed out was counted per process instead: its count must not reach Redis too.
    A send that is cancelled (shutdown) fails the counts it carried, and a closed store fails new ones."""
    import asyncio

    counters = RedisCounters(redis_url, timeout=2.0)
    key, account = f"rl:test:key:{uuid.uuid4().hex}:60:1", f"rl:test:user:{uuid.uuid4().hex}:60:1"
    try:
        gave_up = asyncio.ensure_future(counters.count(key, account, 61, per_key=100))
        await asyncio.sleep(0)  # queued in the batch, not sent yet
        gave_up.cancel()
        assert await counters.count(key, account, 61, per_key=100) == (1, 1)

        waiting = asyncio.ensure_future(counters.count(key, account, 61, per_key=100))
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # the flush ran: the send is out
        for task in list(counters._sending):
            task.cancel()
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(waiting, 2.0)
    finally:
        await counters.client.delete(RedisCounters.PREFIX + key, RedisCounters.PREFIX + account)
        await counters.close()
    with pytest.raises(ConnectionError):
        await asyncio.wait_for(counters.count(key, account, 61, per_key=100), 2.0)


@pytest.mark.parametrize("shared", [False, True], ids=["memory", "redis"])
async def test_a_count_given_back_frees_its_place_in_both_limits(
    shared: bool, request: pytest.FixtureRequest
) -> None:
    """What an idempotency retry answered "in progress" does (it did no work): its count is taken back
    from the key's and the account's counters, in the store it was counted in, never below zero."""
    limiter = RateLimiter(request.getfixturevalue("redis_url") if shared else None, timeout=1.0)
    plan = get_plan("free")  # 20 tasks a minute per key
    who = {"plan": plan, "request_class": "task", "key_id": uuid.uuid4().hex, "user_id": uuid.uuid4().hex}
    try:
        decisions = [await limiter.check(**who) for _ in range(20)]
        assert decisions[-1].local is not shared
        for decision in decisions[:5]:
            await limiter.give_back(decision)
        for _ in range(5):
            await limiter.check(**who)  # the five places given back
        with pytest.raises(ApiError) as over:
            await limiter.check(**who)
        assert over.value.code == "api_key_rate_limit_exceeded"
    finally:
        if limiter.shared is not None:
            await limiter.shared.client.delete(*(RedisCounters.PREFIX + c for c in decisions[0].counters))
        await limiter.close()
