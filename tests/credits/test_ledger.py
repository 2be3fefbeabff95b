"""`GET /api/v2/credits/ledger` (SQLite and PostgreSQL): the account's grants, reservations, releases and
charges newest first, by kind or job, a page at a time without duplicates or gaps, never another
account's; the same ledger on MCP, the SDK (sync and async) and the CLI."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from leadwire.app import create_app
from leadwire.client import AsyncLeadwire, Leadwire
from leadwire.platform.billing import ledger
from leadwire.platform.db import transaction
from leadwire.platform.runtime import Runtime
from tests.mcp.test_mcp_server import call, error_code
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.cli import run_cli
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import create_echo, poll_job, running_worker
from tests.support.lifespan import served

LEDGER = "/api/v2/credits/ledger"


async def billed_job(client: httpx.AsyncClient, runtime: Runtime, account: TestAccount) -> str:
    """An echo job that reserves 6 credits (4 units at 1.5), bills 2 units (3 credits) and settles."""
    created = await create_echo(client, account.headers, {"units": 2, "max_units": 4})
    job_id: str = assert_ok(created, 202)["item"]["id"]
    async with running_worker(runtime):
        await poll_job(client, account.headers, job_id, until=("succeeded",))
    return job_id


async def ledger_page(client: httpx.AsyncClient, account: TestAccount, **params: Any) -> dict[str, Any]:
    return assert_ok(await client.get(LEDGER, params=params, headers=account.headers))


def entries(page: dict[str, Any]) -> list[tuple[str, int, str | None]]:
    return [(e["kind"], e["amount"], e["job_id"]) for e in page["items"]]


async def test_a_grant_and_a_billed_job_are_on_the_ledger_newest_first_and_only_there(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(credits=100), await accounts.create(credits=77)
    job_id = await billed_job(client, runtime, owner)
    page = await ledger_page(client, owner)
    # The job's release and charge are written together, at one time: either may come first.
    assert sorted(entries(page)[:2]) == [("charge", 3, job_id), ("release", 6, job_id)]
    assert entries(page)[2:] == [("reserve", 6, job_id), ("grant", 100, None)]
    assert page["has_more"] is False and page["next_cursor"] is None
    times = [e["created_at"] for e in page["items"]]
    assert times == sorted(times, reverse=True) and all(t.endswith("Z") for t in times)
    assert all(e["id"].startswith("led_") for e in page["items"])
    # The ledger adds up to the balance: grants - charges, reserves - releases.
    balance = assert_ok(await client.get("/api/v2/credits", headers=owner.headers))["item"]
    assert balance["balance"] == 100 - 3 and balance["reserved"] == 6 - 6
    assert entries(await ledger_page(client, owner, kind="charge")) == [("charge", 3, job_id)]
    assert entries(await ledger_page(client, owner, kind="grant")) == [("grant", 100, None)]
    assert len((await ledger_page(client, owner, job_id=job_id))["items"]) == 3
    # Another account sees its own grant, and nothing of the owner's, even by the job's id.
    assert entries(await ledger_page(client, stranger)) == [("grant", 77, None)]
    assert (await ledger_page(client, stranger, job_id=job_id))["items"] == []


async def test_pages_follow_one_another_without_duplicates_or_gaps(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create(credits=50)
    async with transaction(runtime.sessionmaker) as session:
        for amount in (1, 2, 3):
            await ledger.grant(session, owner.user_id, amount)
        # Five entries written by one statement, at one time: the id orders them.
        await ledger.reserve_all(session, owner.user_id, [(f"job_page{n}", 2) for n in range(5)])
    whole = await ledger_page(client, owner, limit=100)
    assert len(whole["items"]) == 9 and whole["has_more"] is False
    seen: list[str] = []
    cursor = None
    for _ in range(10):
        page = await ledger_page(client, owner, limit=2, **({"cursor": cursor} if cursor else {}))
        seen += [e["id"] for e in page["items"]]
        cursor = page["next_cursor"]
        assert page["has_more"] is (cursor is not None)
        if cursor is None:
            break
    assert seen == [e["id"] for e in whole["items"]]
    # A cursor belongs to its filters: with another kind it is refused, not a wrong page.
    first = await ledger_page(client, owner, limit=2)
    refused = await client.get(
        LEDGER, params={"cursor": first["next_cursor"], "kind": "grant"}, headers=owner.headers
    )
    assert_error(refused, 400, "invalid_request", param="cursor")


async def test_a_bad_kind_cursor_or_limit_is_invalid_request_and_a_key_without_credits_read_403(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    for params, param in (
        ({"kind": "refund"}, "kind"),
        ({"cursor": "not-a-cursor"}, "cursor"),
        ({"limit": "0"}, "limit"),
        ({"limit": "101"}, "limit"),
    ):
        response = await client.get(LEDGER, params=params, headers=owner.headers)
        assert_error(response, 400, "invalid_request", param=param)
    narrow = await accounts.key(owner.user_id, scopes=["research:read", "outreach:read"])
    assert_error(await client.get(LEDGER, headers=narrow.headers), 403, "permission_denied")
    assert_error(await client.get(LEDGER), 401, "api_key_missing")


async def test_the_ledger_on_mcp_the_sdk_and_the_cli(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create(credits=40)
    key = owner.headers["Authorization"].removeprefix("Bearer ")
    async with transaction(runtime.sessionmaker) as session:
        await ledger.grant(session, owner.user_id, 5)
    async with served(create_app(runtime=runtime)) as base:

        def sync_list() -> dict[str, Any]:
            with Leadwire(key, base) as lw:
                page: dict[str, Any] = lw.list_credit_entries(kind="grant")
                return page

        synced = await asyncio.to_thread(sync_list)
        async with AsyncLeadwire(key, base) as alw:
            first = await alw.list_credit_entries(limit=1)
            second = await alw.list_credit_entries(limit=1, cursor=first["next_cursor"])
        cli = await asyncio.to_thread(run_cli, base, key, "credits", "ledger", "--json")
        table = await asyncio.to_thread(run_cli, base, key, "credits", "ledger", "--limit", "1")
        refused = await asyncio.to_thread(run_cli, base, key, "credits", "ledger", "--kind", "refund")
    assert [e["amount"] for e in synced["items"]] == [5, 40] and synced["has_more"] is False
    assert [e["amount"] for e in first["items"] + second["items"]] == [5, 40] and first["has_more"]
    assert cli.exit_code == 0 and [e["amount"] for e in json.loads(cli.output)["items"]] == [5, 40]
    assert table.exit_code == 0 and "grant" in table.output and "1 shown; more with --cursor" in table.output
    assert refused.exit_code == 1 and "invalid_request" in refused.output
    tool = await call(client, owner.headers, "list_credit_entries", kind="grant", limit=1)
    page = tool["structuredContent"]
    assert [e["amount"] for e in page["items"]] == [5] and page["has_more"] is True
    rest = await call(client, owner.headers, "list_credit_entries", kind="grant", cursor=page["next_cursor"])
    assert [e["amount"] for e in rest["structuredContent"]["items"]] == [40]
    assert error_code(await call(client, owner.headers, "list_credit_entries", kind="refund")) == (
        "invalid_request"
    )
    assert error_code(await call(client, owner.headers, "list_credit_entries", cursor="x.y")) == (
        "invalid_request"
    )
    narrow = await accounts.key(owner.user_id, scopes=["research:read"])
    assert error_code(await call(client, narrow.headers, "list_credit_entries")) == "permission_denied"
