"""GET /api/v{1,2}/connect/accounts: shape, can_send filter and isolation between users."""

from __future__ import annotations

import httpx
import pytest

from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok


@pytest.mark.parametrize("version", ["v1", "v2"])
async def test_lists_own_accounts_with_design_fields(
    client: httpx.AsyncClient, accounts: AccountFactory, version: str
) -> None:
    acct = await accounts.create()
    email = await accounts.connect(acct.user_id, "email")
    await accounts.connect(acct.user_id, "linkedin", status="reconnect_required")
    body = assert_ok(await client.get(f"/api/{version}/connect/accounts", headers=acct.headers))
    items = body["items"]
    assert [i["channel"] for i in items] == ["email", "linkedin"]
    first = items[0]
    assert first["account_id"] == email
    assert set(first) == {
        "account_id",
        "channel",
        "provider",
        "display_name",
        "identifier",
        "status",
        "can_send",
        "can_receive",
        "paused_reason",
        "resume_at",
        "created_at",
    }
    assert first["created_at"].endswith("Z")
    assert items[1]["status"] == "reconnect_required" and items[1]["can_send"] is False


async def test_can_send_true_keeps_only_sendable(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    ok = await accounts.connect(acct.user_id, "email")
    await accounts.connect(acct.user_id, "whatsapp", status="disconnected")
    await accounts.connect(acct.user_id, "linkedin", status="reconnect_required")
    body = assert_ok(await client.get("/api/v2/connect/accounts?can_send=true", headers=acct.headers))
    assert [i["account_id"] for i in body["items"]] == [ok]


async def test_users_never_see_each_others_accounts(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    alice = await accounts.create()
    bob = await accounts.create()
    await accounts.connect(alice.user_id, "email")
    body = assert_ok(await client.get("/api/v2/connect/accounts", headers=bob.headers))
    assert body["items"] == []
