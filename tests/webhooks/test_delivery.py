"""Delivery to real HTTP receivers on loopback (the operator's private-network setting on): signed so
that `standardwebhooks` verifies, retried with the same `webhook-id`, in order per webhook, logged,
disabled after failing for long, and never sent to an address the check refuses."""

from __future__ import annotations

import asyncio
import socket
from datetime import timedelta
from typing import Any

import httpx
import pytest
from standardwebhooks.webhooks import WebhookVerificationError

from leadwire.config import Settings
from leadwire.platform.db import transaction
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.webhooks import outbox
from leadwire.webhooks.models import Webhook
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import create_echo, poll_job, running_worker
from tests.support.receiver import receiving
from tests.webhooks.conftest import HOOKS, deliveries, delivering, register, settled_deliveries, verified

DONE = ("succeeded", "failed", "cancelled")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return delivering(settings)


async def _echo(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    item: dict[str, Any] = assert_ok(await create_echo(client, headers, body), 202)["item"]
    return await poll_job(client, headers, item["id"], until=DONE)


async def _webhook(client: httpx.AsyncClient, headers: dict[str, str], webhook_id: str) -> dict[str, Any]:
    item: dict[str, Any] = assert_ok(await client.get(f"{HOOKS}/{webhook_id}", headers=headers))["item"]
    return item


async def test_job_events_arrive_signed_with_the_public_job_item(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with receiving() as receiver, running_worker(runtime):
        hook = await register(
            client, acct.headers, receiver.url, ["job.succeeded", "job.failed", "job.cancelled"]
        )
        succeeded = await _echo(client, acct.headers, message="hi")
        failed = await _echo(client, acct.headers, fail="echo_refused")
        scheduled = assert_ok(await create_echo(client, acct.headers, {"scheduled_in": 60}), 202)["item"]
        assert_ok(await client.post(f"/api/v2/jobs/{scheduled['id']}/cancel", headers=acct.headers))
        received = await receiver.wait_for(3)
    events = [verified(r, hook["secret"]) for r in received]
    assert [(e["type"], e["data"]["id"]) for e in events] == [
        ("job.succeeded", succeeded["id"]),
        ("job.failed", failed["id"]),
        ("job.cancelled", scheduled["id"]),
    ]
    assert events[0]["data"]["result"]["message"] == "hi"
    assert events[1]["data"]["error"]["code"] == "echo_refused"
    first = received[0]
    assert first.method == "POST" and first.path == "/hook"
    assert first.headers["content-type"] == "application/json"
    assert first.headers["user-agent"].startswith("Leadwire-Webhooks/")
    assert first.headers["webhook-id"] == events[0]["id"] and events[0]["id"].startswith("evt_")
    log = await settled_deliveries(client, acct.headers, hook["id"], 3)
    assert [d["status"] for d in log] == ["succeeded"] * 3
    assert {d["event_type"] for d in log} == {"job.succeeded", "job.failed", "job.cancelled"}
    assert all(d["attempts"] == 1 and d["last_status_code"] == 200 for d in log)


async def test_a_receiver_failing_twice_gets_the_same_event_three_times(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with receiving(500, 503) as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        await _echo(client, acct.headers)
        received = await receiver.wait_for(3)
        (logged,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
    assert len({r.headers["webhook-id"] for r in received}) == 1
    assert len({r.body for r in received}) == 1
    assert all(verified(r, hook["secret"])["type"] == "job.succeeded" for r in received)
    assert (logged["status"], logged["attempts"], logged["last_status_code"]) == ("succeeded", 3, 200)
    assert logged["last_error"] is None and logged["next_attempt_at"] is None


async def test_a_receiver_that_never_answers_2xx_ends_failed_after_the_schedule(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with receiving(*[500] * 10) as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        await _echo(client, acct.headers)
        (logged,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
    # The first attempt and one per delay of the schedule ("0.05,0.1,0.1").
    assert len(receiver.requests) == 4
    assert (logged["status"], logged["attempts"], logged["last_status_code"]) == ("failed", 4, 500)
    assert logged["last_error"].startswith("the receiver answered 500")


async def test_deliveries_to_one_webhook_go_in_order(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    """The first event's receiver fails once: the second event waits for the first's retry."""
    acct = await accounts.create()
    async with receiving(500) as receiver:
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        jobs = []
        async with running_worker(runtime):
            for n in range(3):
                jobs.append(await _echo(client, acct.headers, message=str(n)))
            received = await receiver.wait_for(4)
    order = [verified(r, hook["secret"])["data"]["id"] for r in received]
    first, second, third = (j["id"] for j in jobs)
    assert order == [first, first, second, third]


async def test_a_retry_sends_a_delivery_again_with_the_same_id(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with receiving() as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        await _echo(client, acct.headers)
        (logged,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
        path = f"{HOOKS}/{hook['id']}/deliveries/{logged['id']}/retry"
        retried = assert_ok(await client.post(path, headers=acct.headers))["item"]
        assert retried["status"] == "pending" and retried["id"] == logged["id"]
        received = await receiver.wait_for(2)
        (again,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
    assert received[0].headers["webhook-id"] == received[1].headers["webhook-id"] == logged["event_id"]
    assert (again["status"], again["attempts"]) == ("succeeded", 2)


async def test_after_a_rotation_both_secrets_sign_every_delivery(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with receiving() as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        rotated = assert_ok(await client.post(f"{HOOKS}/{hook['id']}/rotate-secret", headers=acct.headers))
        await _echo(client, acct.headers)
        (received,) = await receiver.wait_for(1)
    signatures = received.headers["webhook-signature"].split(" ")
    assert len(signatures) == 2 and all(s.startswith("v1,") for s in signatures)
    verified(received, hook["secret"])
    verified(received, rotated["item"]["secret"])


async def test_once_the_rotation_overlap_has_passed_only_the_new_secret_signs(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    """The previous secret signs beside the new one for 24 h after `rotate-secret`. The stored rotation
    is then set back a day and a second: the next delivery carries one signature, the new secret's."""
    acct = await accounts.create()
    async with receiving() as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        before = utcnow()
        rotated = assert_ok(await client.post(f"{HOOKS}/{hook['id']}/rotate-secret", headers=acct.headers))
        after = utcnow()
        await _echo(client, acct.headers)
        await receiver.wait_for(1)
        async with transaction(runtime.sessionmaker) as session:
            webhook = await session.get(Webhook, hook["id"])
            assert webhook is not None and webhook.previous_secret_expires_at is not None
            expires = webhook.previous_secret_expires_at
            assert before + timedelta(hours=24) <= expires <= after + timedelta(hours=24)
            webhook.previous_secret_expires_at = expires - timedelta(hours=24, seconds=1)
        await _echo(client, acct.headers)
        during, past = await receiver.wait_for(2)
    old, new = hook["secret"], rotated["item"]["secret"]
    assert len(during.headers["webhook-signature"].split(" ")) == 2
    verified(during, old)
    verified(during, new)
    (signature,) = past.headers["webhook-signature"].split(" ")
    assert signature.startswith("v1,")
    verified(past, new)
    with pytest.raises(WebhookVerificationError):
        verified(past, old)


async def test_another_accounts_webhook_never_receives_your_events(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    alice, bob = await accounts.create(), await accounts.create()
    async with receiving() as alices, receiving() as bobs, running_worker(runtime):
        await register(client, alice.headers, alices.url)
        bob_hook = await register(client, bob.headers, bobs.url)
        await _echo(client, alice.headers)
        await alices.wait_for(1)
        await asyncio.sleep(0.3)  # time enough for a wrongly addressed delivery to go too
    assert bobs.requests == []
    assert await deliveries(client, bob.headers, bob_hook["id"]) == []


async def test_a_disabled_webhook_gets_nothing_and_unsubscribed_types_are_not_logged(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with receiving() as receiver, running_worker(runtime):
        off = await register(client, acct.headers, receiver.url)
        assert_ok(
            await client.patch(f"{HOOKS}/{off['id']}", json={"status": "disabled"}, headers=acct.headers)
        )
        other = await register(client, acct.headers, receiver.url, ["webset.completed"])
        await _echo(client, acct.headers)
        await asyncio.sleep(0.3)
    assert receiver.requests == []
    assert await deliveries(client, acct.headers, off["id"]) == []
    assert await deliveries(client, acct.headers, other["id"]) == []


async def test_a_webhook_failing_past_the_limit_is_disabled_with_its_reason(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime.settings, "webhook_disable_after_seconds", 0.1)
    acct = await accounts.create()
    async with receiving(*[500] * 20) as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        await _echo(client, acct.headers)
        async with asyncio.timeout(15):
            while (read := await _webhook(client, acct.headers, hook["id"]))["status"] == "active":
                await asyncio.sleep(0.05)
    # Its delivery waits, pending, for the webhook to be enabled again.
    (waiting,) = await deliveries(client, acct.headers, hook["id"])
    assert waiting["status"] == "pending" and waiting["attempts"] >= 2
    assert read["disabled_reason"].startswith("every delivery failed since ")
    assert "the receiver answered 500" in read["disabled_reason"]
    assert receiver.requests


async def test_a_slow_receiver_is_cut_off_at_the_timeout(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime.settings, "webhook_timeout_seconds", 0.3)
    monkeypatch.setattr(runtime.settings, "webhook_retry_schedule", "0.05")
    acct = await accounts.create()
    async with receiving(delay=5.0) as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        await _echo(client, acct.headers)
        (logged,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
    assert (logged["status"], logged["attempts"]) == ("failed", 2)
    assert logged["last_error"] == "no answer within 0.3 s" and logged["last_status_code"] is None
    assert len(receiver.requests) == 2


async def test_a_redirect_is_not_followed(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime.settings, "webhook_retry_schedule", "0.05")
    acct = await accounts.create()
    async with receiving(302, 302) as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        await _echo(client, acct.headers)
        (logged,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
    assert logged["status"] == "failed" and logged["last_status_code"] == 302
    assert "redirects are not followed" in logged["last_error"]
    assert len(receiver.requests) == 2


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "169.254.169.254", "::1"])
async def test_a_name_that_resolves_to_a_private_address_at_delivery_is_not_called(
    client: httpx.AsyncClient,
    runtime: Runtime,
    accounts: AccountFactory,
    monkeypatch: pytest.MonkeyPatch,
    address: str,
) -> None:
    """The address is checked at every delivery: a name that resolved nowhere at creation and now
    answers a loopback, private, cloud metadata or IPv6 loopback address (DNS changed) is refused,
    with the operator's setting off; the delivery log does not say which address it was."""
    monkeypatch.setattr(runtime.settings, "webhook_allow_private_networks", False)
    monkeypatch.setattr(runtime.settings, "webhook_retry_schedule", "0.05")
    real = socket.getaddrinfo
    rebound = False

    def rebinding(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "rebind.leadwire-receiver.test":
            if not rebound:  # at creation the name resolves nowhere (answered at once, no resolver wait)
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            return real(address, *args, **kwargs)
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    acct = await accounts.create()
    async with receiving() as receiver:
        hook = await register(
            client, acct.headers, "https://rebind.leadwire-receiver.test/hook", ["job.succeeded"]
        )
        rebound = True
        async with running_worker(runtime):
            await _echo(client, acct.headers)
            (logged,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
    assert logged["status"] == "failed" and logged["last_status_code"] is None
    assert logged["last_error"] == "not sent: the URL's host is not allowed: a private or reserved address"
    assert receiver.requests == []


async def test_past_the_backlog_limit_new_events_are_logged_failed(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox, "BACKLOG_LIMIT", 2)
    acct = await accounts.create()
    hook = await register(
        client, acct.headers, "https://nowhere.leadwire-receiver.test/hook", ["job.cancelled"]
    )
    for _ in range(3):  # cancelled jobs report without a worker: the deliveries stay pending
        item = assert_ok(await create_echo(client, acct.headers, {"scheduled_in": 60}), 202)["item"]
        assert_ok(await client.post(f"/api/v2/jobs/{item['id']}/cancel", headers=acct.headers))
    log = await deliveries(client, acct.headers, hook["id"])
    assert [d["status"] for d in log] == ["failed", "pending", "pending"]
    assert log[0]["last_error"] == outbox.BACKLOG_ERROR and log[0]["attempts"] == 0


async def test_a_receiver_that_refuses_connections_ends_failed_and_the_next_event_goes(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No answer at all (a closed port): the delivery is retried on its schedule and ends failed, with
    the connection's error in the log; the webhook's next event is not held behind it."""
    from tests.support.processes import free_port

    monkeypatch.setattr(runtime.settings, "webhook_retry_schedule", "0.05")
    acct = await accounts.create()
    closed = f"http://127.0.0.1:{free_port()}/hook"
    hook = await register(client, acct.headers, closed, ["job.succeeded"])
    async with running_worker(runtime):
        await _echo(client, acct.headers)
        await _echo(client, acct.headers)
        log = await settled_deliveries(client, acct.headers, hook["id"], 2)
    assert [(d["status"], d["attempts"], d["last_status_code"]) for d in log] == [("failed", 2, None)] * 2
    assert all(d["last_error"].startswith("ConnectError") for d in log), log


async def test_at_most_64_kb_of_an_answer_is_read(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    """A 2xx whose body never ends: the delivery stops reading after 64 KB and counts the answer, rather
    than wait for the rest until its time limit (2 s here) and fail."""
    acct = await accounts.create()
    async with receiving(endless_body=200_000) as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        await _echo(client, acct.headers)
        (logged,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
    assert (logged["status"], logged["attempts"], logged["last_status_code"]) == ("succeeded", 1, 200)
    assert len(receiver.requests) == 1
