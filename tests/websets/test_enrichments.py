"""Enrichments: columns asked of every qualified item of a list — given at creation, added to a finished
list, carried on by Find More — with cells found or honestly empty, charged per non-empty cell, and
every code of a bad request (SQLite and PostgreSQL)."""

from __future__ import annotations

import math
import uuid
from typing import Any

import httpx

from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.websets.conftest import all_items, create_webset, wait_finished

QUERY = "chemical companies in Switzerland"
EMPLOYEES = {"description": "Number of employees", "format": "number"}
SECTOR = {
    "description": "Which sector is the company in?",
    "format": "options",
    "options": [{"label": "Chemicals"}, {"label": "Banking"}, {"label": "Software"}],
}


def _url(webset_id: str, *rest: str) -> str:
    return "/".join([f"/api/v2/websets/{webset_id}/enrichments", *rest])


async def _enrichments(client: httpx.AsyncClient, headers: dict[str, str], webset_id: str) -> list[Any]:
    return list(assert_ok(await client.get(_url(webset_id), headers=headers))["items"])


async def _filled(client: httpx.AsyncClient, headers: dict[str, str], webset_id: str) -> list[Any]:
    """The list's enrichments once none is being filled (each job polled to its end)."""
    for enrichment in await _enrichments(client, headers, webset_id):
        if enrichment["job_id"]:
            await poll_job(client, headers, enrichment["job_id"], until=("succeeded", "failed"), timeout=60)
    return await _enrichments(client, headers, webset_id)


def _cells(item: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {cell["enrichment_id"]: cell for cell in item["enrichments"]}


async def test_enrichments_given_at_creation_fill_every_qualified_item_and_charge_per_filled_cell(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    async with running_worker(pool_runtime):
        created = await create_webset(
            pool_client, acct.headers, query=QUERY, count=25, enrichments=[EMPLOYEES, SECTOR]
        )
        webset_id = created["webset"]["id"]
        listed = await _enrichments(pool_client, acct.headers, webset_id)
        # Held for the run: a scheduled job per enrichment, reserving a cell's price per coming item.
        held = [
            assert_ok(await pool_client.get(f"/api/v2/jobs/{e['job_id']}", headers=acct.headers))["item"]
            for e in listed
        ]
        webset = await wait_finished(pool_client, acct.headers, webset_id)
        await poll_job(pool_client, acct.headers, webset["run_job_id"], until=("succeeded",))
        employees, sector = await _filled(pool_client, acct.headers, webset_id)
        items = await all_items(pool_client, acct.headers, webset_id, detail="standard", limit=25)
    assert [e["status"] for e in listed] == ["pending", "pending"]
    assert all(job["status"] == "scheduled" and job["action"] == "websets.enrich" for job in held)
    assert employees["status"] == sector["status"] == "completed"
    assert employees["progress"] == sector["progress"] == {"done": len(items), "total": len(items)}
    assert len(items) == 25
    filled = 0
    for item in items:
        number, option = _cells(item)[employees["id"]], _cells(item)[sector["id"]]
        assert number["status"] == option["status"] == "completed"
        # The number is the record's, never made up: the same as the item's entity, or empty.
        if item["entity"]["employees"] is None:
            assert number["result"] is None and number["reasoning"]
        else:
            assert number["result"] == [str(item["entity"]["employees"])]
        assert option["result"] in (["Chemicals"], None) and option["reasoning"]
        filled += number["result"] is not None
        filled += option["result"] is not None
    assert sum(_cells(i)[sector["id"]]["result"] == ["Chemicals"] for i in items) >= 20
    credits = assert_ok(await pool_client.get("/api/v2/credits", headers=acct.headers))["item"]
    charged = 0
    for job in held:
        read = assert_ok(await pool_client.get(f"/api/v2/jobs/{job['id']}", headers=acct.headers))["item"]
        charged += read["billing"]["charged_credits"]
    assert charged == math.ceil(
        0.2 * sum(_cells(i)[employees["id"]]["result"] is not None for i in items)
    ) + math.ceil(0.2 * sum(_cells(i)[sector["id"]]["result"] is not None for i in items))
    assert credits["balance"] == 200 - 25 - charged and credits["reserved"] == 0
    assert filled > 0


async def test_an_email_enrichment_on_a_finished_list_gives_the_contacts_address_and_says_when_unverified(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    client, runtime = world_client, world_runtime
    acct = await AccountFactory(runtime).create(credits=200)
    async with running_worker(runtime):
        webset_id = (await create_webset(client, acct.headers, query="software companies", count=25))[
            "webset"
        ]["id"]
        await wait_finished(client, acct.headers, webset_id)
        body = {"description": "Email of the CEO", "format": "email", "metadata": {"crm": "hubspot"}}
        created = assert_ok(await client.post(_url(webset_id), json=body, headers=acct.headers), 202)["item"]
        job = await poll_job(client, acct.headers, created["job_id"], until=("succeeded",), timeout=60)
        items = await all_items(client, acct.headers, webset_id, detail="full", limit=10)
        read = assert_ok(await client.get(_url(webset_id, created["id"]), headers=acct.headers))["item"]
    assert created["object"] == "enrichment" and created["format"] == "email" and created["options"] is None
    assert created["metadata"] == {"crm": "hubspot"} and created["status"] == "pending"
    assert read["status"] == "completed" and read["job_id"] is None
    cells = [_cells(i)[created["id"]] for i in items]
    found = [c for c in cells if c["result"]]
    assert found, "the world's companies have people with addresses"
    for item, cell in zip(items, cells, strict=True):
        if cell["result"] is None:
            continue
        domain = item["entity"]["domain"]
        assert cell["result"][0].endswith("@" + domain)
        verified = "verified this address" in cell["reasoning"]
        assert verified or "not verified" in cell["reasoning"]
    assert job["billing"]["charged_credits"] == len(found)  # 1 credit an address, nothing for an empty cell


async def test_find_more_fills_the_enrichment_for_the_items_it_adds(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=300)
    async with running_worker(pool_runtime):
        webset_id = (await create_webset(pool_client, acct.headers, query="banks in Switzerland", count=25))[
            "webset"
        ]["id"]
        await wait_finished(pool_client, acct.headers, webset_id)
        created = assert_ok(
            await pool_client.post(_url(webset_id), json=EMPLOYEES, headers=acct.headers), 202
        )["item"]
        await _filled(pool_client, acct.headers, webset_id)
        more = await pool_client.post(
            f"/api/v2/websets/{webset_id}/find-more",
            json={"count": 25},
            headers={**acct.headers, "Idempotency-Key": uuid.uuid4().hex},
        )
        job = assert_ok(more, 202)["item"]
        await poll_job(pool_client, acct.headers, job["id"], until=("succeeded",), timeout=60)
        (after,) = await _filled(pool_client, acct.headers, webset_id)
        items = await all_items(pool_client, acct.headers, webset_id, detail="standard", limit=25)
    assert len(items) > 25, "Find More added items"
    assert after["id"] == created["id"] and after["status"] == "completed"
    assert after["progress"] == {"done": len(items), "total": len(items)}
    assert all(_cells(i)[created["id"]]["status"] == "completed" for i in items)


async def test_a_queued_enrichment_cancelled_charges_nothing_and_a_deleted_one_is_gone(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    async with running_worker(pool_runtime):
        webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
        await wait_finished(pool_client, acct.headers, webset_id)
        run_job = (await wait_finished(pool_client, acct.headers, webset_id))["run_job_id"]
        await poll_job(pool_client, acct.headers, run_job, until=("succeeded",))
    # No worker now: the enrichment's job stays queued.
    created = assert_ok(await pool_client.post(_url(webset_id), json=SECTOR, headers=acct.headers), 202)[
        "item"
    ]
    reserved = assert_ok(await pool_client.get("/api/v2/credits", headers=acct.headers))["item"]["reserved"]
    cancelled = assert_ok(
        await pool_client.post(_url(webset_id, created["id"], "cancel"), headers=acct.headers)
    )["item"]
    again = assert_ok(await pool_client.post(_url(webset_id, created["id"], "cancel"), headers=acct.headers))[
        "item"
    ]
    job = assert_ok(await pool_client.get(f"/api/v2/jobs/{created['job_id']}", headers=acct.headers))["item"]
    items = await all_items(pool_client, acct.headers, webset_id, detail="standard", limit=25)
    credits = assert_ok(await pool_client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert reserved == math.ceil(0.2 * 25)
    assert cancelled["status"] == again["status"] == "cancelled" and cancelled["job_id"] is None
    assert job["status"] == "cancelled"
    assert {_cells(i)[created["id"]]["status"] for i in items} == {"cancelled"}
    assert credits["reserved"] == 0 and credits["balance"] == 200 - 25
    deleted = assert_ok(await pool_client.delete(_url(webset_id, created["id"]), headers=acct.headers))[
        "item"
    ]
    assert deleted == {"id": created["id"], "deleted": True}
    assert_error(
        await pool_client.get(_url(webset_id, created["id"]), headers=acct.headers),
        404,
        "enrichment_not_found",
    )
    items = await all_items(pool_client, acct.headers, webset_id, detail="standard", limit=25)
    assert all(i["enrichments"] == [] for i in items)


async def test_every_bad_enrichment_request_has_its_code(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    other = await AccountFactory(pool_runtime).create(credits=200)
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    bad = [
        ({"format": "text"}, "description"),
        ({"description": "   ", "format": "text"}, "description"),
        ({"description": "x" * 1001, "format": "text"}, "description"),
        ({"description": "Revenue"}, "format"),
        ({"description": "Revenue", "format": "currency"}, "format"),
        ({"description": "Sector", "format": "options"}, None),
        ({"description": "Sector", "format": "options", "options": [{"label": "a"}]}, None),
        ({"description": "Sector", "format": "options", "options": [{"label": "a"}, {"label": "a"}]}, None),
        ({"description": "Sector", "format": "text", "options": [{"label": "a"}, {"label": "b"}]}, None),
        (
            {"description": "Sector", "format": "text", "metadata": {f"k{n}": "v" for n in range(21)}},
            "metadata",
        ),
    ]
    for body, param in bad:
        error = assert_error(
            await pool_client.post(_url(webset_id), json=body, headers=acct.headers),
            400,
            "invalid_enrichment",
        )
        if param is not None:
            assert error["error"].get("param", "").startswith(param), (body, error)
    nested = await pool_client.post(
        "/api/v2/websets", json={"query": QUERY, "enrichments": [{"description": "x"}]}, headers=acct.headers
    )
    assert_error(nested, 400, "invalid_enrichment")
    assert_error(
        await pool_client.post(_url(webset_id), json=EMPLOYEES, headers=other.headers),
        404,
        "webset_not_found",
    )
    for n in range(10):
        body = {"description": f"Column {n}", "format": "text"}
        assert_ok(await pool_client.post(_url(webset_id), json=body, headers=acct.headers), 202)
    assert_error(
        await pool_client.post(_url(webset_id), json=EMPLOYEES, headers=acct.headers),
        409,
        "enrichment_limit_exceeded",
    )
    first = (await _enrichments(pool_client, acct.headers, webset_id))[0]
    for method, path in (("GET", ""), ("POST", "/cancel"), ("DELETE", "")):
        missing = await pool_client.request(
            method, _url(webset_id, "enr_missing") + path, headers=acct.headers
        )
        assert_error(missing, 404, "enrichment_not_found")
        foreign = await pool_client.request(
            method, _url(webset_id, first["id"]) + path, headers=other.headers
        )
        assert_error(foreign, 404, "webset_not_found")
