"""/api/v2/keys (SQLite and PostgreSQL): an account creates keys within its key's scopes, sees each key
once, lists them without secrets, and revokes them with effect at once; every refusal with its code;
one account never reaches another's keys."""

from __future__ import annotations

from datetime import timedelta

import httpx

from leadwire.keys.service import LIVE_KEY_LIMIT
from leadwire.platform.users import all_scopes, digest_key
from tests.keys.conftest import KEYS, bearer, create
from tests.mcp.test_mcp_server import call, error_code
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok


async def test_a_created_key_is_shown_once_and_works_only_within_its_scopes(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    created = await create(client, owner, ["credits:read"], name="CRM sync")
    raw = created["key"]
    assert raw.startswith("lw_live_") and created["prefix"] == raw[:16] and created["id"].startswith("key_")
    assert created["name"] == "CRM sync" and created["scopes"] == ["credits:read"]
    assert (created["status"], created["current"], created["mode"]) == ("active", False, "live")
    assert created["expires_at"] is None and created["revoked_at"] is None
    assert_ok(await client.get("/api/v2/credits", headers=bearer(raw)))
    assert_error(await client.get("/api/v2/webhooks", headers=bearer(raw)), 403, "permission_denied")
    assert_error(await client.get(KEYS, headers=bearer(raw)), 403, "permission_denied")
    listed = await client.get(KEYS, headers=owner.headers)
    items = assert_ok(listed)["items"]
    assert [k["id"] for k in items] == [created["id"], owner.key_id]  # newest first
    assert [k["current"] for k in items] == [False, True] and items[0]["name"] == "CRM sync"
    assert all("key" not in k and "digest" not in k for k in items)
    for secret in (raw, raw.removeprefix("lw_live_"), digest_key(raw), owner.key, digest_key(owner.key)):
        assert secret not in listed.text


async def test_the_list_pages_by_cursor(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    owner = await accounts.create()
    made = [(await create(client, owner, ["credits:read"]))["id"] for _ in range(2)]
    first = assert_ok(await client.get(KEYS, params={"limit": 2}, headers=owner.headers))
    rest = assert_ok(
        await client.get(KEYS, params={"limit": 2, "cursor": first["next_cursor"]}, headers=owner.headers)
    )
    assert [k["id"] for k in first["items"]] == made[::-1] and first["has_more"] is True
    assert [k["id"] for k in rest["items"]] == [owner.key_id] and rest["has_more"] is False
    assert_error(
        await client.get(KEYS, params={"limit": 0}, headers=owner.headers),
        400,
        "invalid_request",
        param="limit",
    )
    assert_error(
        await client.get(KEYS, params={"cursor": "x.y"}, headers=owner.headers),
        400,
        "invalid_request",
        param="cursor",
    )


async def test_a_replayed_creation_is_the_same_key_without_the_key(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    headers = {**owner.headers, "Idempotency-Key": "new-key-1"}
    body = {"scopes": ["credits:read"], "name": "ci"}
    first = assert_ok(await client.post(KEYS, json=body, headers=headers), 201)["item"]
    replay = await client.post(KEYS, json=body, headers=headers)
    assert replay.status_code == 201 and replay.headers["idempotent-replayed"] == "true"
    again = replay.json()["item"]
    assert again["id"] == first["id"] and "key" not in again and first["key"] not in replay.text
    assert len(assert_ok(await client.get(KEYS, headers=owner.headers))["items"]) == 2
    assert_ok(await client.get("/api/v2/credits", headers=bearer(first["key"])))


async def test_a_key_gives_no_scope_it_lacks_and_no_scope_that_does_not_exist(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    narrow = await accounts.key(owner.user_id, scopes=["keys:write", "keys:read", "credits:read"])
    refused = await client.post(
        KEYS, json={"scopes": ["credits:read", "webhooks:write"]}, headers=narrow.headers
    )
    lacking = assert_error(refused, 403, "permission_denied", param="scopes")["error"]["detail"]
    assert "webhooks:write" in lacking
    unknown = await client.post(KEYS, json={"scopes": ["credits:read", "crm:read"]}, headers=narrow.headers)
    assert "crm:read" in assert_error(unknown, 400, "invalid_request", param="scopes")["error"]["detail"]
    for body in ({}, {"scopes": []}, {"scopes": "credits:read"}, {"scopes": ["credits:read"], "name": ""}):
        assert_error(await client.post(KEYS, json=body, headers=narrow.headers), 400, "invalid_request")
    within = await create(client, narrow, ["credits:read", "credits:read"])
    assert within["scopes"] == ["credits:read"]
    assert len(assert_ok(await client.get(KEYS, headers=owner.headers))["items"]) == 3


async def test_a_key_made_by_an_expiring_test_key_takes_its_mode_and_expiry(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    expiring = await accounts.key(owner.user_id, expires_in=timedelta(hours=1))
    mine = next(
        k for k in assert_ok(await client.get(KEYS, headers=expiring.headers))["items"] if k["current"]
    )
    created = await create(client, expiring, ["credits:read"])
    assert created["expires_at"] == mine["expires_at"] is not None
    assert created["mode"] == mine["mode"] == "live"


async def test_another_accounts_key_is_not_found(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    owner, stranger = await accounts.create(), await accounts.create()
    for key_id in (owner.key_id, "key_01jz0000000000000000000000"):
        refused = await client.post(f"{KEYS}/{key_id}/revoke", headers=stranger.headers)
        assert_error(refused, 404, "api_key_not_found", param="key_id")
    assert [k["id"] for k in assert_ok(await client.get(KEYS, headers=stranger.headers))["items"]] == [
        stranger.key_id
    ]
    assert_ok(await client.get("/api/v2/credits", headers=owner.headers))


async def test_a_revoked_key_is_refused_at_once_and_revoking_again_changes_nothing(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    created = await create(client, owner, ["credits:read"])
    assert_ok(await client.get("/api/v2/credits", headers=bearer(created["key"])))  # cached from here
    revoked = assert_ok(await client.post(f"{KEYS}/{created['id']}/revoke", headers=owner.headers))["item"]
    assert revoked["status"] == "revoked" and revoked["revoked_at"] is not None
    assert_error(await client.get("/api/v2/credits", headers=bearer(created["key"])), 401, "api_key_revoked")
    again = assert_ok(await client.post(f"{KEYS}/{created['id']}/revoke", headers=owner.headers))["item"]
    assert again == revoked
    assert_ok(await client.get("/api/v2/credits", headers=owner.headers))


async def test_a_key_may_revoke_itself_and_is_refused_from_its_next_request(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    created = await create(client, owner, ["keys:write", "credits:read"])
    own = await client.post(f"{KEYS}/{created['id']}/revoke", headers=bearer(created["key"]))
    item = assert_ok(own)["item"]
    assert item["current"] is True and item["status"] == "revoked"
    assert_error(await client.get("/api/v2/credits", headers=bearer(created["key"])), 401, "api_key_revoked")
    assert_error(
        await client.post(KEYS, json={"scopes": ["credits:read"]}, headers=bearer(created["key"])),
        401,
        "api_key_revoked",
    )
    listed = assert_ok(await client.get(KEYS, headers=owner.headers))["items"]
    assert {k["id"]: k["status"] for k in listed} == {created["id"]: "revoked", owner.key_id: "active"}


async def test_a_narrow_key_cannot_revoke_a_broader_one(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    narrow = await create(client, owner, ["keys:write", "credits:read"])
    refused = await client.post(f"{KEYS}/{owner.key_id}/revoke", headers=bearer(narrow["key"]))
    assert_error(refused, 403, "permission_denied", param="key_id")
    assert_ok(await client.get(KEYS, headers=owner.headers))
    peer = await create(client, owner, ["credits:read"])
    taken = await client.post(f"{KEYS}/{peer['id']}/revoke", headers=bearer(narrow["key"]))
    assert assert_ok(taken)["item"]["status"] == "revoked"


async def test_the_live_keys_of_an_account_are_bounded(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    await accounts.key(owner.user_id, scopes=["credits:read"], expires_in=timedelta(seconds=-1))  # not live
    for _ in range(LIVE_KEY_LIMIT - 2):
        await accounts.key(owner.user_id, scopes=["credits:read"])
    last = await create(client, owner, ["credits:read"])  # the 50th live key
    refused = await client.post(KEYS, json={"scopes": ["credits:read"]}, headers=owner.headers)
    assert_error(refused, 409, "api_key_limit_exceeded")
    tool = await call(client, owner.headers, "create_api_key", scopes=["credits:read"])
    assert error_code(tool) == "api_key_limit_exceeded"
    assert_ok(await client.post(f"{KEYS}/{last['id']}/revoke", headers=owner.headers))
    await create(client, owner, ["credits:read"])


async def test_each_route_refuses_a_key_without_its_scope(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    no_read = await accounts.key(owner.user_id, scopes=[s for s in all_scopes() if s != "keys:read"])
    no_write = await accounts.key(owner.user_id, scopes=[s for s in all_scopes() if s != "keys:write"])
    assert_error(await client.get(KEYS, headers=no_read.headers), 403, "permission_denied")
    assert_ok(await client.get(KEYS, headers=no_write.headers))
    body = {"scopes": ["credits:read"]}
    assert_error(await client.post(KEYS, json=body, headers=no_write.headers), 403, "permission_denied")
    revoke = f"{KEYS}/{no_read.key_id}/revoke"
    assert_error(await client.post(revoke, headers=no_write.headers), 403, "permission_denied")
    assert_ok(await client.get("/api/v2/credits", headers=no_read.headers))
