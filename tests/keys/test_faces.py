"""The account's keys on MCP, the SDK (sync and async) and the CLI (SQLite and PostgreSQL): the same
services and codes as REST; a created key is shown once, then works; a revoked one is refused."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from leadwire.app import create_app
from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from leadwire.platform.runtime import Runtime
from tests.keys.conftest import bearer
from tests.mcp.test_mcp_server import call, error_code
from tests.support.accounts import AccountFactory
from tests.support.cli import run_cli
from tests.support.envelope import assert_error, assert_ok
from tests.support.lifespan import served
from tests.support.log_secrets import register_key


async def test_the_tools_list_create_and_revoke_keys(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(), await accounts.create()
    made = (await call(client, owner.headers, "create_api_key", scopes=["credits:read"], name="agent"))[
        "structuredContent"
    ]
    register_key(made["key"], "API key created through MCP")
    assert made["name"] == "agent" and made["scopes"] == ["credits:read"]
    assert_ok(await client.get("/api/v2/credits", headers=bearer(made["key"])))
    listed = (await call(client, owner.headers, "list_api_keys", limit=10))["structuredContent"]
    assert [k["id"] for k in listed["items"]] == [made["id"], owner.key_id]
    assert made["key"] not in json.dumps(listed)
    revoked = (await call(client, owner.headers, "revoke_api_key", key_id=made["id"]))["structuredContent"]
    assert revoked["status"] == "revoked"
    assert_error(await client.get("/api/v2/credits", headers=bearer(made["key"])), 401, "api_key_revoked")
    refusals = {
        "missing": await call(client, owner.headers, "create_api_key"),
        "unknown": await call(client, owner.headers, "create_api_key", scopes=["crm:read"]),
        "stranger": await call(client, stranger.headers, "revoke_api_key", key_id=owner.key_id),
        "limit": await call(client, owner.headers, "list_api_keys", limit=0),
    }
    narrow = await accounts.key(owner.user_id, scopes=["keys:write"])
    beyond = await call(client, narrow.headers, "create_api_key", scopes=["credits:read"])
    assert error_code(refusals["missing"]) == "invalid_request"
    assert error_code(refusals["unknown"]) == "invalid_request"
    assert error_code(refusals["stranger"]) == "api_key_not_found"
    assert error_code(refusals["limit"]) == "invalid_request"
    assert error_code(beyond) == "permission_denied"


async def test_the_sdk_and_the_cli_list_create_and_revoke_keys(
    runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    async with served(create_app(runtime=runtime)) as base:

        def sync_faces() -> dict[str, Any]:
            with Leadwire(owner.key, base) as lw:
                made = lw.create_api_key(["credits:read"], name="sync", idempotency_key="sdk-key-1")
                register_key(made["key"], "API key created by the sync SDK")
                replay = lw.create_api_key(["credits:read"], name="sync", idempotency_key="sdk-key-1")
                page = lw.list_api_keys(limit=1)
                with Leadwire(made["key"], base) as new:
                    balance = new.credits()["balance"]
                revoked = lw.revoke_api_key(made["id"])
                with Leadwire(made["key"], base) as new:
                    try:
                        new.credits()
                        refusal = ""
                    except LeadwireError as error:
                        refusal = error.code
                return {
                    "made": made, "replay": replay, "page": page, "balance": balance, "revoked": revoked,
                    "refusal": refusal,
                }  # fmt: skip

        synced = await asyncio.to_thread(sync_faces)
        async with AsyncLeadwire(owner.key, base) as alw:
            async_made = await alw.create_api_key(["credits:read"])
            register_key(async_made["key"], "API key created by the async SDK")
            async_page = await alw.list_api_keys()
            async_revoked = await alw.revoke_api_key(async_made["id"])
        cli_made = await asyncio.to_thread(
            run_cli, base, owner.key, "keys", "create", "--scope", "credits:read,keys:read", "--name", "cli"
        )
        cli_list = await asyncio.to_thread(run_cli, base, owner.key, "keys", "list", "--json")
        table = await asyncio.to_thread(run_cli, base, owner.key, "keys", "list")
        cli_key_id = next(k["id"] for k in json.loads(cli_list.output)["items"] if k["name"] == "cli")
        cli_revoked = await asyncio.to_thread(
            run_cli, base, owner.key, "keys", "revoke", cli_key_id, "--json"
        )
        cli_missing = await asyncio.to_thread(run_cli, base, owner.key, "keys", "revoke", cli_key_id + "x")
    made = synced["made"]
    assert made["key"].startswith("lw_live_") and made["scopes"] == ["credits:read"]
    assert synced["replay"]["id"] == made["id"] and "key" not in synced["replay"]
    assert [k["id"] for k in synced["page"]["items"]] == [made["id"]] and synced["page"]["has_more"] is True
    assert synced["balance"] == 1000 and synced["revoked"]["status"] == "revoked"
    assert synced["revoked"]["revoked_with"] == 0 and async_revoked["revoked_with"] == 0
    assert synced["refusal"] == "api_key_revoked"
    assert async_page["items"][0]["id"] == async_made["id"] and async_revoked["status"] == "revoked"
    assert cli_made.exit_code == 0 and "shown once" in cli_made.output and "lw_live_" in cli_made.output
    for line in cli_made.output.splitlines():
        if line.strip().startswith("key "):
            register_key(line.split()[1], "API key created by the CLI")
    assert "credits:read, keys:read" in cli_made.output
    assert table.exit_code == 0 and "API keys" in table.output and "active *" in table.output
    assert cli_revoked.exit_code == 0 and json.loads(cli_revoked.output)["status"] == "revoked"
    assert json.loads(cli_revoked.output)["revoked_with"] == 0
    assert cli_missing.exit_code == 1 and "404 api_key_not_found" in cli_missing.output
