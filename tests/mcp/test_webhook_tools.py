"""Webhooks over MCP: the same services, scopes and codes as REST, and what one face registers the
other reads."""

from __future__ import annotations

import httpx
import pytest

from leadwire.platform.runtime import Runtime
from tests.mcp.test_mcp_server import call, error_code
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok

URL = "https://hooks.leadwire-receiver.test/mcp"


async def test_a_webhook_registered_over_mcp_is_read_over_rest_and_back(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    created = (await call(client, acct.headers, "create_webhook", url=URL, events=["job.failed"]))[
        "structuredContent"
    ]
    assert created["secret"].startswith("whsec_") and created["events"] == ["job.failed"]
    rest = assert_ok(await client.get(f"/api/v2/webhooks/{created['id']}", headers=acct.headers))["item"]
    assert rest["url"] == URL and "secret" not in rest
    changed = (
        await call(client, acct.headers, "update_webhook", webhook_id=created["id"], status="disabled")
    )["structuredContent"]
    assert changed["status"] == "disabled"
    listed = (await call(client, acct.headers, "list_webhooks"))["structuredContent"]
    assert [w["id"] for w in listed["items"]] == [created["id"]] and listed["has_more"] is False
    rotated = (await call(client, acct.headers, "rotate_webhook_secret", webhook_id=created["id"]))[
        "structuredContent"
    ]
    assert rotated["secret"] != created["secret"]
    log = (await call(client, acct.headers, "list_webhook_deliveries", webhook_id=created["id"]))[
        "structuredContent"
    ]
    assert log["items"] == []
    gone = (await call(client, acct.headers, "delete_webhook", webhook_id=created["id"]))["structuredContent"]
    assert gone == {"id": created["id"], "deleted": True}


async def test_mcp_refusals_carry_the_rest_codes(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    reader = await accounts.key(acct.user_id, scopes=["webhooks:read"])
    assert error_code(
        await call(client, acct.headers, "create_webhook", url="https://10.0.0.1/x", events=["*"])
    ) == ("webhook_url_not_allowed")
    assert error_code(await call(client, acct.headers, "create_webhook", url="ftp://x", events=["*"])) == (
        "invalid_webhook_url"
    )
    assert error_code(await call(client, acct.headers, "create_webhook", url=URL, events=["nope"])) == (
        "invalid_webhook_events"
    )
    assert (
        error_code(await call(client, acct.headers, "get_webhook", webhook_id="wh_missing"))
        == "webhook_not_found"
    )
    assert error_code(await call(client, reader.headers, "create_webhook", url=URL, events=["*"])) == (
        "permission_denied"
    )
    hook = (await call(client, acct.headers, "create_webhook", url=URL, events=["*"]))["structuredContent"]
    missing = await call(
        client, acct.headers, "retry_webhook_delivery", webhook_id=hook["id"], delivery_id="whd_missing"
    )
    assert error_code(missing) == "webhook_delivery_not_found"


async def test_the_account_limit_is_the_same_over_mcp(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime.settings, "webhook_limit_per_account", 1)
    acct = await accounts.create()
    await call(client, acct.headers, "create_webhook", url=URL, events=["*"])
    assert error_code(await call(client, acct.headers, "create_webhook", url=URL, events=["*"])) == (
        "webhook_limit_exceeded"
    )
