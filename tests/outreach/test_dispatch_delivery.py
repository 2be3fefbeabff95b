"""Dispatch delivery end to end: the worker sends at the job's slot through the account's adapter —
the sandbox outbox, a real SMTP server on loopback — at most once, with failures as stable codes."""

from __future__ import annotations

import asyncio
import base64
from datetime import datetime, timedelta
from typing import Any

import httpx

from leadwire.channels import connected
from leadwire.platform.db import transaction
from leadwire.platform.jobs.runner import Worker
from leadwire.platform.runtime import Runtime
from leadwire.providers.sandbox_channels import Outbox
from tests.outreach.test_dispatch_validation import email, linkedin, whatsapp
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.support.smtp import Inbox

DISPATCH = "/api/v2/outreach/dispatches"
DONE = ("succeeded", "failed", "cancelled")


async def _dispatch_and_run(
    client: httpx.AsyncClient, runtime: Runtime, owner: TestAccount, body: dict[str, Any]
) -> dict[str, Any]:
    item = assert_ok(await client.post(DISPATCH, json=body, headers=owner.headers), 202)["item"]
    async with running_worker(runtime):
        return await poll_job(client, owner.headers, item["id"], until=DONE)


async def test_sandbox_email_lands_in_the_outbox_with_the_dispatch_result(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "email")
    job = await _dispatch_and_run(client, runtime, owner, email(account, metadata={"lead": 42}))
    assert job["status"] == "succeeded", job
    result = job["result"]
    assert set(result) == {"kind", "provider", "provider_message_id", "recipient", "delivered_at"}
    assert (result["kind"], result["provider"], result["recipient"]) == (
        "message",
        "sandbox",
        "jane@acme.example",
    )
    assert job["billing"] == {"status": "not_metered", "charged_credits": 0, "pending_units": 0.0}
    assert job["metadata"] == {"lead": 42}
    (sent,) = Outbox(runtime.settings.data_dir).read("email")
    assert sent["subject"] == "Hello" and sent["html"] == "<p>HTML body</p>"


async def test_sandbox_whatsapp_goes_to_the_e164_number(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "whatsapp")
    body = whatsapp(account, recipient={"phone": "+49 151 2345 6789"})
    assert (await _dispatch_and_run(client, runtime, owner, body))["status"] == "succeeded"
    (sent,) = Outbox(runtime.settings.data_dir).read("whatsapp")
    assert sent["to"] == "+4915123456789"


async def test_smtp_round_trip_headers_bodies_and_attachments_byte_identical(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, smtp_server: tuple[Inbox, int]
) -> None:
    inbox, port = smtp_server
    owner = await accounts.create()
    account = await accounts.connect_smtp(owner.user_id, port)
    pdf, csv = b"%PDF-1.4\n\x00\xff binary", b"name,city\nAcme,Berlin\n"
    files = [
        {"filename": "deck.pdf", "contentBase64": base64.b64encode(pdf).decode()},
        {"filename": "leads.csv", "contentBase64": base64.b64encode(csv).decode(), "contentType": "text/csv"},
    ]
    body = email(
        account, content={"subject": "Our deck", "text": "Plain", "html": "<b>Rich</b>", "attachments": files}
    )
    job = await _dispatch_and_run(client, runtime, owner, body)
    assert job["status"] == "succeeded", job
    ((envelope, message),) = inbox.messages
    assert envelope.rcpt_tos == ["jane@acme.example"]
    assert message["Subject"] == "Our deck" and "Jane Doe" in message["To"]
    assert message["From"].endswith("<sales@leadwire.example>") or message["From"] == "sales@leadwire.example"
    assert message["Message-ID"] == job["result"]["provider_message_id"]
    parts = {p.get_content_type(): p for p in message.walk() if not p.is_multipart()}
    assert parts["text/plain"].get_payload(decode=True).decode().strip() == "Plain"
    assert parts["text/html"].get_payload(decode=True).decode().strip() == "<b>Rich</b>"
    attached = {p.get_filename(): p.get_payload(decode=True) for p in message.walk() if p.get_filename()}
    assert attached == {"deck.pdf": pdf, "leads.csv": csv}


async def test_refused_credentials_fail_the_job_and_ask_for_reconnection(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, smtp_server: tuple[Inbox, int]
) -> None:
    inbox, port = smtp_server
    owner = await accounts.create()
    account = await accounts.connect_smtp(owner.user_id, port, password="wrong")
    job = await _dispatch_and_run(client, runtime, owner, email(account))
    assert job["status"] == "failed"
    assert job["error"] == {
        "code": "account_disconnected",
        "detail": "5.7.8 Authentication credentials invalid",
    }
    assert inbox.messages == []
    listed = assert_ok(await client.get("/api/v2/connect/accounts", headers=owner.headers))["items"]
    assert {a["account_id"]: a["status"] for a in listed}[account] == "reconnect_required"
    again = await client.post(DISPATCH, json=email(account), headers=owner.headers)
    assert_error(again, 409, "connect_account_reconnect_required")


async def test_refused_recipient_is_recipient_not_found(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, smtp_server: tuple[Inbox, int]
) -> None:
    _, port = smtp_server
    owner = await accounts.create()
    account = await accounts.connect_smtp(owner.user_id, port)
    body = email(account, recipient={"address": "nobody@acme.example"})
    job = await _dispatch_and_run(client, runtime, owner, body)
    assert job["status"] == "failed"
    assert job["error"] == {"code": "recipient_not_found", "detail": "550 5.1.1 no such user"}


async def test_an_account_disconnected_after_acceptance_sends_nothing(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "email")
    item = assert_ok(await client.post(DISPATCH, json=email(account), headers=owner.headers), 202)["item"]
    async with transaction(runtime.sessionmaker) as session:
        await connected.set_status(session, account, "disconnected")
    async with running_worker(runtime):
        job = await poll_job(client, owner.headers, item["id"], until=DONE)
    assert (job["status"], job["error"]) == ("failed", {"code": "account_disconnected"})
    assert Outbox(runtime.settings.data_dir).read("email") == []


async def test_twenty_concurrent_dispatches_on_one_channel_never_land_closer_than_their_interval(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "linkedin")
    other = await accounts.connect(owner.user_id, "email")
    bodies = [linkedin(account, min_channel_task_interval_seconds=60 + 10 * (i % 3)) for i in range(20)]
    responses = await asyncio.gather(*(client.post(DISPATCH, json=b, headers=owner.headers) for b in bodies))
    items = [assert_ok(r, 202)["item"] for r in responses]
    by_time = sorted(items, key=lambda i: i["scheduled_at"])
    interval = {i["id"]: b["min_channel_task_interval_seconds"] for i, b in zip(items, bodies, strict=True)}
    times = [datetime.fromisoformat(i["scheduled_at"].replace("Z", "+00:00")) for i in by_time]
    for earlier, later, item in zip(times, times[1:], by_time[1:], strict=False):
        assert later - earlier >= timedelta(seconds=interval[item["id"]])
    # Another channel is paced on its own: its first dispatch is due now, not after the LinkedIn queue.
    email_item = assert_ok(await client.post(DISPATCH, json=email(other), headers=owner.headers), 202)["item"]
    assert datetime.fromisoformat(email_item["scheduled_at"].replace("Z", "+00:00")) < times[1]


async def test_a_job_run_again_after_a_send_began_is_delivery_unknown_and_sends_nothing(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    """The worker vanished between the delivery record and the provider's answer: the rescued job must
    not send a second time."""
    from leadwire.channels import delivery
    from leadwire.platform.jobs.context import JobContext

    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "email")
    item = assert_ok(await client.post(DISPATCH, json=email(account), headers=owner.headers), 202)["item"]
    first_attempt = JobContext(runtime, item["id"], "outreach.dispatch", owner.user_id, 1, "gone-worker")
    await delivery.begin(first_attempt, channel="email", recipient="jane@acme.example")  # then killed
    async with running_worker(runtime):
        job = await poll_job(client, owner.headers, item["id"], until=DONE)
    assert (job["status"], job["error"]) == ("failed", {"code": "delivery_unknown"})
    assert Outbox(runtime.settings.data_dir).read("email") == []


async def test_a_scheduled_dispatch_waits_for_its_slot(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "whatsapp")
    first = assert_ok(await client.post(DISPATCH, json=whatsapp(account), headers=owner.headers), 202)["item"]
    second = assert_ok(await client.post(DISPATCH, json=whatsapp(account), headers=owner.headers), 202)[
        "item"
    ]
    worker = Worker(runtime, concurrency=2)
    task = asyncio.create_task(worker.run())
    try:
        done = await poll_job(client, owner.headers, first["id"], until=DONE)
        assert done["status"] == "succeeded"
        waiting = assert_ok(await client.get(f"/api/v2/jobs/{second['id']}", headers=owner.headers))["item"]
        assert waiting["status"] == "scheduled" and waiting["scheduled_at"] == second["scheduled_at"]
    finally:
        await worker.shutdown(grace_seconds=1.0)
        await task
    assert len(Outbox(runtime.settings.data_dir).read("whatsapp")) == 1


async def test_paced_dispatches_waiting_for_their_slot_do_not_use_up_the_active_job_limit(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create(plan="free")  # 5 active jobs
    account = await accounts.connect(owner.user_id, "email")
    for _ in range(8):
        assert_ok(await client.post(DISPATCH, json=email(account), headers=owner.headers), 202)
