"""Auto-pause (SQLite and PostgreSQL): each provider's "slow down", answered in the shape its public docs
give (Meta's Graph API errors, Unipile's problem documents, a real SMTP server's 421 and 4.7.x
replies), fails its job `provider_rate_limited` and pauses the account for the right back-off; while
paused, sends wait with `hold.reason: paused` and the accounts list says so; resuming early places the
waiting sends again through pacing, one at a time, never in a burst."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import respx

from leadwire.app import create_app
from leadwire.channels import connected
from leadwire.channels.pause_rules import backoff, pause
from leadwire.client import AsyncLeadwire, Leadwire
from leadwire.platform.db import transaction
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.providers.sandbox_channels import Outbox
from tests.mcp.test_mcp_server import call
from tests.outreach.test_dispatch_providers import _account
from tests.outreach.test_dispatch_validation import email, linkedin, whatsapp
from tests.providers.test_unipile import BASE as UNIPILE
from tests.providers.test_unipile import PROFILE_URL, problem, user
from tests.providers.test_whatsapp_cloud import MESSAGES, graph_error
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.cli import run_cli
from tests.support.envelope import assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.support.lifespan import served
from tests.support.smtp import Inbox

DISPATCH = "/api/v2/outreach/dispatches"
ACCOUNTS = "/api/v2/connect/accounts"
DONE = ("succeeded", "failed", "cancelled")
MINUTES_15, DAY = 15 * 60, 24 * 3600


@pytest.fixture
def upstream() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False) as router:
        yield router


def parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


async def _send(client: httpx.AsyncClient, runtime: Runtime, owner: TestAccount, body: dict[str, Any]) -> Any:
    item = assert_ok(await client.post(DISPATCH, json=body, headers=owner.headers), 202)["item"]
    async with running_worker(runtime):
        return await poll_job(client, owner.headers, item["id"], until=DONE)


async def _listed(client: httpx.AsyncClient, owner: TestAccount, account_id: str) -> dict[str, Any]:
    items = assert_ok(await client.get(ACCOUNTS, headers=owner.headers))["items"]
    return next(a for a in items if a["account_id"] == account_id)


def _paused_for(account: dict[str, Any], seconds: float, started: datetime) -> bool:
    resume_at = parse(account["resume_at"])
    return started + timedelta(seconds=seconds) <= resume_at <= utcnow() + timedelta(seconds=seconds)


WHATSAPP_SIGNALS = [
    (400, graph_error(130429, "Rate limit hit", type_="OAuthException"), {}, MINUTES_15),
    (400, graph_error(131056, "(Business Account, Consumer Account) pair rate limit hit"), {}, MINUTES_15),
    (400, graph_error(131048, "Spam rate limit hit"), {}, DAY),
    (429, graph_error(80007, "Rate limit issues"), {"Retry-After": "3600"}, 3600),
]


@pytest.mark.parametrize(("status", "body", "headers", "seconds"), WHATSAPP_SIGNALS)
async def test_whatsapp_rate_signals_pause_the_account_for_their_back_off(
    client: httpx.AsyncClient,
    runtime: Runtime,
    accounts: AccountFactory,
    upstream: respx.MockRouter,
    status: int,
    body: dict[str, Any],
    headers: dict[str, str],
    seconds: float,
) -> None:
    owner = await accounts.create()
    account_id = await _account(runtime, owner.user_id, "whatsapp")
    upstream.post(MESSAGES).mock(return_value=httpx.Response(status, json=body, headers=headers))
    started = utcnow()
    job = await _send(client, runtime, owner, whatsapp(account_id))
    assert job["status"] == "failed" and job["error"]["code"] == "provider_rate_limited", job
    listed = await _listed(client, owner, account_id)
    assert listed["status"] == "paused" and listed["can_send"] is False
    assert listed["paused_reason"].startswith("provider_rate_limited") and _paused_for(
        listed, seconds, started
    )
    # The v1 list shows the same account, paused.
    v1 = assert_ok(await client.get("/api/v1/connect/accounts", headers=owner.headers))["items"]
    assert [a["status"] for a in v1 if a["account_id"] == account_id] == ["paused"]


async def test_unipile_429_pauses_the_linkedin_account(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, upstream: respx.MockRouter
) -> None:
    owner = await accounts.create()
    account_id = await _account(runtime, owner.user_id, "linkedin")
    upstream.get(f"{UNIPILE}/users/jane-doe-42").mock(
        return_value=httpx.Response(200, json=user("FIRST_DEGREE"))
    )
    too_many = problem(429, "errors/too_many_requests", "Too Many Requests")
    upstream.post(f"{UNIPILE}/chats").mock(return_value=httpx.Response(429, json=too_many))
    started = utcnow()
    job = await _send(client, runtime, owner, linkedin(account_id, recipient={"profile_url": PROFILE_URL}))
    assert job["error"]["code"] == "provider_rate_limited", job
    assert _paused_for(await _listed(client, owner, account_id), MINUTES_15, started)


@pytest.mark.parametrize("address", ["throttled@acme.example", "slowdown@acme.example"])
async def test_smtp_421_and_4_7_x_pause_the_mailbox_and_list_nobody(
    client: httpx.AsyncClient,
    runtime: Runtime,
    accounts: AccountFactory,
    smtp_server: tuple[Inbox, int],
    address: str,
) -> None:
    inbox, port = smtp_server
    owner = await accounts.create()
    account_id = await accounts.connect_smtp(owner.user_id, port)
    started = utcnow()
    job = await _send(client, runtime, owner, email(account_id, recipient={"address": address}))
    assert job["error"]["code"] == "provider_rate_limited" and "4.7." in job["error"]["detail"], job
    assert _paused_for(await _listed(client, owner, account_id), MINUTES_15, started)
    assert inbox.messages == []
    listed = assert_ok(await client.get("/api/v2/outreach/suppressions", headers=owner.headers))["items"]
    assert listed == []  # a deferral is not a bounce


def test_back_off_doubles_with_each_pause_in_a_row_and_starts_again_a_day_later() -> None:
    assert [backoff(MINUTES_15, n) for n in (1, 2, 3, 10)] == [
        timedelta(minutes=15),
        timedelta(minutes=30),
        timedelta(hours=1),
        timedelta(hours=24),
    ]
    assert backoff(DAY, 3) == timedelta(days=1) and backoff(2 * DAY, 1) == timedelta(days=2)

    class Account:
        status, paused_reason, resume_at, pause_count, updated_at = "connected", None, None, 0, None

    account: Any = Account()
    for expected in (15, 30, 60):
        pause(account, reason="provider_rate_limited", hint_seconds=MINUTES_15)
        assert account.resume_at - account.updated_at == timedelta(minutes=expected)
        account.status, account.resume_at = "connected", account.updated_at  # the pause ran its course
    account.resume_at = utcnow() - timedelta(hours=25)
    pause(account, reason="provider_rate_limited", hint_seconds=MINUTES_15)
    assert account.pause_count == 1 and account.resume_at - account.updated_at == timedelta(minutes=15)


async def _pause(runtime: Runtime, account_id: str, minutes: int = 30) -> datetime:
    async with transaction(runtime.sessionmaker) as session:
        account = await session.get(connected.ConnectAccount, account_id)
        assert account is not None
        pause(account, reason="provider_rate_limited: 429", hint_seconds=minutes * 60)
        assert account.resume_at is not None
        return account.resume_at.astimezone(UTC)


async def test_while_paused_sends_wait_and_resuming_places_them_again_one_at_a_time(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account_id = await accounts.connect(owner.user_id, "email")
    first = assert_ok(await client.post(DISPATCH, json=email(account_id), headers=owner.headers), 202)["item"]
    resume_at = await _pause(runtime, account_id)
    # A send created while paused is placed after the pause.
    created = assert_ok(await client.post(DISPATCH, json=email(account_id), headers=owner.headers), 202)[
        "item"
    ]
    assert created["hold"] == {"reason": "paused", "until": created["scheduled_at"]}
    assert abs(parse(created["scheduled_at"]) - resume_at) < timedelta(milliseconds=1)
    outbox = Outbox(runtime.settings.data_dir)
    async with running_worker(runtime):  # the due one comes back: held until the pause ends
        job = await _until_held(client, owner, first["id"])
    assert job["status"] == "queued" and job["attempt_count"] == 0
    assert job["hold"]["reason"] == "paused"
    assert abs(parse(job["hold"]["until"]) - resume_at) < timedelta(milliseconds=1)
    assert outbox.read("email") == []
    resumed = assert_ok(await client.post(f"{ACCOUNTS}/{account_id}/resume", headers=owner.headers))["item"]
    assert (resumed["status"], resumed["resume_at"]) == ("connected", None)
    async with running_worker(runtime):
        jobs = await _until_one_sent(client, owner, [first["id"], created["id"]])
    # One went out; the other was placed again behind it, a minute later: no burst after a pause.
    (done,) = [job for job in jobs if job["status"] == "succeeded"]
    (later,) = [job for job in jobs if job["status"] != "succeeded"]
    assert len(outbox.read("email")) == 1
    assert later["status"] in ("queued", "scheduled"), later
    assert parse(later["scheduled_at"]) >= parse(done["started_at"]) + timedelta(seconds=59)


async def _until_one_sent(client: httpx.AsyncClient, owner: TestAccount, job_ids: list[str]) -> list[Any]:
    for _ in range(400):
        jobs = [
            assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=owner.headers))["item"]
            for job_id in job_ids
        ]
        if any(job["status"] == "succeeded" for job in jobs) and all(
            job["status"] != "running" for job in jobs
        ):
            await asyncio.sleep(0.3)  # time for a second send, were there a burst
            return [
                assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=owner.headers))["item"]
                for job_id in job_ids
            ]
        await asyncio.sleep(0.05)
    pytest.fail("nothing was sent after the pause")


async def _until_held(client: httpx.AsyncClient, owner: TestAccount, job_id: str) -> Any:
    for _ in range(400):
        job = assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=owner.headers))["item"]
        if job.get("hold"):
            return job
        await asyncio.sleep(0.05)
    pytest.fail(f"job {job_id} was never held")


async def test_resume_on_every_face(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    key = owner.headers["Authorization"].removeprefix("Bearer ")
    account_ids = [
        await accounts.connect(owner.user_id, channel) for channel in ("email", "linkedin", "whatsapp")
    ]
    for account_id in account_ids:
        await _pause(runtime, account_id)
    async with served(create_app(runtime=runtime)) as base:

        def sync_resume() -> Any:
            with Leadwire(key, base) as lw:
                return lw.resume_account(account_ids[0])

        synced = await asyncio.to_thread(sync_resume)
        async with AsyncLeadwire(key, base) as alw:
            listed = await alw.accounts()
        cli = await asyncio.to_thread(run_cli, base, key, "sending", "resume", account_ids[1])
    tool = await call(client, owner.headers, "resume_account", account_id=account_ids[2])
    assert synced["status"] == "connected"
    assert [a["status"] for a in listed] == ["connected", "paused", "paused"]
    assert cli.exit_code == 0 and f"{account_ids[1]} connected" in cli.output
    assert tool["structuredContent"]["status"] == "connected"
    assert [(await _listed(client, owner, a))["status"] for a in account_ids] == ["connected"] * 3


async def test_held_jobs_leave_the_workers_slots_free_and_a_v1_send_waits_for_the_pause_too(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner, other_owner = await accounts.create(), await accounts.create()
    mailbox = await accounts.connect(owner.user_id, "email")
    phone = await accounts.connect(owner.user_id, "whatsapp")
    free_box = await accounts.connect(other_owner.user_id, "email")
    v1 = assert_ok(
        await client.post("/api/v1/outreach/dispatches", json=email(mailbox), headers=owner.headers), 202
    )
    v2 = assert_ok(await client.post(DISPATCH, json=whatsapp(phone), headers=owner.headers), 202)
    held = [v1["item"], v2["item"]]
    for account_id in (mailbox, phone):
        await _pause(runtime, account_id)
    async with running_worker(runtime, concurrency=1):
        for job in held:
            await _until_held(client, owner, job["id"])
        # One worker slot, two jobs held back: the slot is still free for the next due send.
        free = assert_ok(await client.post(DISPATCH, json=email(free_box), headers=other_owner.headers), 202)
        done = await poll_job(client, other_owner.headers, free["item"]["id"], until=DONE)
    assert done["status"] == "succeeded"
    for account_id in (mailbox, phone):  # released by the resume, v1 and v2 alike
        resumed = await client.post(f"{ACCOUNTS}/{account_id}/resume", headers=owner.headers)
        assert assert_ok(resumed)["item"]["status"] == "connected"
    async with running_worker(runtime):
        finished = [await poll_job(client, owner.headers, job["id"], until=DONE) for job in held]
    assert [job["status"] for job in finished] == ["succeeded", "succeeded"]
    outbox = Outbox(runtime.settings.data_dir)
    assert len(outbox.read("email")) == 2 and len(outbox.read("whatsapp")) == 1
