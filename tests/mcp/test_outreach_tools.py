# ruff: noqa: E501  (the case tables read best one case a line)
"""MCP tools `dispatch_outreach` and `like_linkedin_post` in-process, on SQLite and PostgreSQL: the job
on success (waiting like `Prefer: wait`), a refusal as a tool error carrying the REST refusal's code and
field, and the REST scopes."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadwire.platform.runtime import Runtime
from leadwire.providers.sandbox_channels import Outbox
from tests.engagement.test_post_like_jobs import _authors
from tests.mcp.test_mcp_server import call, error_text
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import job_count, running_worker

DISPATCH_V2 = "/api/v2/outreach/dispatches"
LIKE_V2 = "/api/v2/outreach/linkedin/post-likes"
PROFILE = "https://www.linkedin.com/in/ada-lovelace"
REPORT = {"subject": "Q3 report", "text": "Numbers attached."}


def refusal(result: dict[str, Any], tool: str) -> str:
    """The tool error's text after the MCP library's own `Error executing tool <name>: ` preamble."""
    text = error_text(result)
    preamble = f"Error executing tool {tool}: "
    assert text.startswith(preamble), text
    return text[len(preamble) :]


def code_of(text: str) -> str:
    """The public code a tool error's text starts with (a field, then the detail, may follow)."""
    return text.split(" — ")[0].split(":")[0]


def as_tool_text(response: httpx.Response) -> str:
    """What the same refusal reads as over MCP: the code, the field and the detail when REST names them."""
    assert response.status_code >= 400, response.text
    error = response.json()["error"]
    text = str(error["code"] if error.get("param") is None else f"{error['code']}: {error['param']}")
    return text if error.get("detail") is None else f"{text} — {error['detail']}"


PDF_ATTACHMENT = {"filename": "a.pdf", "contentBase64": base64.b64encode(b"%PDF-1.4 tiny").decode()}


def linkedin_args(account_id: str, **changes: Any) -> dict[str, Any]:
    return {
        "account_id": account_id,
        "channel": "linkedin",
        "recipient": {"profile_url": PROFILE},
        "content": {"text": "Hi Ada"},
        **changes,
    }


@pytest.fixture
async def owner(accounts: AccountFactory) -> TestAccount:
    return await accounts.create()


@pytest.fixture
async def senders(accounts: AccountFactory, owner: TestAccount) -> dict[str, str]:
    return {c: await accounts.connect(owner.user_id, c) for c in ("email", "linkedin", "whatsapp")}


def email_args(account_id: str, **changes: Any) -> dict[str, Any]:
    return {
        "account_id": account_id,
        "channel": "email",
        "recipient": {"address": "jane@acme.example"},
        "content": REPORT,
        **changes,
    }


async def test_dispatch_outreach_returns_the_scheduled_job_that_rest_reads(
    client: httpx.AsyncClient, owner: TestAccount, senders: dict[str, str]
) -> None:
    result = await call(
        client,
        owner.headers,
        "dispatch_outreach",
        **email_args(senders["email"], metadata={"crm_id": "L-7"}),
        wait_seconds=0,
    )
    assert result["isError"] is False, result
    job = result["structuredContent"]
    assert (job["status"], job["action"], job["channel"]) == ("scheduled", "outreach.dispatch", "email")
    assert job["billing"]["status"] == "not_metered" and job["scheduled_at"]
    rest = assert_ok(await client.get(f"/api/v2/jobs/{job['id']}", headers=owner.headers))["item"]
    assert rest["id"] == job["id"] and rest["scheduled_at"] == job["scheduled_at"]
    assert rest["metadata"] == job["metadata"] == {"crm_id": "L-7"}


async def test_dispatch_outreach_waits_like_prefer_wait_and_returns_the_delivered_job(
    client: httpx.AsyncClient, runtime: Runtime, owner: TestAccount, senders: dict[str, str]
) -> None:
    async with running_worker(runtime):
        result = await call(
            client, owner.headers, "dispatch_outreach", **email_args(senders["email"], wait_seconds=15)
        )
    job = result["structuredContent"]
    assert job["status"] == "succeeded", job
    assert job["result"]["kind"] == "message" and job["result"]["recipient"] == "jane@acme.example"
    (sent,) = Outbox(runtime.settings.data_dir).read("email")
    assert sent["subject"] == "Q3 report"


# (case, tool arguments from the senders, code the REST refusal and the tool error both carry)
DISPATCH_REFUSALS: list[tuple[str, Callable[[dict[str, str]], dict[str, Any]], str]] = [
    ("email without subject", lambda s: email_args(s["email"], content={"text": "x"}), "content_subject_required"),
    ("email without body", lambda s: email_args(s["email"], content={"subject": "Hi"}), "content_text_or_html_required"),
    ("blank account", lambda s: email_args("  "), "account_id_required"),
    ("unknown channel", lambda s: email_args(s["email"], channel="sms"), "invalid_channel"),
    ("another channel's account", lambda s: email_args(s["linkedin"]), "invalid_channel"),
    ("not a profile url", lambda s: {"account_id": s["linkedin"], "channel": "linkedin", "recipient": {"profile_url": "https://example.com/in/jane"}, "content": {"text": "Hi"}}, "invalid_profile_url"),
    ("whatsapp without phone", lambda s: {"account_id": s["whatsapp"], "channel": "whatsapp", "recipient": {}, "content": {"text": "Hi"}}, "recipient_phone_required"),
    ("interval below 60", lambda s: email_args(s["email"], min_channel_task_interval_seconds=59), "min_channel_task_interval_seconds_invalid"),
    ("unknown account", lambda s: email_args("acct_does_not_exist"), "account_not_found"),
    ("email without address", lambda s: email_args(s["email"], recipient={"name": "Jane"}), "recipient_address_required"),
    ("linkedin without profile", lambda s: linkedin_args(s["linkedin"], recipient={}), "recipient_profile_url_required"),
    ("linkedin without text", lambda s: linkedin_args(s["linkedin"], content={}), "content_text_or_attachment_required"),
    ("attachment bad base64", lambda s: linkedin_args(s["linkedin"], content={"attachment": {"filename": "a.pdf", "contentBase64": "***"}}), "attachment_invalid"),
    ("two attachments on linkedin", lambda s: linkedin_args(s["linkedin"], content={"attachments": [PDF_ATTACHMENT] * 2}), "attachments_invalid"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "arguments", "code"), DISPATCH_REFUSALS, ids=[c[0] for c in DISPATCH_REFUSALS]
)
async def test_dispatch_outreach_refusal_is_a_tool_error_with_the_rest_code_and_creates_no_job(
    client: httpx.AsyncClient,
    runtime: Runtime,
    owner: TestAccount,
    senders: dict[str, str],
    case: str,
    arguments: Callable[[dict[str, str]], dict[str, Any]],
    code: str,
) -> None:
    args = arguments(senders)
    rest = await client.post(DISPATCH_V2, json={**args, "action": "outreach"}, headers=owner.headers)
    assert rest.json()["error"]["code"] == code
    text = refusal(await call(client, owner.headers, "dispatch_outreach", **args), "dispatch_outreach")
    assert text == as_tool_text(rest)
    assert code_of(text) == code
    assert await job_count(runtime) == 0


async def test_dispatch_outreach_account_state_refusals_match_rest(
    client: httpx.AsyncClient, accounts: AccountFactory, owner: TestAccount
) -> None:
    stranger = await accounts.create()
    theirs = await accounts.connect(stranger.user_id, "email")
    stale = await accounts.connect(owner.user_id, "email", status="reconnect_required")
    for account_id, code in ((theirs, "account_not_found"), (stale, "connect_account_reconnect_required")):
        rest = await client.post(
            DISPATCH_V2, json={**email_args(account_id), "action": "outreach"}, headers=owner.headers
        )
        text = refusal(
            await call(client, owner.headers, "dispatch_outreach", **email_args(account_id)),
            "dispatch_outreach",
        )
        assert code_of(text) == code and text == as_tool_text(rest)


async def test_dispatch_from_a_disconnected_account_is_connect_account_not_sendable(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, owner: TestAccount
) -> None:
    gone = await accounts.connect(owner.user_id, "email", status="disconnected")
    rest = await client.post(
        DISPATCH_V2, json={**email_args(gone), "action": "outreach"}, headers=owner.headers
    )
    assert_error(rest, 409, "connect_account_not_sendable")
    result = await call(client, owner.headers, "dispatch_outreach", **email_args(gone))
    assert refusal(result, "dispatch_outreach").split(":")[0] == "connect_account_not_sendable"
    assert await job_count(runtime) == 0


async def test_dispatch_while_the_server_drains_is_task_unavailable(
    client: httpx.AsyncClient, runtime: Runtime, owner: TestAccount, senders: dict[str, str]
) -> None:
    runtime.draining = True
    rest = await client.post(
        DISPATCH_V2, json={**email_args(senders["email"]), "action": "outreach"}, headers=owner.headers
    )
    assert_error(rest, 503, "task_unavailable")
    result = await call(client, owner.headers, "dispatch_outreach", **email_args(senders["email"]))
    assert refusal(result, "dispatch_outreach").split(":")[0] == "task_unavailable"
    assert await job_count(runtime) == 0


async def test_like_linkedin_post_returns_the_queued_job_paced_on_linkedin(
    client: httpx.AsyncClient, owner: TestAccount, senders: dict[str, str]
) -> None:
    first = await call(
        client, owner.headers, "like_linkedin_post", profile_url=PROFILE, content="robotics", wait_seconds=0
    )
    job = first["structuredContent"]
    assert (job["status"], job["action"], job["channel"]) == (
        "queued",
        "outreach.linkedin.post_like",
        "linkedin",
    )
    # The like takes part in LinkedIn pacing: a LinkedIn dispatch after it lands at least 60 s later.
    dispatch = await call(
        client,
        owner.headers,
        "dispatch_outreach",
        account_id=senders["linkedin"],
        channel="linkedin",
        recipient={"profile_url": PROFILE},
        content={"text": "Hi Ada"},
        wait_seconds=0,  # no worker runs here: waiting would only sit out the default 20 s
    )
    later = dispatch["structuredContent"]["scheduled_at"]
    rest = assert_ok(await client.get(f"/api/v2/jobs/{job['id']}", headers=owner.headers))["item"]
    assert rest["status"] == "queued" and rest["scheduled_at"] == job["scheduled_at"] < later


LIKE_REFUSALS: list[tuple[str, dict[str, Any], str]] = [
    ("not a profile url", {"profile_url": "https://example.com/in/ada"}, "invalid_profile_url"),
    ("company page", {"profile_url": "https://www.linkedin.com/company/acme"}, "invalid_profile_url"),
    ("blank profile url", {"profile_url": "  "}, "profile_url_required"),
    ("blank content", {"content": " \n "}, "content_required"),
    ("post limit 0", {"post_limit": 0}, "post_limit_invalid"),
    ("post limit 51", {"post_limit": 51}, "post_limit_invalid"),
    ("unknown locale", {"locale": "fr"}, "locale_invalid"),
    ("interval below 60 (v2 rule)", {"min_channel_task_interval_seconds": 30}, "min_channel_task_interval_seconds_invalid"),
    ("unknown account", {"account_id": "acct_does_not_exist"}, "account_not_found"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "change", "code"), LIKE_REFUSALS, ids=[c[0] for c in LIKE_REFUSALS])
async def test_like_linkedin_post_refusal_is_a_tool_error_with_the_rest_v2_code(
    client: httpx.AsyncClient,
    runtime: Runtime,
    owner: TestAccount,
    senders: dict[str, str],
    case: str,
    change: dict[str, Any],
    code: str,
) -> None:
    args = {"profile_url": PROFILE, "content": "robotics", **change}
    rest = await client.post(LIKE_V2, json=args, headers=owner.headers)
    assert rest.json()["error"]["code"] == code
    text = refusal(await call(client, owner.headers, "like_linkedin_post", **args), "like_linkedin_post")
    assert code_of(text) == code and text == as_tool_text(rest)
    assert await job_count(runtime) == 0


async def test_like_linkedin_post_account_selection_matches_rest_v2(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    args = {"profile_url": PROFILE, "content": "robotics", "wait_seconds": 0}
    nobody = await accounts.create()
    email_only = await accounts.connect(nobody.user_id, "email")
    several = await accounts.create()
    for _ in range(2):
        await accounts.connect(several.user_id, "linkedin")
    cases = [
        (nobody, {}, "linkedin_account_not_found"),
        (nobody, {"account_id": email_only}, "connect_account_not_sendable"),
        (several, {}, "account_id_required"),
    ]
    for acct, extra, code in cases:
        rest = await client.post(LIKE_V2, json={**args, **extra}, headers=acct.headers)
        result = await call(client, acct.headers, "like_linkedin_post", **args, **extra)
        text = refusal(result, "like_linkedin_post")
        assert code_of(text) == code and text == as_tool_text(rest), (code, text)


async def test_without_the_write_scope_the_tools_are_permission_denied_as_on_rest(
    client: httpx.AsyncClient, accounts: AccountFactory, owner: TestAccount, senders: dict[str, str]
) -> None:
    reader = await accounts.key(owner.user_id, scopes=["accounts:read", "research:read", "outreach:read"])
    outreach_only = await accounts.key(owner.user_id, scopes=["outreach:write"])
    like_args = {"profile_url": PROFILE, "content": "robotics", "wait_seconds": 0}
    for key in (reader, outreach_only):
        rest = await client.post(LIKE_V2, json=like_args, headers=key.headers)
        text = refusal(
            await call(client, key.headers, "like_linkedin_post", **like_args), "like_linkedin_post"
        )
        assert code_of(text) == "permission_denied" and text == as_tool_text(rest)
    rest = await client.post(
        DISPATCH_V2, json={**email_args(senders["email"]), "action": "outreach"}, headers=reader.headers
    )
    text = refusal(
        await call(client, reader.headers, "dispatch_outreach", **email_args(senders["email"])),
        "dispatch_outreach",
    )
    assert code_of(text) == "permission_denied" and text == as_tool_text(rest)
    # outreach:write alone is enough to dispatch (a like needs engagement:write, as on REST).
    allowed = await call(
        client, outreach_only.headers, "dispatch_outreach", **email_args(senders["email"]), wait_seconds=0
    )
    assert allowed["isError"] is False and allowed["structuredContent"]["status"] == "scheduled"


async def test_like_linkedin_post_on_the_sandbox_world_waits_and_returns_the_liked_post(
    world_client: httpx.AsyncClient, world_runtime: Runtime, indexed_world: Path
) -> None:
    acct = await AccountFactory(world_runtime).create()
    await AccountFactory(world_runtime).connect(acct.user_id, "linkedin")
    ((url, topic, topics),) = _authors(indexed_world, "en", 1)
    async with running_worker(world_runtime):
        result = await call(
            world_client, acct.headers, "like_linkedin_post", profile_url=url, content=topic, wait_seconds=30
        )
    job = result["structuredContent"]
    assert job["status"] == "succeeded", job
    assert job["result"]["status"] == "liked" and topics[job["result"]["liked_post"]["post_id"]] == topic


# Arguments the REST body would refuse with its code; over MCP the library's own argument check answers
# first (a missing argument, a number that is not an integer) or coerces the value ("90" → 90).
ARGUMENT_RULES: list[tuple[str, str, Callable[[dict[str, str]], dict[str, Any]], str]] = [
    ("dispatch without account_id", "dispatch_outreach", lambda s: {k: v for k, v in email_args(s["email"]).items() if k != "account_id"}, "account_id_required"),
    ("dispatch interval as a string", "dispatch_outreach", lambda s: email_args(s["email"], min_channel_task_interval_seconds="90"), "min_channel_task_interval_seconds_invalid"),
    ("like without profile_url", "like_linkedin_post", lambda s: {"content": "robotics", "wait_seconds": 0}, "profile_url_required"),
    ("like fractional post_limit", "like_linkedin_post", lambda s: {"profile_url": PROFILE, "content": "robotics", "post_limit": 2.5, "wait_seconds": 0}, "post_limit_invalid"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "tool", "arguments", "code"), ARGUMENT_RULES, ids=[c[0] for c in ARGUMENT_RULES]
)
async def test_a_missing_or_mistyped_argument_is_refused_with_the_same_code_as_rest(
    client: httpx.AsyncClient,
    runtime: Runtime,
    owner: TestAccount,
    senders: dict[str, str],
    case: str,
    tool: str,
    arguments: Callable[[dict[str, str]], dict[str, Any]],
    code: str,
) -> None:
    result = await call(client, owner.headers, tool, **arguments(senders))
    assert result["isError"] is True, f"{case}: accepted over MCP, REST refuses it with {code}"
    assert code_of(refusal(result, tool)) == code
    assert await job_count(runtime) == 0


async def test_dispatch_outreach_past_the_queued_bytes_is_the_rest_refusal(
    client: httpx.AsyncClient, runtime: Runtime, owner: TestAccount, senders: dict[str, str]
) -> None:
    runtime.settings = runtime.settings.model_copy(update={"queued_bytes_per_account": 1_000})
    attachment = {"filename": "deck.pdf", "contentBase64": base64.b64encode(b"x" * 1_500).decode()}
    args = email_args(senders["email"], content={**REPORT, "attachments": [attachment]})
    text = refusal(await call(client, owner.headers, "dispatch_outreach", **args), "dispatch_outreach")
    assert code_of(text) == "queued_bytes_limit_exceeded"
    assert await job_count(runtime) == 0
