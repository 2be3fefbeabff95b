"""Delivery order across webhooks, to real receivers on loopback: one account's receivers that do not
answer hold no more than their share of a worker's slots, so another account's event still goes; a
retried delivery waits behind the one in flight; a host that does not resolve is a failed attempt for
every delivery waiting on it. The order's rule itself (`fair.choose`) is tested on its own."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson
import pytest

from leadwire.config import Settings
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import iso, utcnow
from leadwire.webhooks.fair import Candidate, choose
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_ok
from tests.support.jobs import create_echo, running_worker
from tests.support.receiver import receiving
from tests.webhooks.conftest import HOOKS, deliveries, delivering, register, settled_deliveries

SLOTS = 4


@pytest.fixture
def settings(settings: Settings) -> Settings:
    # Receivers held from answering are not cut off while a test holds them.
    return delivering(settings).model_copy(
        update={"webhook_concurrency": SLOTS, "webhook_timeout_seconds": 30.0}
    )


async def _cancelled_job(client: httpx.AsyncClient, acct: TestAccount) -> str:
    """A `job.cancelled` event of the account (a scheduled job cancelled: no worker needed)."""
    item = assert_ok(await create_echo(client, acct.headers, {"scheduled_in": 60}), 202)["item"]
    assert_ok(await client.post(f"/api/v2/jobs/{item['id']}/cancel", headers=acct.headers))
    return str(item["id"])


def _job_id(body: bytes) -> str:
    event: dict[str, Any] = orjson.loads(body)
    return str(event["data"]["id"])


async def test_an_accounts_receivers_that_do_not_answer_leave_a_slot_for_another_accounts_event(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    """Slow's 4 webhooks, 2 events each, to a receiver held from answering: they take 3 of the
    worker's 4 slots, one delivery per webhook, and the last slot stays free, so Quick's event is
    delivered while every one of Slow's is still waiting for its answer."""
    slow, quick = await accounts.create(), await accounts.create()
    gate = asyncio.Event()
    async with receiving(gate=gate) as held, receiving() as fast:
        hooks = [
            await register(client, slow.headers, f"{held.url}?w={n}", ["job.cancelled"]) for n in range(4)
        ]
        slow_jobs = [await _cancelled_job(client, slow) for _ in range(2)]
        quick_hook = await register(client, quick.headers, fast.url, ["job.cancelled"])
        async with running_worker(runtime):
            await held.wait_for(SLOTS - 1)
            quick_job = await _cancelled_job(client, quick)
            (arrived,) = await fast.wait_for(1, timeout=10.0)
            waiting = list(held.requests)
            gate.set()
            await held.wait_for(8)
            slow_logs = [await settled_deliveries(client, slow.headers, h["id"], 2) for h in hooks]
            (quick_log,) = await settled_deliveries(client, quick.headers, quick_hook["id"], 1)
    assert _job_id(arrived.body) == quick_job and quick_log["status"] == "succeeded"
    # While held, one delivery per webhook, each its webhook's first event, and one slot left free.
    assert len(waiting) == SLOTS - 1
    assert len({r.path for r in waiting}) == SLOTS - 1
    assert all(_job_id(r.body) == slow_jobs[0] for r in waiting)
    for n, log in enumerate(slow_logs):
        assert [d["status"] for d in log] == ["succeeded", "succeeded"]
        got = [_job_id(r.body) for r in held.requests if r.path.endswith(f"?w={n}")]
        assert got == slow_jobs  # in order per webhook


async def test_a_retried_delivery_waits_behind_the_one_in_flight(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    """The first event was delivered; the second is in flight, its receiver held. The first's retry
    is not sent beside it (not even when a later claim round takes another webhook's event) but right
    after its answer, before the third."""
    acct = await accounts.create()
    gate = asyncio.Event()
    gate.set()
    async with receiving(gate=gate) as held, receiving() as other, running_worker(runtime):
        hook = await register(client, acct.headers, held.url, ["job.cancelled"])
        first = await _cancelled_job(client, acct)
        (done,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
        gate.clear()
        second = await _cancelled_job(client, acct)
        await held.wait_for(2)
        path = f"{HOOKS}/{hook['id']}/deliveries/{done['id']}/retry"
        retried = assert_ok(await client.post(path, headers=acct.headers))["item"]
        assert retried["status"] == "pending"
        # A round of claims after the retry: the other webhook's delivery goes, the retry does not.
        await register(client, acct.headers, other.url, ["job.cancelled"])
        third = await _cancelled_job(client, acct)
        await other.wait_for(1)
        waiting = {d["id"]: d for d in await deliveries(client, acct.headers, hook["id"])}[done["id"]]
        assert (waiting["status"], waiting["attempts"]) == ("pending", 1)
        assert len(held.requests) == 2
        gate.set()
        await held.wait_for(4)
        log = await settled_deliveries(client, acct.headers, hook["id"], 3)
    assert [_job_id(r.body) for r in held.requests] == [first, second, first, third]
    assert {d["id"]: d["attempts"] for d in log}[done["id"]] == 2


async def test_a_host_that_does_not_resolve_is_a_failed_attempt_for_every_waiting_delivery(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three events for a name that resolves nowhere: the first one's attempt fails "not sent", and
    the two waiting behind it count it too, each with the error and a next attempt in the future (no
    sooner than the first's retry), none left pending with no attempt and a due time past."""
    monkeypatch.setattr(runtime.settings, "webhook_retry_schedule", "60,600")
    acct = await accounts.create()
    hook = await register(
        client, acct.headers, "https://nowhere.leadwire-receiver.test/hook", ["job.cancelled"]
    )
    for _ in range(3):
        await _cancelled_job(client, acct)
    async with running_worker(runtime):
        async with asyncio.timeout(15):
            while (log := await deliveries(client, acct.headers, hook["id"]))[-1]["last_error"] is None:
                await asyncio.sleep(0.05)
    now = iso(utcnow())
    head_retry = log[-1]["next_attempt_at"]
    for delivery in log:
        assert (delivery["status"], delivery["attempts"]) == ("pending", 1), log
        assert delivery["last_error"] == "not sent: the host nowhere.leadwire-receiver.test does not resolve"
        assert delivery["next_attempt_at"] > now and delivery["next_attempt_at"] >= head_retry


async def test_a_retry_counts_against_the_creations_rate_limit_not_the_reads(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    """A retry makes an outbound request: it is limited like a job creation, not like a read."""
    acct = await accounts.create()
    hook = await register(client, acct.headers, "https://nowhere.leadwire-receiver.test/", ["job.cancelled"])
    await _cancelled_job(client, acct)
    (waiting,) = await deliveries(client, acct.headers, hook["id"])
    read = await client.get(f"{HOOKS}/{hook['id']}/deliveries", headers=acct.headers)
    creation = await create_echo(client, acct.headers)
    retry = await client.post(f"{HOOKS}/{hook['id']}/deliveries/{waiting['id']}/retry", headers=acct.headers)
    assert retry.status_code == 200, retry.text
    assert retry.headers["x-ratelimit-limit"] == creation.headers["x-ratelimit-limit"]
    assert retry.headers["x-ratelimit-limit"] != read.headers["x-ratelimit-limit"]


def _c(seq: int, user: str, webhook: str) -> Candidate:
    return Candidate(seq=seq, user_id=user, webhook_id=webhook)


def test_choose_goes_round_robin_by_account_then_webhook_oldest_first() -> None:
    heads = [_c(1, "a", "a1"), _c(2, "a", "a2"), _c(3, "b", "b1"), _c(4, "a", "a3"), _c(5, "c", "c1")]
    assert [c.seq for c in choose(heads, {}, 5)] == [1, 3, 5, 2]


def test_choose_gives_a_slot_to_the_account_holding_fewest() -> None:
    heads = [_c(1, "a", "a1"), _c(2, "a", "a2"), _c(3, "b", "b1")]
    assert [c.seq for c in choose(heads, {"a": 2}, 3)] == [3, 1]


def test_choose_keeps_the_last_free_slot_for_an_account_holding_none() -> None:
    heads = [_c(1, "a", "a1"), _c(2, "a", "a2")]
    assert choose(heads, {"a": 6}, 1) == []
    assert [c.seq for c in choose(heads, {}, 8)] == [1, 2]
    assert [c.seq for c in choose(heads, {"a": 1, "b": 1}, 2)] == [1]
    assert [c.seq for c in choose([_c(3, "b", "b1"), *heads], {"a": 6}, 1)] == [3]
    assert [c.seq for c in choose(heads, {}, 1)] == [1]  # one slot in all: nobody holds it
