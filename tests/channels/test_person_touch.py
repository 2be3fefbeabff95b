"""One touch per person across channels (SQLite and PostgreSQL): a dispatch on a second channel to a
person reached on another within `person_touch_interval_hours` waits with `hold.reason:
person_touched`, matched by any identifier the dispatches gave of the person; the wait takes no place
in the channel's queue; made due early (a clock jump, a restart), the send is held again rather than
sent; once the earlier touch is gone it is placed and sent, once."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import update

from leadwire.platform.db import transaction
from leadwire.platform.jobs import Job
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.providers.sandbox_channels import Outbox
from tests.outreach.test_dispatch_validation import email, linkedin, whatsapp
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker

DISPATCH = "/api/v2/outreach/dispatches"
JANE = {"address": "jane@acme.example", "phone": "+4915123456789", "profile_url": "linkedin.com/in/jane-doe"}


def parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


async def _dispatch(client: httpx.AsyncClient, owner: TestAccount, body: dict[str, Any]) -> Any:
    return assert_ok(await client.post(DISPATCH, json=body, headers=owner.headers), 202)["item"]


async def _senders(accounts: AccountFactory, owner: TestAccount) -> dict[str, str]:
    return {
        channel: await accounts.connect(owner.user_id, channel)
        for channel in ("email", "linkedin", "whatsapp")
    }


async def test_a_second_channel_to_the_same_person_waits_for_the_interval(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    sender = await _senders(accounts, owner)
    first = await _dispatch(client, owner, email(sender["email"], recipient=JANE))
    until = parse(first["scheduled_at"]) + timedelta(hours=24)
    by_profile = await _dispatch(client, owner, linkedin(sender["linkedin"]))  # her profile only
    by_phone = await _dispatch(client, owner, whatsapp(sender["whatsapp"]))  # her phone only
    for held in (by_profile, by_phone):
        assert held["hold"]["reason"] == "person_touched" and parse(held["scheduled_at"]) == until
    # The wait takes no place in the channel's queue: the next LinkedIn send goes at its own slot.
    other = await _dispatch(
        client, owner, linkedin(sender["linkedin"], recipient={"profile_url": "linkedin.com/in/bob"})
    )
    assert "hold" not in other and parse(other["scheduled_at"]) < utcnow() + timedelta(minutes=2)
    # The same channel again is pacing's business, not this rule's.
    again = await _dispatch(client, owner, email(sender["email"], recipient={"address": "jane@acme.example"}))
    assert "hold" not in again
    queue = assert_ok(await client.get("/api/v2/outreach/queue", headers=owner.headers))["items"]
    assert {q["job_id"]: (q["hold"] or {}).get("reason") for q in queue}[by_phone["id"]] == "person_touched"


async def test_a_cancelled_touch_or_an_interval_of_zero_holds_nothing(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    sender = await _senders(accounts, owner)
    first = await _dispatch(client, owner, email(sender["email"], recipient=JANE))
    assert_ok(await client.post(f"/api/v2/jobs/{first['id']}/cancel", headers=owner.headers))
    assert "hold" not in await _dispatch(client, owner, linkedin(sender["linkedin"]))
    policy = f"/api/v2/connect/accounts/{sender['email']}/sending-policy"
    assert_ok(
        await client.put(
            policy, json={"daily_cap": 50, "person_touch_interval_hours": 0}, headers=owner.headers
        )
    )
    await _dispatch(client, owner, whatsapp(sender["whatsapp"]))  # a touch (its own rule is 24 h)
    assert "hold" not in await _dispatch(client, owner, email(sender["email"], recipient=JANE))


async def test_an_invalid_linked_identifier_is_refused_with_its_field(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    sender = await _senders(accounts, owner)
    bad_phone = email(sender["email"], recipient={"address": "jane@acme.example", "phone": "12"})
    response = await client.post(DISPATCH, json=bad_phone, headers=owner.headers)
    assert_error(response, 400, "invalid_request", param="recipient.phone")
    bad_profile = whatsapp(
        sender["whatsapp"], recipient={"phone": "+4915123456789", "profile_url": "x.com/jane"}
    )
    response = await client.post(DISPATCH, json=bad_profile, headers=owner.headers)
    assert_error(response, 400, "invalid_profile_url", param="recipient.profile_url")


async def _make_due(runtime: Runtime, job_id: str) -> None:
    """As if the clock had jumped to the job's time (a restart long after, a clock set wrong)."""
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(update(Job).where(Job.id == job_id).values(scheduled_at=utcnow()))


async def test_made_due_early_it_is_held_again_and_once_the_touch_is_gone_it_is_sent_once(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    sender = await _senders(accounts, owner)
    # The email is placed a minute out (the first slot is taken), so it is still waiting below.
    await _dispatch(client, owner, email(sender["email"], recipient={"address": "bob@acme.example"}))
    first = await _dispatch(client, owner, email(sender["email"], recipient=JANE))
    held = await _dispatch(client, owner, whatsapp(sender["whatsapp"]))
    assert held["hold"]["reason"] == "person_touched"
    outbox = Outbox(runtime.settings.data_dir)
    await _make_due(runtime, held["id"])
    async with running_worker(runtime):
        job = await _until(client, owner, held["id"], lambda j: j["status"] == "queued" and j.get("hold"))
    assert job["hold"]["reason"] == "person_touched" and job["attempt_count"] == 0
    assert job["started_at"] is None
    assert parse(job["scheduled_at"]) > utcnow() + timedelta(hours=23)
    assert outbox.read("whatsapp") == []
    assert_ok(await client.post(f"/api/v2/jobs/{first['id']}/cancel", headers=owner.headers))
    await _make_due(runtime, held["id"])
    async with running_worker(runtime):
        done = await poll_job(client, owner.headers, held["id"], until=("succeeded", "failed"))
        await asyncio.sleep(0.3)
    assert done["status"] == "succeeded" and len(outbox.read("whatsapp")) == 1


async def test_two_sends_accepted_at_once_to_one_person_never_wait_for_each_other(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    """Both placed (as when two creations race): when due, the newer yields to the older and the older
    sends; neither is put off by the other forever."""
    owner = await accounts.create()
    sender = await _senders(accounts, owner)
    policy = f"/api/v2/connect/accounts/{sender['email']}/sending-policy"
    assert_ok(
        await client.put(
            policy, json={"daily_cap": 50, "person_touch_interval_hours": 0}, headers=owner.headers
        )
    )
    older = await _dispatch(client, owner, whatsapp(sender["whatsapp"]))
    newer = await _dispatch(client, owner, email(sender["email"], recipient=JANE))  # its rule is off now
    assert "hold" not in newer
    assert_ok(await client.put(policy, json={"daily_cap": 50}, headers=owner.headers))  # and on again
    outbox = Outbox(runtime.settings.data_dir)
    async with running_worker(runtime):
        sent = await poll_job(client, owner.headers, older["id"], until=("succeeded", "failed"))
        waiting = await _until(client, owner, newer["id"], lambda j: j.get("hold"))
    assert sent["status"] == "succeeded" and len(outbox.read("whatsapp")) == 1
    assert waiting["hold"]["reason"] == "person_touched" and outbox.read("email") == []
    policy_now = assert_ok(await client.get(policy, headers=owner.headers))["item"]
    assert policy_now["today"]["scheduled"] == 0  # its count given back when it was put off


async def _until(client: httpx.AsyncClient, owner: TestAccount, job_id: str, condition: Any) -> Any:
    for _ in range(400):
        job = assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=owner.headers))["item"]
        if condition(job):
            return job
        await asyncio.sleep(0.05)
    raise AssertionError(f"job {job_id} never met the condition: {job}")
