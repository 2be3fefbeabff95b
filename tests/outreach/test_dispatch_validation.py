# ruff: noqa: E501  (the case tables read best one case a line)
"""Dispatch acceptance on v1 and v2: every rule (docs/api.md, Outreach dispatch by email;
Outreach dispatch on LinkedIn; Outreach dispatch on WhatsApp) and its code (docs/api.md, Errors), the
account checks, the reduced creation item, idempotency and Prefer: wait."""

from __future__ import annotations

import base64
from typing import Any

import httpx
import pytest

from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import Job
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import job_count

VERSIONS = ["v1", "v2"]
PDF = base64.b64encode(b"%PDF-1.4 tiny").decode()


def path(version: str) -> str:
    return f"/api/{version}/outreach/dispatches"


def email(account_id: str, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "account_id": account_id,
        "channel": "email",
        "action": "outreach",
        "recipient": {"address": "jane@acme.example", "name": "Jane Doe"},
        "content": {"subject": "Hello", "text": "Plain body", "html": "<p>HTML body</p>"},
    }
    body.update(changes)
    return body


def linkedin(account_id: str, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "account_id": account_id,
        "channel": "linkedin",
        "action": "outreach",
        "recipient": {"profile_url": "https://www.linkedin.com/in/jane-doe"},
        "content": {"text": "Hi Jane"},
    }
    body.update(changes)
    return body


def whatsapp(account_id: str, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "account_id": account_id,
        "channel": "whatsapp",
        "action": "outreach",
        "recipient": {"phone": "+4915123456789"},
        "content": {"text": "Hallo"},
    }
    body.update(changes)
    return body


@pytest.fixture
async def owner(accounts: AccountFactory) -> TestAccount:
    return await accounts.create()


@pytest.fixture
async def senders(accounts: AccountFactory, owner: TestAccount) -> dict[str, str]:
    return {c: await accounts.connect(owner.user_id, c) for c in ("email", "linkedin", "whatsapp")}


@pytest.mark.parametrize("version", VERSIONS)
async def test_dispatch_is_accepted_with_the_reduced_item(
    client: httpx.AsyncClient, owner: TestAccount, senders: dict[str, str], version: str
) -> None:
    response = await client.post(path(version), json=email(senders["email"]), headers=owner.headers)
    item = assert_ok(response, 202)["item"]
    assert set(item) == {"id", "status", "action", "channel", "scheduled_at"}
    assert (item["status"], item["action"], item["channel"]) == ("scheduled", "outreach.dispatch", "email")
    job = assert_ok(await client.get(f"/api/v2/jobs/{item['id']}", headers=owner.headers))["item"]
    assert job["billing"]["status"] == "not_metered" and job["channel"] == "email"
    v1 = assert_ok(await client.get(f"/api/v1/outreach/jobs/{item['id']}", headers=owner.headers))["item"]
    assert v1["id"] == item["id"]


BASIC_CASES = [
    ("no account", lambda a: {k: v for k, v in email(a).items() if k != "account_id"}, "account_id_required"),
    ("blank account", lambda a: email("  "), "account_id_required"),
    ("account not a string", lambda a: email(7), "account_id_required"),  # type: ignore[arg-type]
    ("no channel", lambda a: {k: v for k, v in email(a).items() if k != "channel"}, "invalid_channel"),
    ("unknown channel", lambda a: email(a, channel="sms"), "invalid_channel"),
    ("no action", lambda a: {k: v for k, v in email(a).items() if k != "action"}, "invalid_action"),
    ("other action", lambda a: email(a, action="like"), "invalid_action"),
    ("interval too small", lambda a: email(a, min_channel_task_interval_seconds=59), "min_channel_task_interval_seconds_invalid"),
    ("interval too large", lambda a: email(a, min_channel_task_interval_seconds=86401), "min_channel_task_interval_seconds_invalid"),
    ("interval not a number", lambda a: email(a, min_channel_task_interval_seconds="90"), "min_channel_task_interval_seconds_invalid"),
    ("interval fractional", lambda a: email(a, min_channel_task_interval_seconds=90.5), "min_channel_task_interval_seconds_invalid"),
    ("email without address", lambda a: email(a, recipient={"name": "Jane"}), "recipient_address_required"),
    ("email without recipient", lambda a: {k: v for k, v in email(a).items() if k != "recipient"}, "recipient_address_required"),
    ("email without subject", lambda a: email(a, content={"text": "x"}), "content_subject_required"),
    ("email blank subject", lambda a: email(a, content={"subject": " ", "text": "x"}), "content_subject_required"),
    ("email without body", lambda a: email(a, content={"subject": "Hi"}), "content_text_or_html_required"),
    ("email without content", lambda a: {k: v for k, v in email(a).items() if k != "content"}, "content_subject_required"),
    ("linkedin without profile", lambda a: linkedin(a, recipient={}), "recipient_profile_url_required"),
    ("linkedin not a profile", lambda a: linkedin(a, recipient={"profile_url": "https://example.com/in/jane"}), "invalid_profile_url"),
    ("linkedin company page", lambda a: linkedin(a, recipient={"profile_url": "https://www.linkedin.com/company/acme"}), "invalid_profile_url"),
    ("linkedin dot segment", lambda a: linkedin(a, recipient={"profile_url": "linkedin.com/in/%2e%2e"}), "invalid_profile_url"),
    ("linkedin without text", lambda a: linkedin(a, content={}), "content_text_or_attachment_required"),
    ("whatsapp without phone", lambda a: whatsapp(a, recipient={}), "recipient_phone_required"),
    ("whatsapp without text", lambda a: whatsapp(a, content={"text": ""}), "content_text_or_attachment_required"),
    ("attachment not an object", lambda a: linkedin(a, content={"attachment": "file.pdf"}), "attachment_invalid"),
    ("attachment bad base64", lambda a: linkedin(a, content={"attachment": {"filename": "a.pdf", "contentBase64": "***"}}), "attachment_invalid"),
    ("attachment no filename", lambda a: linkedin(a, content={"attachment": {"contentBase64": PDF}}), "attachment_invalid"),
    ("attachment bad type", lambda a: linkedin(a, content={"attachment": {"filename": "a.pdf", "contentBase64": PDF, "contentType": "pdf"}}), "attachment_invalid"),
    ("attachments not a list", lambda a: email(a, content={"subject": "s", "text": "t", "attachments": {"filename": "a"}}), "attachments_invalid"),
    ("two attachments on linkedin", lambda a: linkedin(a, content={"attachments": [{"filename": "a.pdf", "contentBase64": PDF}] * 2}), "attachments_invalid"),
    ("email recipient before content", lambda a: {**email(a), "recipient": None, "content": "x"}, "recipient_address_required"),
    ("attachment multipart type", lambda a: linkedin(a, content={"attachment": {"filename": "a.eml", "contentBase64": PDF, "contentType": "multipart/mixed"}}), "attachment_invalid"),
    ("attachment message type", lambda a: linkedin(a, content={"attachment": {"filename": "a.eml", "contentBase64": PDF, "contentType": "message/rfc822"}}), "attachment_invalid"),
    ("two attachments on whatsapp", lambda a: whatsapp(a, content={"attachments": [{"filename": "a.pdf", "contentBase64": PDF}], "attachment": {"filename": "b.pdf", "contentBase64": PDF}}), "attachments_invalid"),
]  # fmt: skip


@pytest.mark.parametrize("version", VERSIONS)
async def test_each_rule_has_its_code_and_creates_no_job(
    client: httpx.AsyncClient, runtime: Runtime, owner: TestAccount, senders: dict[str, str], version: str
) -> None:
    # One app per engine and version, every case against it (an app per case would cost seconds each).
    for case, build, code in BASIC_CASES:
        channel = case.split()[0]
        body = build(senders[channel] if channel in senders else senders["email"])
        response = await client.post(path(version), json=body, headers=owner.headers)
        assert (response.status_code, response.json()["error"]["code"]) == (400, code), case
        assert_error(response, 400, code)
    assert await job_count(runtime) == 0


INVALID_FIELDS = [
    (email, {"recipient": {"address": "not-an-address"}}, "recipient.address"),
    (email, {"recipient": {"address": "jane@acme.example\r\nBcc: all@acme.example"}}, "recipient.address"),
    (email, {"recipient": {"address": "jane@acme.example", "name": "Jane\r\nBcc: x@y.example"}}, "recipient.name"),
    (email, {"content": {"subject": "Hi\r\nBcc: all@acme.example", "text": "x"}}, "content.subject"),
    (email, {"content": {"subject": "Hi\x0bBcc: all@acme.example", "text": "x"}}, "content.subject"),
    (email, {"content": {"subject": "Hi\u2028Bcc: all@acme.example", "text": "x"}}, "content.subject"),
    (email, {"recipient": {"address": "jane@acme.example", "name": "Jane\x85Bcc"}}, "recipient.name"),
    (email, {"recipient": {"address": "jüne@acme.example"}}, "recipient.address"),
    (email, {"content": {"subject": "Hi", "text": 5}}, "content.text"),
    (email, {"recipient": "jane@acme.example"}, "recipient"),
    (whatsapp, {"recipient": {"phone": "12345"}}, "recipient.phone"),
    (whatsapp, {"recipient": {"phone": "+1 555 000"}}, "recipient.phone"),
]  # fmt: skip


@pytest.mark.parametrize("version", VERSIONS)
async def test_other_invalid_fields_are_invalid_request_with_param(
    client: httpx.AsyncClient, owner: TestAccount, senders: dict[str, str], version: str
) -> None:
    for build, changes, param in INVALID_FIELDS:
        response = await client.post(
            path(version), json=build(senders[build.__name__], **changes), headers=owner.headers
        )
        assert (response.status_code, response.json()["error"].get("param")) == (400, param), changes
        assert_error(response, 400, "invalid_request", param=param)


@pytest.mark.parametrize("version", VERSIONS)
async def test_account_checks(
    client: httpx.AsyncClient,
    accounts: AccountFactory,
    owner: TestAccount,
    senders: dict[str, str],
    version: str,
) -> None:
    stranger = await accounts.create()
    foreign = await accounts.connect(stranger.user_id, "email")
    for account_id in ("acct_nope", foreign, "x" * 500):
        response = await client.post(path(version), json=email(account_id), headers=owner.headers)
        assert_error(response, 404, "account_not_found", param="account_id")
    other_channel = email(senders["linkedin"])
    assert_error(
        await client.post(path(version), json=other_channel, headers=owner.headers), 400, "invalid_channel"
    )
    reconnect = await accounts.connect(owner.user_id, "email", status="reconnect_required")
    response = await client.post(path(version), json=email(reconnect), headers=owner.headers)
    assert_error(response, 409, "connect_account_reconnect_required")
    gone = await accounts.connect(owner.user_id, "email", status="disconnected")
    assert_error(
        await client.post(path(version), json=email(gone), headers=owner.headers),
        409,
        "connect_account_not_sendable",
    )


@pytest.mark.parametrize("version", VERSIONS)
async def test_dispatch_needs_the_outreach_write_scope(
    client: httpx.AsyncClient,
    accounts: AccountFactory,
    owner: TestAccount,
    senders: dict[str, str],
    version: str,
) -> None:
    reader = await accounts.key(owner.user_id, scopes=["outreach:read"])
    response = await client.post(path(version), json=email(senders["email"]), headers=reader.headers)
    assert_error(response, 403, "permission_denied")


@pytest.mark.parametrize("version", VERSIONS)
async def test_same_idempotency_key_gives_the_same_job_and_another_body_conflicts(
    client: httpx.AsyncClient, owner: TestAccount, senders: dict[str, str], version: str
) -> None:
    headers = {**owner.headers, "Idempotency-Key": "dispatch-1"}
    first = assert_ok(await client.post(path(version), json=email(senders["email"]), headers=headers), 202)
    again = await client.post(path(version), json=email(senders["email"]), headers=headers)
    assert again.status_code == 202 and again.json()["item"] == first["item"]  # the stored first response
    changed = email(senders["email"], content={"subject": "Other", "text": "x"})
    assert_error(await client.post(path(version), json=changed, headers=headers), 409, "idempotency_conflict")


async def test_attachments_filename_is_sanitised_and_metadata_kept(
    client: httpx.AsyncClient, runtime: Runtime, owner: TestAccount, senders: dict[str, str]
) -> None:
    attachment = {"filename": '../../etc/"pass\r\nwd".pdf', "contentBase64": PDF}
    body = email(
        senders["email"],
        content={"subject": "Deck", "text": "see attached", "attachments": [attachment]},
        metadata={"campaign": "q4", "step": 2},
    )
    item = assert_ok(await client.post(path("v2"), json=body, headers=owner.headers), 202)["item"]
    job = assert_ok(await client.get(f"/api/v2/jobs/{item['id']}", headers=owner.headers))["item"]
    assert job["metadata"] == {"campaign": "q4", "step": 2}
    async with transaction(runtime.sessionmaker) as session:
        stored = await session.get(Job, item["id"])
    assert stored is not None
    (saved,) = stored.payload["content"]["attachments"]
    assert saved["filename"] == "passwd.pdf" and saved["contentType"] == "application/pdf"


async def test_a_body_over_12_mb_is_request_payload_too_large(
    client: httpx.AsyncClient, owner: TestAccount, senders: dict[str, str]
) -> None:
    big = base64.b64encode(b"\0" * (9 * 1024 * 1024 + 1)).decode()  # > 12 MB once base64-encoded
    files = [{"filename": "big.bin", "contentBase64": big}]
    body = email(senders["email"], content={"subject": "big", "text": "x", "attachments": files})
    response = await client.post(path("v2"), json=body, headers=owner.headers)
    assert_error(response, 413, "request_payload_too_large")


async def test_unknown_fields_are_ignored(
    client: httpx.AsyncClient, owner: TestAccount, senders: dict[str, str]
) -> None:
    body = {**whatsapp(senders["whatsapp"]), "campaign_id": "c1", "priority": "high"}
    assert_ok(await client.post(path("v2"), json=body, headers=owner.headers), 202)


async def test_whatsapp_numbers_are_stored_in_e164(
    client: httpx.AsyncClient, runtime: Runtime, owner: TestAccount, senders: dict[str, str]
) -> None:
    for written in ("+49 151 2345 6789", "0049 151 23456789", "+4915123456789"):
        body = whatsapp(senders["whatsapp"], recipient={"phone": written})
        item = assert_ok(await client.post(path("v2"), json=body, headers=owner.headers), 202)["item"]
        async with transaction(runtime.sessionmaker) as session:
            stored = await session.get(Job, item["id"])
        assert stored is not None and stored.payload["recipient"]["phone"] == "+4915123456789", written
