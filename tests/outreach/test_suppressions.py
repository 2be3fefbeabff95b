"""The suppression list: entries by hand and by CSV, normalised; a dispatch to a listed recipient (by
address, by domain, by phone, by profile, on its channel or on any) refused with 409 before any job;
a hard bounce on a real SMTP server and a WhatsApp opt-out (131050, as Meta's Graph API answers it)
listing the recipient; the bound per account; every face (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from leadwire.app import create_app
from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from leadwire.outreach import suppression_import, suppressions
from leadwire.platform.runtime import Runtime
from tests.mcp.test_mcp_server import call, error_code
from tests.outreach.test_dispatch_delivery import _dispatch_and_run
from tests.outreach.test_dispatch_providers import _account
from tests.outreach.test_dispatch_providers import _run as _run_provider
from tests.outreach.test_dispatch_validation import email, linkedin, whatsapp
from tests.providers.test_unipile import BASE as UNIPILE
from tests.providers.test_unipile import PROFILE_URL, problem, user
from tests.providers.test_whatsapp_cloud import MESSAGES, graph_error
from tests.support.accounts import AccountFactory
from tests.support.cli import run_cli
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import job_count
from tests.support.lifespan import served
from tests.support.smtp import Inbox

SUPPRESSIONS = "/api/v2/outreach/suppressions"
DISPATCH = "/api/v2/outreach/dispatches"


async def _suppress(client: httpx.AsyncClient, headers: dict[str, str], **body: Any) -> httpx.Response:
    return await client.post(SUPPRESSIONS, json=body, headers=headers)


NORMAL_FORMS = [
    ("email", " Jane@ACME.example ", "jane@acme.example"),
    ("email", "@Acme.Example", "acme.example"),
    ("whatsapp", "+49 151 2345 6789", "+4915123456789"),
    ("linkedin", "linkedin.com/in/jane-doe/?trk=x", "https://www.linkedin.com/in/jane-doe"),
    ("any", "+4930 1234 5678", "+493012345678"),
]
BAD_ENTRIES: list[dict[str, Any]] = [
    {"channel": "email", "value": "not an address@"},
    {"channel": "whatsapp", "value": "12"},
    {"channel": "linkedin", "value": "https://example.com/jane"},
    {"channel": "fax", "value": "+4915123456789"},
    {"channel": "email"},
    {"channel": "email", "value": ""},
    {"channel": "email", "value": 42},
    {"channel": "email", "value": "a@b.example", "reason": "x" * 501},
]


async def test_an_entry_is_stored_normalised_and_added_once(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    for channel, value, stored in NORMAL_FORMS:
        first = await _suppress(client, owner.headers, channel=channel, value=value, reason="asked")
        again = await _suppress(client, owner.headers, channel=channel, value=stored)
        entry = assert_ok(first, 201)["item"]
        assert assert_ok(again, 200)["item"] == entry
        assert (entry["channel"], entry["value"], entry["reason"], entry["source"]) == (
            channel,
            stored,
            "asked",
            "manual",
        )
        read = assert_ok(await client.get(f"{SUPPRESSIONS}/{entry['id']}", headers=owner.headers))["item"]
        found = assert_ok(await client.get(SUPPRESSIONS, params={"value": value}, headers=owner.headers))
        assert read == entry and [e["id"] for e in found["items"]] == [entry["id"]], (value, found)


async def test_a_bad_entry_is_refused_with_its_code(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    for body in BAD_ENTRIES:
        response = await client.post(SUPPRESSIONS, json=body, headers=owner.headers)
        assert_error(response, 400, "invalid_suppression")
    assert assert_ok(await client.get(SUPPRESSIONS, headers=owner.headers))["items"] == []


async def test_a_listed_recipient_is_refused_before_any_job_on_its_channel_and_any(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    mail = await accounts.connect(owner.user_id, "email")
    chat = await accounts.connect(owner.user_id, "whatsapp")
    profile = await accounts.connect(owner.user_id, "linkedin")
    assert_ok(
        await _suppress(client, owner.headers, channel="email", value="acme.example", reason="a customer"),
        201,
    )
    assert_ok(await _suppress(client, owner.headers, channel="any", value="+4915123456789"), 201)
    listed = assert_ok(
        await _suppress(
            client, owner.headers, channel="linkedin", value="https://www.linkedin.com/in/jane-doe"
        ),
        201,
    )["item"]
    refused = [
        await client.post(
            DISPATCH, json=email(mail, recipient={"address": "Bob@ACME.example"}), headers=owner.headers
        ),
        await client.post(
            DISPATCH, json=whatsapp(chat, recipient={"phone": "+49 151 23456789"}), headers=owner.headers
        ),
        await client.post(DISPATCH, json=linkedin(profile), headers=owner.headers),
        await client.post("/api/v1/outreach/dispatches", json=linkedin(profile), headers=owner.headers),
    ]
    for response in refused:
        assert_error(response, 409, "recipient_suppressed")
    assert "acme.example is suppressed on email: a customer" in refused[0].json()["error"]["detail"]
    assert await job_count(runtime) == 0
    # Another address, and the listed profile once its entry is gone, are sent as ever.
    other = await client.post(
        DISPATCH, json=email(mail, recipient={"address": "jane@other.example"}), headers=owner.headers
    )
    deleted = await client.delete(f"{SUPPRESSIONS}/{listed['id']}", headers=owner.headers)
    freed = await client.post(DISPATCH, json=linkedin(profile), headers=owner.headers)
    assert assert_ok(deleted)["item"] == {"id": listed["id"], "deleted": True}
    assert_ok(other, 202) and assert_ok(freed, 202)
    assert_error(
        await client.delete(f"{SUPPRESSIONS}/{listed['id']}", headers=owner.headers),
        404,
        "suppression_not_found",
    )


async def test_another_accounts_list_never_applies_and_its_entries_are_not_found(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(), await accounts.create()
    mail = await accounts.connect(owner.user_id, "email")
    theirs = assert_ok(
        await _suppress(client, stranger.headers, channel="email", value="jane@acme.example"), 201
    )
    assert_ok(await client.post(DISPATCH, json=email(mail), headers=owner.headers), 202)
    for method in ("GET", "DELETE"):
        response = await client.request(
            method, f"{SUPPRESSIONS}/{theirs['item']['id']}", headers=owner.headers
        )
        assert_error(response, 404, "suppression_not_found")
    assert assert_ok(await client.get(SUPPRESSIONS, headers=owner.headers))["items"] == []


async def test_a_csv_adds_every_good_line_and_reports_every_bad_one(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    assert_ok(await _suppress(client, owner.headers, channel="email", value="jane@acme.example"), 201)
    text = "channel,value,reason\n"
    text += "email,jane@acme.example,already\n"  # listed by hand: kept as it is
    text += "email,spam.example,whole domain\n"
    text += "whatsapp,+4915123456789,\n"
    text += "fax,+4915123456789,\n"  # line 5
    text += "linkedin,not a profile,\n"  # line 6
    text += "any,https://www.linkedin.com/in/jane-doe,\n"
    response = await client.post(
        f"{SUPPRESSIONS}/import", content=text.encode(), headers={**owner.headers, "Content-Type": "text/csv"}
    )
    done = assert_ok(response)["item"]
    assert done == {
        "accepted": 4,
        "added": 3,
        "already_listed": 1,
        "rejected": 2,
        "errors": [
            {"line": 5, "field": "channel", "code": "invalid_channel"},
            {"line": 6, "field": "value", "code": "invalid_value"},
        ],
    }
    listed = assert_ok(await client.get(SUPPRESSIONS, params={"limit": 100}, headers=owner.headers))["items"]
    assert sorted((e["channel"], e["value"], e["source"]) for e in listed) == [
        ("any", "https://www.linkedin.com/in/jane-doe", "import"),
        ("email", "jane@acme.example", "manual"),
        ("email", "spam.example", "import"),
        ("whatsapp", "+4915123456789", "import"),
    ]
    no_header = await client.post(
        f"{SUPPRESSIONS}/import",
        content=b"email,a@b.example\n",
        headers={**owner.headers, "Content-Type": "text/csv"},
    )
    assert_error(no_header, 400, "invalid_suppression")


async def test_the_account_bound_and_the_import_bound_have_their_codes(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = await accounts.create()
    monkeypatch.setattr(suppressions, "MAX_PER_ACCOUNT", 2)
    monkeypatch.setattr(suppression_import, "MAX_IMPORT_ROWS", 3)
    csv_headers = {**owner.headers, "Content-Type": "text/csv"}
    big = "channel,value\n" + "".join(f"email,user{n}@acme.example\n" for n in range(4))
    too_long = await client.post(f"{SUPPRESSIONS}/import", content=big.encode(), headers=csv_headers)
    assert_error(too_long, 413, "suppression_import_too_large")
    three = "channel,value\n" + "".join(f"email,user{n}@acme.example\n" for n in range(3))
    too_many = await client.post(f"{SUPPRESSIONS}/import", content=three.encode(), headers=csv_headers)
    assert_error(too_many, 409, "suppression_limit_exceeded")
    assert assert_ok(await client.get(SUPPRESSIONS, headers=owner.headers))["items"] == []  # all or nothing
    assert_ok(await _suppress(client, owner.headers, channel="email", value="a@acme.example"), 201)
    assert_ok(await _suppress(client, owner.headers, channel="email", value="b@acme.example"), 201)
    assert_error(
        await _suppress(client, owner.headers, channel="email", value="c@acme.example"),
        409,
        "suppression_limit_exceeded",
    )


async def test_a_hard_bounce_lists_the_address_and_the_next_dispatch_is_refused(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, smtp_server: tuple[Inbox, int]
) -> None:
    _, port = smtp_server
    owner = await accounts.create()
    account = await accounts.connect_smtp(owner.user_id, port)
    body = email(account, recipient={"address": "nobody@acme.example"})
    job = await _dispatch_and_run(client, runtime, owner, body)
    (entry,) = assert_ok(await client.get(SUPPRESSIONS, headers=owner.headers))["items"]
    again = await client.post(DISPATCH, json=body, headers=owner.headers)
    assert job["error"] == {"code": "recipient_not_found", "detail": "550 5.1.1 no such user"}
    assert (entry["channel"], entry["kind"], entry["value"], entry["source"]) == (
        "email",
        "address",
        "nobody@acme.example",
        "bounce",
    )
    assert entry["reason"] == "hard bounce: 550 5.1.1 no such user"
    assert_error(again, 409, "recipient_suppressed")


@pytest.fixture
def upstream() -> Any:
    with respx.mock(assert_all_called=False) as router:
        yield router


async def test_a_whatsapp_opt_out_lists_the_number_and_other_failures_do_not(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, upstream: respx.MockRouter
) -> None:
    # Two senders (a channel's second dispatch would wait for its pacing slot).
    window, opted = await accounts.create(), await accounts.create()
    window_account = await _account(runtime, window.user_id, "whatsapp")
    opted_account = await _account(runtime, opted.user_id, "whatsapp")
    stopped = graph_error(
        131050,
        "Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on "
        "WhatsApp from your business.",
    )
    upstream.post(MESSAGES).mock(
        side_effect=[
            httpx.Response(400, json=graph_error(131047, "Re-engagement message")),
            httpx.Response(400, json=stopped),
        ]
    )
    outside_window = await _run_provider(client, runtime, window.headers, whatsapp(window_account))
    opted_out = await _run_provider(client, runtime, opted.headers, whatsapp(opted_account))
    not_listed = assert_ok(await client.get(SUPPRESSIONS, headers=window.headers))["items"]
    (entry,) = assert_ok(await client.get(SUPPRESSIONS, headers=opted.headers))["items"]
    again = await client.post(DISPATCH, json=whatsapp(opted_account), headers=opted.headers)
    assert outside_window["error"]["code"] == "whatsapp_reengagement_required" and not_listed == []
    assert opted_out["status"] == "failed" and opted_out["error"]["code"] == "recipient_opted_out"
    assert (entry["channel"], entry["value"], entry["source"]) == ("whatsapp", "+4915123456789", "opt_out")
    assert entry["reason"].startswith("opted out: HTTP 400 code=131050")
    assert_error(again, 409, "recipient_suppressed")


async def test_a_linkedin_recipient_who_blocked_the_account_is_listed(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, upstream: respx.MockRouter
) -> None:
    owner = await accounts.create()
    account_id = await _account(runtime, owner.user_id, "linkedin")
    upstream.get(f"{UNIPILE}/users/jane-doe-42").mock(
        return_value=httpx.Response(200, json=user("FIRST_DEGREE"))
    )
    blocked = problem(
        422, "errors/blocked_recipient", "Unprocessable Entity", "The recipient has blocked you."
    )
    upstream.post(f"{UNIPILE}/chats").mock(return_value=httpx.Response(422, json=blocked))
    body = linkedin(account_id, recipient={"profile_url": PROFILE_URL})
    job = await _run_provider(client, runtime, owner.headers, body)
    (entry,) = assert_ok(await client.get(SUPPRESSIONS, headers=owner.headers))["items"]
    assert job["status"] == "failed" and job["error"]["code"] == "recipient_blocked"
    assert (entry["channel"], entry["value"], entry["source"]) == (
        "linkedin",
        "https://www.linkedin.com/in/jane-doe-42",
        "blocked",
    )
    assert_error(await client.post(DISPATCH, json=body, headers=owner.headers), 409, "recipient_suppressed")


async def test_the_sdk_cli_and_mcp_manage_the_list(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    owner = await accounts.create()
    key = owner.headers["Authorization"].removeprefix("Bearer ")
    csv_file = tmp_path / "list.csv"
    csv_file.write_text("channel,value,reason\nemail,cli.example,from the cli\nfax,x,\n")
    async with served(create_app(runtime=runtime)) as base:

        def sync_calls() -> tuple[Any, Any]:
            with Leadwire(key, base) as lw:
                made = lw.suppress("email", "Sync@Acme.example", reason="sync")
                return made, lw.get_suppression(made["id"])

        made, read = await asyncio.to_thread(sync_calls)
        async with AsyncLeadwire(key, base) as alw:
            imported = await alw.import_suppressions("channel,value\nwhatsapp,+4915123456789\n")
            page = await alw.list_suppressions(channel="whatsapp")
            with pytest.raises(LeadwireError) as refused:
                await alw.suppress("whatsapp", "12")
            removed = await alw.delete_suppression(made["id"])
        added = await asyncio.to_thread(
            run_cli, base, key, "suppressions", "add", "any", "+4930123456", "--json"
        )
        cli_import = await asyncio.to_thread(run_cli, base, key, "suppressions", "import", str(csv_file))
        listed = await asyncio.to_thread(run_cli, base, key, "suppressions", "list", "--json")
        tool_made = await call(
            client, owner.headers, "suppress_recipient", channel="linkedin", value="linkedin.com/in/tool-user"
        )
        tool_bad = await call(client, owner.headers, "suppress_recipient", channel="fax", value="x")
        tool_list = await call(client, owner.headers, "list_suppressions", channel="linkedin")
    assert made == read and made["value"] == "sync@acme.example"
    assert imported["added"] == 1 and [e["value"] for e in page["items"]] == ["+4915123456789"]
    assert refused.value.status == 400 and refused.value.code == "invalid_suppression"
    assert removed == {"id": made["id"], "deleted": True}
    assert added.exit_code == 0 and json.loads(added.output)["value"] == "+4930123456"
    assert (
        cli_import.exit_code == 0
        and "added 1" in cli_import.output
        and "line 3: channel invalid_channel" in cli_import.output
    )
    assert listed.exit_code == 0
    assert {e["value"] for e in json.loads(listed.output)["items"]} == {
        "+4930123456",
        "cli.example",
        "+4915123456789",
    }
    assert tool_made["structuredContent"]["value"] == "https://www.linkedin.com/in/tool-user"
    assert error_code(tool_bad) == "invalid_suppression"
    assert [e["value"] for e in tool_list["structuredContent"]["items"]] == [
        "https://www.linkedin.com/in/tool-user"
    ]


async def test_the_tools_refuse_with_the_rest_codes(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = await accounts.create()
    mail = await accounts.connect(owner.user_id, "email")
    assert_ok(await _suppress(client, owner.headers, channel="email", value="jane@acme.example"), 201)
    body = email(mail)
    sent = await call(
        client,
        owner.headers,
        "dispatch_outreach",
        account_id=mail,
        channel="email",
        recipient=body["recipient"],
        content=body["content"],
    )
    unknown = await call(client, owner.headers, "get_suppression", suppression_id="sup_nothing")
    gone = await call(client, owner.headers, "delete_suppression", suppression_id="sup_nothing")
    monkeypatch.setattr(suppressions, "MAX_PER_ACCOUNT", 1)
    full = await call(client, owner.headers, "suppress_recipient", channel="email", value="bob@acme.example")
    assert error_code(sent) == "recipient_suppressed"
    assert error_code(unknown) == error_code(gone) == "suppression_not_found"
    assert error_code(full) == "suppression_limit_exceeded"
