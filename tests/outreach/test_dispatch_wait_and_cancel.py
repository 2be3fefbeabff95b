"""Dispatch creation with `Prefer: wait` (the finished job within the wait, else the scheduled item) and
cancelling a scheduled dispatch through the unified job interface: nothing is delivered and the
cancelled job keeps its pacing slot (docs/api.md, Pacing of outreach)."""

from __future__ import annotations

from datetime import datetime, timedelta

import httpx
import pytest

from leadwire.platform.runtime import Runtime
from leadwire.providers.sandbox_channels import Outbox
from tests.outreach.test_dispatch_validation import email, whatsapp
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker

DONE = ("succeeded", "failed", "cancelled")


def path(version: str) -> str:
    return f"/api/{version}/outreach/dispatches"


def at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


@pytest.mark.parametrize("version", ["v1", "v2"])
async def test_prefer_wait_with_a_running_worker_answers_200_with_the_delivered_job(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, version: str
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "email")
    async with running_worker(runtime):
        response = await client.post(
            path(version), json=email(account), headers={**owner.headers, "Prefer": "wait=10"}
        )
    job = assert_ok(response, 200)["item"]
    assert response.headers["Preference-Applied"] == "wait=10"
    assert (job["status"], job["action"], job["channel"]) == ("succeeded", "outreach.dispatch", "email")
    assert job["finished_at"] and job["billing"]["status"] == "not_metered"
    assert job["result"]["kind"] == "message" and job["result"]["recipient"] == "jane@acme.example"
    (sent,) = Outbox(runtime.settings.data_dir).read("email")
    assert sent["subject"] == "Hello"


async def test_prefer_wait_on_a_dispatch_whose_slot_is_later_answers_202_with_the_scheduled_item(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "email")
    async with running_worker(runtime):
        first = await client.post(
            path("v2"), json=email(account), headers={**owner.headers, "Prefer": "wait=10"}
        )
        assert_ok(first, 200)
        second = await client.post(
            path("v2"), json=email(account), headers={**owner.headers, "Prefer": "wait=1"}
        )
    item = assert_ok(second, 202)["item"]
    assert second.headers["Preference-Applied"] == "wait=1"
    assert (
        set(item) == {"id", "status", "action", "channel", "scheduled_at"} and item["status"] == "scheduled"
    )
    assert at(item["scheduled_at"]) >= at(first.json()["item"]["scheduled_at"]) + timedelta(seconds=60)


async def test_cancelling_a_scheduled_dispatch_delivers_nothing_and_does_not_free_its_slot(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    mailbox = await accounts.connect(owner.user_id, "email")
    phone = await accounts.connect(owner.user_id, "whatsapp")
    first = assert_ok(await client.post(path("v2"), json=email(mailbox), headers=owner.headers), 202)["item"]
    assert first["status"] == "scheduled"  # the channel's first slot: due now, no worker yet

    cancelled = assert_ok(await client.post(f"/api/v2/jobs/{first['id']}/cancel", headers=owner.headers))[
        "item"
    ]
    assert (cancelled["status"], cancelled["id"]) == ("cancelled", first["id"])
    assert cancelled["finished_at"] and cancelled["result"] is None
    again = assert_ok(await client.post(f"/api/v2/jobs/{first['id']}/cancel", headers=owner.headers))["item"]
    assert again["status"] == "cancelled"  # cancelling a finished job leaves it as it is

    # The next dispatch on the channel still comes an interval after the cancelled one's slot.
    body = email(mailbox, min_channel_task_interval_seconds=120)
    following = assert_ok(await client.post(path("v2"), json=body, headers=owner.headers), 202)["item"]
    assert at(following["scheduled_at"]) == at(first["scheduled_at"]) + timedelta(seconds=120)

    # A worker runs what is due (a WhatsApp dispatch proves it ran) and never the cancelled email.
    beacon = assert_ok(await client.post(path("v2"), json=whatsapp(phone), headers=owner.headers), 202)[
        "item"
    ]
    async with running_worker(runtime):
        assert (await poll_job(client, owner.headers, beacon["id"], until=DONE))["status"] == "succeeded"
    outbox = Outbox(runtime.settings.data_dir)
    assert outbox.read("email") == [] and len(outbox.read("whatsapp")) == 1
    final = assert_ok(await client.get(f"/api/v2/jobs/{first['id']}", headers=owner.headers))["item"]
    assert final["status"] == "cancelled" and final["started_at"] is None and final["attempt_count"] == 0
    later = assert_ok(await client.get(f"/api/v2/jobs/{following['id']}", headers=owner.headers))["item"]
    assert later["status"] == "scheduled"
    v1 = assert_ok(await client.get(f"/api/v1/outreach/jobs/{first['id']}", headers=owner.headers))["item"]
    assert v1["status"] == "cancelled"


async def test_cancelling_someone_elses_dispatch_is_task_not_found_and_a_read_only_key_is_refused(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    mailbox = await accounts.connect(owner.user_id, "email")
    item = assert_ok(await client.post(path("v2"), json=email(mailbox), headers=owner.headers), 202)["item"]
    stranger = await accounts.create()
    assert_error(
        await client.post(f"/api/v2/jobs/{item['id']}/cancel", headers=stranger.headers),
        404,
        "task_not_found",
    )
    reader = await accounts.key(owner.user_id, scopes=["outreach:read"])
    assert_error(
        await client.post(f"/api/v2/jobs/{item['id']}/cancel", headers=reader.headers),
        403,
        "permission_denied",
    )
    job = assert_ok(await client.get(f"/api/v2/jobs/{item['id']}", headers=owner.headers))["item"]
    assert job["status"] == "scheduled"
