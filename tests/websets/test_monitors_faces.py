"""Monitors on the SDK (sync and async), the CLI and MCP, against a served app: the same monitor as
REST, errors as LeadwireError, exit 1 or a tool error with the REST code."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from typer.testing import Result

from leadwire.app import create_app
from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from leadwire.platform.runtime import Runtime
from tests.mcp.test_mcp_server import call, error_code
from tests.support.accounts import AccountFactory
from tests.support.cli import run_cli
from tests.support.envelope import assert_ok
from tests.support.lifespan import served
from tests.websets.conftest import create_webset

QUERY = "chemical companies in Switzerland"


def _cli(base: str, key: str, *args: str) -> Result:
    return run_cli(base, key, "monitors", *args)


async def test_the_sdk_and_the_cli_create_read_list_change_and_delete(
    pool_runtime: Runtime, pool_client: httpx.AsyncClient
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=100)
    key = acct.headers["Authorization"].removeprefix("Bearer ")
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    async with served(create_app(runtime=pool_runtime)) as base:

        def sync_calls() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
            with Leadwire(key, base) as lw:
                made = lw.create_monitor(webset_id, "0 9 * * 1", timezone="Europe/Berlin")
                return made, lw.get_monitor(made["id"]), lw.list_monitors(webset_id=webset_id)

        made, read, page = await asyncio.to_thread(sync_calls)
        async with AsyncLeadwire(key, base) as alw:
            changed = await alw.update_monitor(made["id"], status="paused", count=100)
            runs = await alw.monitor_runs(made["id"])
            with pytest.raises(LeadwireError) as too_often:
                await alw.create_monitor(webset_id, "*/5 * * * *")
            deleted = await alw.delete_monitor(made["id"])
            with pytest.raises(LeadwireError) as missing:
                await alw.get_monitor(made["id"])
        created = await asyncio.to_thread(_cli, base, key, "create", webset_id, "--cron", "0 * * * *")
        monitor_id = created.stdout.split()[1] if created.exit_code == 0 else ""
        listed = await asyncio.to_thread(_cli, base, key, "list", "--json")
        paused = await asyncio.to_thread(_cli, base, key, "update", monitor_id, "--pause")
        shown_runs = await asyncio.to_thread(_cli, base, key, "runs", monitor_id)
        removed = await asyncio.to_thread(_cli, base, key, "delete", monitor_id)
        refused = await asyncio.to_thread(_cli, base, key, "create", webset_id, "--cron", "bad")
    assert made == read and made["cadence"] == {"cron": "0 9 * * 1", "timezone": "Europe/Berlin"}
    assert [m["id"] for m in page["items"]] == [made["id"]]
    assert changed["status"] == "paused" and changed["count"] == 100 and runs["items"] == []
    assert too_often.value.status == 400 and too_often.value.code == "invalid_monitor_cadence"
    assert deleted == {"id": made["id"], "deleted": True}
    assert missing.value.status == 404 and missing.value.code == "monitor_not_found"
    assert created.exit_code == 0 and monitor_id.startswith("mon_"), created.output
    assert listed.exit_code == 0 and [m["id"] for m in json.loads(listed.stdout)["items"]] == [monitor_id]
    assert paused.exit_code == 0 and " paused " in paused.stdout and "next -" in paused.stdout
    assert shown_runs.exit_code == 0 and "0 shown" in shown_runs.stdout
    assert removed.exit_code == 0 and removed.stdout.strip() == f"deleted {monitor_id}"
    assert refused.exit_code == 1 and "400 invalid_monitor_cadence" in refused.stderr


async def test_the_mcp_tools_create_read_list_change_and_delete(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=100)
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    hourly = {"cron": "0 * * * *", "timezone": "UTC"}
    made = (await call(pool_client, acct.headers, "create_monitor", webset_id=webset_id, cadence=hourly))[
        "structuredContent"
    ]
    read = (await call(pool_client, acct.headers, "get_monitor", monitor_id=made["id"]))["structuredContent"]
    listed = (await call(pool_client, acct.headers, "list_monitors", webset_id=webset_id))[
        "structuredContent"
    ]
    rest = assert_ok(await pool_client.get(f"/api/v2/monitors/{made['id']}", headers=acct.headers))["item"]
    changed = await call(pool_client, acct.headers, "update_monitor", monitor_id=made["id"], status="paused")
    runs = (await call(pool_client, acct.headers, "list_monitor_runs", monitor_id=made["id"]))[
        "structuredContent"
    ]
    bad_cadence = await call(
        pool_client, acct.headers, "create_monitor", webset_id=webset_id, cadence={"cron": "* * * * *"}
    )
    bad_count = await call(
        pool_client, acct.headers, "create_monitor", webset_id=webset_id, cadence=hourly, count=7
    )
    for _ in range(4):
        await call(pool_client, acct.headers, "create_monitor", webset_id=webset_id, cadence=hourly)
    over = await call(pool_client, acct.headers, "create_monitor", webset_id=webset_id, cadence=hourly)
    deleted = await call(pool_client, acct.headers, "delete_monitor", monitor_id=made["id"])
    missing = await call(pool_client, acct.headers, "get_monitor", monitor_id=made["id"])
    assert made == read == rest and [m["id"] for m in listed["items"]][-1] == made["id"]
    assert changed["structuredContent"]["status"] == "paused" and runs["items"] == []
    assert error_code(bad_cadence) == "invalid_monitor_cadence" and error_code(bad_count) == "invalid_monitor"
    assert error_code(over) == "monitor_limit_exceeded"
    assert deleted["structuredContent"] == {"id": made["id"], "deleted": True}
    assert error_code(missing) == "monitor_not_found"
