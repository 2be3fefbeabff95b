"""The events of the other slices, each delivered to a real receiver and verified by
`standardwebhooks`: a dispatch sent or failed (`outreach.*`), a prospect list's new items and its end
(`webset.*`)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
import pytest
from standardwebhooks.webhooks import WebhookVerificationError

from leadwire.config import Settings
from leadwire.platform.runtime import Runtime
from tests.outreach.test_dispatch_validation import email
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.support.receiver import Received, receiving
from tests.support.smtp import Inbox
from tests.webhooks.conftest import delivering, register, verified
from tests.websets.conftest import create_webset, discovery_times_out, wait_finished

DONE = ("succeeded", "failed", "cancelled")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return delivering(settings)


def _events(received: list[Received], secret: str) -> list[dict[str, Any]]:
    return [verified(r, secret) for r in received]


async def test_a_sent_dispatch_is_outreach_delivered_and_a_refused_one_outreach_failed(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, smtp_server: tuple[Inbox, int]
) -> None:
    _, port = smtp_server
    # Two accounts: one user's dispatches on a channel are paced a minute apart.
    sender, refused = await accounts.create(), await accounts.create()
    good = await accounts.connect(sender.user_id, "email")
    wrong = await accounts.connect_smtp(refused.user_id, port, password="wrong")
    async with receiving() as receiver, running_worker(runtime):
        types = ["outreach.delivered", "outreach.failed"]
        hooks = [await register(client, owner.headers, receiver.url, types) for owner in (sender, refused)]
        ids = []
        for owner, account in ((sender, good), (refused, wrong)):
            created = await client.post(
                "/api/v2/outreach/dispatches", json=email(account), headers=owner.headers
            )
            job_id = assert_ok(created, 202)["item"]["id"]
            await poll_job(client, owner.headers, job_id, until=DONE)
            ids.append(job_id)
        received = await receiver.wait_for(2)
    # Two webhooks deliver independently: tell the events apart by the secret that verifies each.
    by_secret = {hook["secret"]: hook for hook in hooks}
    delivered, failed = sorted(
        (_verified_by_one(r, list(by_secret)) for r in received), key=lambda e: e["type"]
    )
    assert (delivered["type"], delivered["data"]["id"]) == ("outreach.delivered", ids[0])
    assert delivered["data"]["result"]["recipient"] == "jane@acme.example"
    assert (failed["type"], failed["data"]["id"]) == ("outreach.failed", ids[1])
    assert failed["data"]["error"]["code"] == "account_disconnected"


async def test_a_list_reports_its_new_items_and_its_completion(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    acct = await AccountFactory(world_runtime).create()
    async with receiving() as receiver, running_worker(world_runtime):
        hook = await register(
            world_client, acct.headers, receiver.url, ["webset.items.added", "webset.completed"]
        )
        created = await create_webset(world_client, acct.headers, query="software companies", count=25)
        webset = await wait_finished(world_client, acct.headers, created["webset"]["id"])
        assert webset["status"] == "completed"
        await _until(
            lambda: any(r.headers["webhook-id"] and b"webset.completed" in r.body for r in receiver.requests)
        )
    events = _events(receiver.requests, hook["secret"])
    added = [e for e in events if e["type"] == "webset.items.added"]
    assert added and all(e["data"]["webset_id"] == webset["id"] for e in added)
    item_ids = [i for e in added for i in e["data"]["item_ids"]]
    assert len(item_ids) == len(set(item_ids)) and all(i.startswith("item_") for i in item_ids)
    (done,) = [e for e in events if e["type"] == "webset.completed"]
    assert events[-1] is done  # in order: every items event before the end
    assert done["data"]["id"] == webset["id"] and done["data"]["status"] == "completed"


async def test_a_list_whose_run_fails_reports_webset_failed(
    world_client: httpx.AsyncClient, world_runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    discovery_times_out(monkeypatch)
    acct = await AccountFactory(world_runtime).create()
    async with receiving() as receiver, running_worker(world_runtime):
        hook = await register(world_client, acct.headers, receiver.url, ["webset.failed"])
        created = await create_webset(world_client, acct.headers, query="software companies", count=25)
        webset = await wait_finished(world_client, acct.headers, created["webset"]["id"])
        (received,) = await receiver.wait_for(1)
    event = verified(received, hook["secret"])
    assert event["type"] == "webset.failed" and event["data"]["id"] == webset["id"]
    assert event["data"]["status"] == "failed"


def _verified_by_one(received: Received, secrets: list[str]) -> dict[str, Any]:
    for secret in secrets:
        with contextlib.suppress(WebhookVerificationError):
            return verified(received, secret)
    raise AssertionError("no secret verifies the delivery")


async def _until(condition: Any, timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)
