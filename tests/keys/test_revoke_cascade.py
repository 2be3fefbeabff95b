"""Keys created by a key are revoked with it (SQLite and PostgreSQL), transitively: the answer's
`revoked_with` counts them; keys made elsewhere (the operator's, another branch) stay."""

from __future__ import annotations

import httpx

from leadwire.platform.users import all_scopes
from tests.keys.conftest import KEYS, bearer, create
from tests.mcp.test_mcp_server import call
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok


async def _statuses(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, str]:
    listed = assert_ok(await client.get(KEYS, params={"limit": 100}, headers=headers))["items"]
    return {k["id"]: k["status"] for k in listed}


async def test_revoking_a_key_revokes_the_keys_it_created_and_theirs(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    parent = await create(client, owner, list(all_scopes()))
    child = await create(client, _as(parent), ["keys:write", "credits:read"])
    grandchild = await create(client, _as(child), ["credits:read"])
    sibling = await create(client, owner, ["credits:read"])  # the owner's, not the parent's
    revoked = assert_ok(await client.post(f"{KEYS}/{parent['id']}/revoke", headers=owner.headers))["item"]
    assert revoked["status"] == "revoked" and revoked["revoked_with"] == 2
    for made in (parent, child, grandchild):
        assert_error(await client.get("/api/v2/credits", headers=bearer(made["key"])), 401, "api_key_revoked")
    assert_ok(await client.get("/api/v2/credits", headers=bearer(sibling["key"])))
    statuses = await _statuses(client, owner.headers)
    assert [statuses[k["id"]] for k in (parent, child, grandchild, sibling)] == [
        "revoked",
        "revoked",
        "revoked",
        "active",
    ]
    again = assert_ok(await client.post(f"{KEYS}/{parent['id']}/revoke", headers=owner.headers))["item"]
    assert again["status"] == "revoked" and again["revoked_with"] == 0  # nothing more went with it


async def test_revoking_a_middle_key_leaves_its_maker_and_the_mcp_answer_counts_too(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    parent = await create(client, owner, ["keys:write", "keys:read", "credits:read"])
    child = await create(client, _as(parent), ["keys:write", "credits:read"])
    await create(client, _as(child), ["credits:read"])
    answer = await call(client, owner.headers, "revoke_api_key", key_id=child["id"])
    assert answer["structuredContent"]["revoked_with"] == 1, answer
    assert_ok(await client.get("/api/v2/credits", headers=bearer(parent["key"])))


def _as(made: dict[str, str]) -> TestAccount:
    """A key created through the API, as the `owner` that creates the next one."""
    return TestAccount(user_id="", key_id=made["id"], key=made["key"])
