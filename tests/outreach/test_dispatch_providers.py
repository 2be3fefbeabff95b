"""Dispatch jobs through the real provider adapters (Unipile for LinkedIn, WhatsApp Cloud), the
providers answering in the shapes their public docs give (respx on the adapters' HTTP, the API and
the worker real): message vs invitation, notes over 300 characters, WhatsApp's 24-hour window,
refused credentials."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import respx

from leadwire.platform.runtime import Runtime
from tests.outreach.test_dispatch_validation import linkedin, whatsapp
from tests.providers.test_unipile import ACCOUNT, BASE, DSN, KEY, PROFILE_URL, user
from tests.providers.test_whatsapp_cloud import MESSAGES, PHONE_ID, TOKEN, graph_error, sent
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker

DISPATCH = "/api/v2/outreach/dispatches"
DONE = ("succeeded", "failed", "cancelled")


@pytest.fixture
def upstream() -> Iterator[respx.MockRouter]:
    """The providers' HTTP APIs; the app under test is reached in-process, not through this router."""
    with respx.mock(assert_all_called=False) as router:
        yield router


async def _account(runtime: Runtime, user_id: str, channel: str) -> str:
    if channel == "linkedin":
        settings = {"unipile_dsn": DSN, "unipile_account_id": ACCOUNT}
        provider, secret = "unipile", {"api_key": KEY}
    else:
        settings, provider, secret = {"phone_number_id": PHONE_ID}, "whatsapp_cloud", {"access_token": TOKEN}
    return await AccountFactory(runtime).connect_provider(user_id, channel, provider, settings, secret)


async def _run(
    client: httpx.AsyncClient, runtime: Runtime, headers: dict[str, str], body: dict[str, Any]
) -> Any:
    item = assert_ok(await client.post(DISPATCH, json=body, headers=headers), 202)["item"]
    async with running_worker(runtime):
        return await poll_job(client, headers, item["id"], until=DONE)


async def test_unipile_connection_gets_a_message(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, upstream: respx.MockRouter
) -> None:
    owner = await accounts.create()
    account = await _account(runtime, owner.user_id, "linkedin")
    upstream.get(f"{BASE}/users/jane-doe-42").mock(
        return_value=httpx.Response(200, json=user("FIRST_DEGREE"))
    )
    chat = upstream.post(f"{BASE}/chats").mock(
        return_value=httpx.Response(
            201, json={"object": "ChatStarted", "chat_id": "chat_9Qx", "message_id": "msg_7Tb"}
        )
    )
    job = await _run(
        client, runtime, owner.headers, linkedin(account, recipient={"profile_url": PROFILE_URL})
    )
    assert job["status"] == "succeeded", job
    assert (job["result"]["kind"], job["result"]["provider"]) == ("message", "unipile")
    assert job["result"]["provider_message_id"] == "msg_7Tb" and chat.call_count == 1


async def test_unipile_invitation_note_over_300_characters_fails_clearly_and_sends_nothing(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, upstream: respx.MockRouter
) -> None:
    owner = await accounts.create()
    account = await _account(runtime, owner.user_id, "linkedin")
    upstream.get(f"{BASE}/users/jane-doe-42").mock(
        return_value=httpx.Response(200, json=user("SECOND_DEGREE"))
    )
    invite = upstream.post(f"{BASE}/users/invite")
    body = linkedin(account, recipient={"profile_url": PROFILE_URL}, content={"text": "x" * 301})
    job = await _run(client, runtime, owner.headers, body)
    assert job["status"] == "failed"
    assert job["error"] == {"code": "invitation_note_too_long", "detail": "invitation note over 300 chars"}
    assert not invite.called


async def test_whatsapp_outside_the_24_hour_window_is_reengagement_required(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, upstream: respx.MockRouter
) -> None:
    owner = await accounts.create()
    account = await _account(runtime, owner.user_id, "whatsapp")
    upstream.post(MESSAGES).mock(
        return_value=httpx.Response(400, json=graph_error(131047, "Re-engagement message"))
    )
    job = await _run(client, runtime, owner.headers, whatsapp(account))
    assert job["status"] == "failed" and job["error"] == {
        "code": "whatsapp_reengagement_required",
        "detail": "HTTP 400 code=131047 type=OAuthException message=Re-engagement message",
    }


async def test_whatsapp_cloud_delivers_with_the_decrypted_token(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, upstream: respx.MockRouter
) -> None:
    owner = await accounts.create()
    account = await _account(runtime, owner.user_id, "whatsapp")
    route = upstream.post(MESSAGES).mock(return_value=httpx.Response(200, json=sent("4915123456789")))
    job = await _run(client, runtime, owner.headers, whatsapp(account))
    assert job["status"] == "succeeded" and job["result"]["provider"] == "whatsapp_cloud"
    assert route.calls.last.request.headers["authorization"] == f"Bearer {TOKEN}"


async def test_whatsapp_expired_token_fails_the_job_and_asks_for_reconnection(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, upstream: respx.MockRouter
) -> None:
    owner = await accounts.create()
    account = await _account(runtime, owner.user_id, "whatsapp")
    expired = graph_error(190, "Error validating access token: Session has expired")
    upstream.post(MESSAGES).mock(return_value=httpx.Response(401, json=expired))
    job = await _run(client, runtime, owner.headers, whatsapp(account))
    assert job["status"] == "failed" and job["error"] == {
        "code": "account_disconnected",
        "detail": "HTTP 401 code=190 type=OAuthException message=" + expired["error"]["message"],
    }
    assert TOKEN not in job["error"]["detail"]
    again = await client.post(DISPATCH, json=whatsapp(account), headers=owner.headers)
    assert_error(again, 409, "connect_account_reconnect_required")
