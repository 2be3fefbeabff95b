"""Enrichments on the SDK (sync and async), the CLI and MCP, against a served app, and in the export: the
same enrichment as REST, errors as LeadwireError, exit 1 or a tool error, a column per enrichment."""

from __future__ import annotations

import asyncio
import csv
import io
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
from tests.support.jobs import poll_job, running_worker
from tests.support.lifespan import served
from tests.websets.conftest import create_webset, wait_finished

QUERY = "chemical companies in Switzerland"
OPTIONS = [{"label": "Chemicals"}, {"label": "Banking"}]


def _cli(base: str, key: str, *args: str) -> Result:
    return run_cli(base, key, "enrichments", *args)


async def test_the_sdk_and_the_cli_add_read_list_cancel_and_delete(
    pool_runtime: Runtime, pool_client: httpx.AsyncClient
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=100)
    key = acct.headers["Authorization"].removeprefix("Bearer ")
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    async with served(create_app(runtime=pool_runtime)) as base:

        def sync_calls() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
            with Leadwire(key, base) as lw:
                made = lw.create_enrichment(webset_id, "Which sector?", "options", options=OPTIONS)
                return made, lw.get_enrichment(webset_id, made["id"]), lw.list_enrichments(webset_id)

        made, read, page = await asyncio.to_thread(sync_calls)
        async with AsyncLeadwire(key, base) as alw:
            number = await alw.create_enrichment(webset_id, "Number of employees", "number")
            cancelled = await alw.cancel_enrichment(webset_id, number["id"])
            deleted = await alw.delete_enrichment(webset_id, number["id"])
            with pytest.raises(LeadwireError) as missing:
                await alw.get_enrichment(webset_id, number["id"])
            with pytest.raises(LeadwireError) as invalid:
                await alw.create_enrichment(webset_id, "Sector", "options")
        added = await asyncio.to_thread(
            _cli, base, key, "add", webset_id, "--description", "Phone", "--format", "phone"
        )
        listed = await asyncio.to_thread(_cli, base, key, "list", webset_id, "--json")
        shown = await asyncio.to_thread(_cli, base, key, "get", webset_id, made["id"])
        stopped = await asyncio.to_thread(_cli, base, key, "cancel", webset_id, made["id"])
        removed = await asyncio.to_thread(_cli, base, key, "delete", webset_id, made["id"])
        refused = await asyncio.to_thread(
            _cli,
            base,
            key,
            "add",
            webset_id,
            "--description",
            "Sector",
            "--format",
            "options",
            "--option",
            "a",
        )
    assert made == read and made["format"] == "options" and made["options"] == OPTIONS
    assert [e["id"] for e in page["items"]] == [made["id"]]
    assert cancelled["status"] == "cancelled" and deleted == {"id": number["id"], "deleted": True}
    assert missing.value.status == 404 and missing.value.code == "enrichment_not_found"
    assert invalid.value.status == 400 and invalid.value.code == "invalid_enrichment"
    assert added.exit_code == 0 and " pending  phone  0/0  Phone" in added.stdout, added.output
    ids = [e["id"] for e in json.loads(listed.stdout)["items"]]
    assert listed.exit_code == 0 and ids[0] == made["id"] and len(ids) == 2
    assert (
        shown.exit_code == 0
        and f"enrichment {made['id']}" in shown.stdout
        and "Chemicals, Banking" in shown.stdout
    )
    assert stopped.exit_code == 0 and "cancelled" in stopped.stdout
    assert removed.exit_code == 0 and removed.stdout.strip() == f"deleted {made['id']}"
    assert refused.exit_code == 1 and "400 invalid_enrichment" in refused.stderr


async def test_the_mcp_tools_add_read_list_cancel_and_delete(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=100)
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    made = await call(
        pool_client,
        acct.headers,
        "create_enrichment",
        webset_id=webset_id,
        description="Sector",
        format="options",
        options=OPTIONS,
    )
    made = made["structuredContent"]
    read = (
        await call(pool_client, acct.headers, "get_enrichment", webset_id=webset_id, enrichment_id=made["id"])
    )["structuredContent"]
    listed = (await call(pool_client, acct.headers, "list_enrichments", webset_id=webset_id))[
        "structuredContent"
    ]
    rest = assert_ok(
        await pool_client.get(f"/api/v2/websets/{webset_id}/enrichments/{made['id']}", headers=acct.headers)
    )["item"]
    cancelled = await call(
        pool_client, acct.headers, "cancel_enrichment", webset_id=webset_id, enrichment_id=made["id"]
    )
    deleted = await call(
        pool_client, acct.headers, "delete_enrichment", webset_id=webset_id, enrichment_id=made["id"]
    )
    missing = await call(
        pool_client, acct.headers, "get_enrichment", webset_id=webset_id, enrichment_id=made["id"]
    )
    invalid = await call(
        pool_client, acct.headers, "create_enrichment", webset_id=webset_id, description=" ", format="text"
    )
    assert made == read == rest and [e["id"] for e in listed["items"]] == [made["id"]]
    assert cancelled["structuredContent"]["status"] == "cancelled"
    assert deleted["structuredContent"] == {"id": made["id"], "deleted": True}
    assert error_code(missing) == "enrichment_not_found" and error_code(invalid) == "invalid_enrichment"
    for n in range(10):
        column = {"description": f"Column {n}", "format": "text"}
        assert (await call(pool_client, acct.headers, "create_enrichment", webset_id=webset_id, **column))[
            "isError"
        ] is False
    over = await call(
        pool_client, acct.headers, "create_enrichment", webset_id=webset_id, description="x", format="text"
    )
    assert error_code(over) == "enrichment_limit_exceeded"


async def test_the_export_has_a_column_per_enrichment_and_the_stream_carries_each_cell(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=100)
    async with running_worker(pool_runtime):
        webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
        await wait_finished(pool_client, acct.headers, webset_id)
        page = assert_ok(await pool_client.get(f"/api/v2/websets/{webset_id}/items", headers=acct.headers))
        body = {"description": "Which sector?", "format": "options", "options": OPTIONS}
        made = assert_ok(
            await pool_client.post(
                f"/api/v2/websets/{webset_id}/enrichments", json=body, headers=acct.headers
            ),
            202,
        )["item"]
        await poll_job(pool_client, acct.headers, made["job_id"], until=("succeeded",), timeout=60)
        params = {"stream_cursor": page["stream_cursor"], "items_revision": page["items_revision"]}
        async with pool_client.stream(
            "GET", f"/api/v2/websets/{webset_id}/items/stream", params=params, headers=acct.headers
        ) as stream:
            text = "".join([chunk async for chunk in stream.aiter_text()])
        exported = await pool_client.get(f"/api/v2/websets/{webset_id}/export", headers=acct.headers)
        lines = await pool_client.get(
            f"/api/v2/websets/{webset_id}/export?format=jsonl", headers=acct.headers
        )
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    column = "enrichment: Which sector?"
    assert len(rows) == 25 and all(row[column] in ("Chemicals", "") for row in rows)
    assert sum(row[column] == "Chemicals" for row in rows) >= 20
    items = [json.loads(line) for line in lines.text.splitlines()]
    assert all(i["enrichments"][0]["enrichment_id"] == made["id"] for i in items)
    assert {i["id"]: i["enrichments"][0]["result"] for i in items} == {
        r["id"]: ([r[column]] if r[column] else None) for r in rows
    }
    # The stream from the snapshot before the enrichment replays a cell per item, then its `complete`.
    assert text.count("event: webset.item.enriched") == 25 and text.rstrip().split("event: ")[-1].startswith(
        "complete"
    )
