"""`GET /api/v2/jobs` (SQLite and PostgreSQL): the account's jobs newest first, one status, pages by cursor,
only the capabilities the key may read, never another account's; the same list on MCP, the SDK and the
CLI."""

from __future__ import annotations

import asyncio
import json

import httpx

from leadwire.app import create_app
from leadwire.client import AsyncLeadwire, Leadwire
from leadwire.platform.runtime import Runtime
from tests.mcp.test_mcp_server import call, error_code
from tests.outreach.test_dispatch_validation import email
from tests.support.accounts import AccountFactory
from tests.support.cli import run_cli
from tests.support.envelope import assert_error, assert_ok
from tests.support.lifespan import served

JOBS = "/api/v2/jobs"
DISPATCH = "/api/v2/outreach/dispatches"


async def test_the_accounts_jobs_newest_first_by_status_and_page(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(), await accounts.create()
    mailbox = await accounts.connect(owner.user_id, "email")
    other_box = await accounts.connect(stranger.user_id, "email")
    made = [
        assert_ok(await client.post(DISPATCH, json=email(mailbox), headers=owner.headers), 202)["item"]
        for _ in range(3)
    ]
    await client.post(DISPATCH, json=email(other_box), headers=stranger.headers)
    assert_ok(await client.post(f"{JOBS}/{made[0]['id']}/cancel", headers=owner.headers))
    listed = assert_ok(await client.get(JOBS, headers=owner.headers))
    assert [j["id"] for j in listed["items"]] == [j["id"] for j in reversed(made)] and listed[
        "has_more"
    ] is False
    cancelled = assert_ok(await client.get(JOBS, params={"status": "cancelled"}, headers=owner.headers))
    assert [j["id"] for j in cancelled["items"]] == [made[0]["id"]]
    first = assert_ok(await client.get(JOBS, params={"limit": 2}, headers=owner.headers))
    rest = assert_ok(
        await client.get(JOBS, params={"limit": 2, "cursor": first["next_cursor"]}, headers=owner.headers)
    )
    assert [j["id"] for j in first["items"] + rest["items"]] == [j["id"] for j in reversed(made)]
    assert_error(
        await client.get(JOBS, params={"status": "lost"}, headers=owner.headers),
        400,
        "invalid_request",
        param="status",
    )
    assert_error(
        await client.get(JOBS, params={"limit": 0}, headers=owner.headers),
        400,
        "invalid_request",
        param="limit",
    )
    # A key that may not read outreach sees none of its jobs.
    narrow = await accounts.key(owner.user_id, scopes=["research:read"])
    assert assert_ok(await client.get(JOBS, headers=narrow.headers))["items"] == []


async def test_the_list_on_mcp_the_sdk_and_the_cli(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    key = owner.headers["Authorization"].removeprefix("Bearer ")
    mailbox = await accounts.connect(owner.user_id, "email")
    made = assert_ok(await client.post(DISPATCH, json=email(mailbox), headers=owner.headers), 202)["item"]
    async with served(create_app(runtime=runtime)) as base:

        def sync_list() -> dict:
            with Leadwire(key, base) as lw:
                return lw.list_jobs(status="scheduled")

        synced = await asyncio.to_thread(sync_list)
        async with AsyncLeadwire(key, base) as alw:
            async_page = await alw.list_jobs(limit=1)
        cli = await asyncio.to_thread(run_cli, base, key, "jobs", "list", "--json")
        table = await asyncio.to_thread(run_cli, base, key, "jobs", "list")
    tool = await call(client, owner.headers, "list_jobs", status="scheduled")
    bad = await call(client, owner.headers, "list_jobs", status="lost")
    assert [j["id"] for j in synced["items"]] == [made["id"]] == [j["id"] for j in async_page["items"]]
    assert cli.exit_code == 0 and [j["id"] for j in json.loads(cli.output)["items"]] == [made["id"]]
    assert table.exit_code == 0 and "1 shown" in table.output and "scheduled" in table.output
    assert [j["id"] for j in tool["structuredContent"]["items"]] == [made["id"]]
    assert error_code(bad) == "invalid_request"
