"""GET /api/v2/credits."""

from __future__ import annotations

import httpx

from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok


async def test_credits_show_balance_reserved_available(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=250)
    item = assert_ok(await client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert item["balance"] == 250 and item["reserved"] == 0 and item["available"] == 250
    assert item["updated_at"].endswith("Z")


async def test_credits_are_per_account(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    rich = await accounts.create(credits=900)
    poor = await accounts.create(credits=0)
    assert assert_ok(await client.get("/api/v2/credits", headers=poor.headers))["item"]["balance"] == 0
    assert assert_ok(await client.get("/api/v2/credits", headers=rich.headers))["item"]["balance"] == 900
