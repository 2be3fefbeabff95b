"""Lists seeded from customs records, on a world that holds only what an operator ingested: a company
list and a shipments file. The candidates are the companies the records show trading the product in
the countries and dates asked, each verified against the criteria, carrying its trade facts as evidence,
as `entity.trade` and as four ready-made columns; billed as items plus a customs company row per
candidate read (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import math
import shutil
from collections.abc import AsyncIterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadwire.app import create_app
from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from leadwire.config import Settings
from leadwire.platform.runtime import Runtime
from leadwire.sandbox.convert import convert_records
from leadwire.sandbox.ingest import ingest
from leadwire.websets import monitor_scheduler
from tests.mcp.test_mcp_server import call, error_code
from tests.support.accounts import AccountFactory
from tests.support.cli import run_cli
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.support.lifespan import asgi_client, served
from tests.support.trade_stores import load_world
from tests.websets.conftest import all_items, create_webset, runtime_over, wait_finished

COMPANIES = [
    ("Nordlicht Computer GmbH", "DE", "Computer hardware", "nordlicht.example"),
    ("Rhein Rechner AG", "DE", "Computer hardware", "rheinrechner.example"),
    ("Elbe Elektronik GmbH", "DE", "Computer hardware", "elbe.example"),  # one record: under the floor
    ("Hafen Logistik GmbH", "DE", "Logistics", "hafen.example"),  # imports laptops, is no maker
    ("Donau Computer GmbH", "AT", "Computer hardware", "donau.example"),  # imports into Austria
]
SPREE = "Spree Handel GmbH"  # in the shipments only: no company record, no pages
SHENZHEN, TAIPEI = ("Shenzhen Widget Co., Ltd.", "CHN"), ("Taipei Notebook Corp.", "TWN")
COUNTRY3 = {"DE": "DEU", "AT": "AUT"}
LAPTOPS = "8471300000"
SEED = {
    "type": "customs",
    "role": "importer",
    "hs_code": "8471",
    "country_codes": "DEU",
    "start_date": "2024-01-01",
    "end_date": "2024-12-31",
    "min_trade_count": 2,
}


def _shipment(
    n: int,
    day: str,
    importer: str,
    country3: str,
    exporter: tuple[str, str],
    usd: float,
    hs_code: str = LAPTOPS,
) -> dict[str, Any]:
    return {
        "id": n,
        "date": date.fromisoformat(day),
        "importer_id": "",
        "exporter_id": "",
        "importer_name": importer,
        "exporter_name": exporter[0],
        "importer_country3": country3,
        "exporter_country3": exporter[1],
        "origin_country3": exporter[1],
        "destination_country3": country3,
        "hs_code": hs_code,
        "product_description": "laptops",
        "quantity": 1,
        "weight_kg": 2,
        "amount_usd": usd,
        "in_imports": True,
        "in_exports": False,
    }


def _shipments() -> list[dict[str, Any]]:
    plan = [  # importer, its country, [(exporter, USD)] in 2024
        ("Nordlicht Computer GmbH", "DEU", [SHENZHEN, SHENZHEN, SHENZHEN, TAIPEI, TAIPEI]),
        ("Hafen Logistik GmbH", "DEU", [SHENZHEN] * 4),
        ("Rhein Rechner AG", "DEU", [TAIPEI] * 3),
        (SPREE, "DEU", [SHENZHEN] * 3),
        ("Elbe Elektronik GmbH", "DEU", [TAIPEI]),
        ("Donau Computer GmbH", "AUT", [SHENZHEN] * 3),
    ]
    rows = []
    for importer, country3, exporters in plan:
        for month, exporter in enumerate(exporters, start=1):
            usd = 1000.0 if exporter == TAIPEI else 500.0
            rows.append(_shipment(len(rows) + 1, f"2024-{month:02d}-15", importer, country3, exporter, usd))
    # Outside the seed: another product, another year.
    rows.append(
        _shipment(len(rows) + 1, "2024-03-01", "Elbe Elektronik GmbH", "DEU", TAIPEI, 9, "8517620000")
    )
    rows.append(_shipment(len(rows) + 1, "2023-12-31", "Elbe Elektronik GmbH", "DEU", TAIPEI, 9))
    return rows


@pytest.fixture(scope="module")
def trade_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An ingested-only world: the company list (with a page each) and the shipments."""
    records = [
        {"name": name, "country": country, "industries": [industry], "website": site}
        for name, country, industry, site in COMPANIES
    ]
    work = tmp_path_factory.mktemp("trade-seed")
    companies, documents = convert_records(enumerate(records, start=1)).write(work / "ingest")
    world = work / "world"
    for kind, path in (("companies", companies), ("documents", documents)):
        assert ingest(world, kind, path).accepted
    return load_world(world, _shipments())


@pytest.fixture
async def trade_runtime(settings: Settings, trade_world: Path) -> AsyncIterator[Runtime]:
    async with runtime_over(settings, trade_world) as runtime:
        yield runtime


@pytest.fixture
async def trade_client(trade_runtime: Runtime) -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(create_app(runtime=trade_runtime)) as http:
        yield http


async def test_a_trade_seeded_list_verifies_the_importers_the_records_show(
    trade_client: httpx.AsyncClient, trade_runtime: Runtime
) -> None:
    client = trade_client
    acct = await AccountFactory(trade_runtime).create(credits=1000)
    async with running_worker(trade_runtime):
        created = await create_webset(
            client, acct.headers, query="Computer hardware companies in Germany", seed=SEED
        )
        webset = await wait_finished(client, acct.headers, created["webset"]["id"])
        run = await poll_job(client, acct.headers, webset["run_job_id"], until=("succeeded",))
        verified = await all_items(
            client, acct.headers, webset["id"], match="verified", detail="full", limit=10
        )
        more = await client.post(
            f"/api/v2/websets/{webset['id']}/find-more",
            json={"count": 25},
            headers={**acct.headers, "Idempotency-Key": "trade-more"},
        )
        again = await poll_job(client, acct.headers, assert_ok(more, 202)["item"]["id"], until=("succeeded",))
        columns = assert_ok(
            await client.get(f"/api/v2/websets/{webset['id']}/enrichments", headers=acct.headers)
        )
    assert webset["status"] == "completed" and webset["seed"] == SEED
    by_name = {item["entity"]["name"]: item for item in verified}
    # The records' importers in Germany with two records or more, and nothing else.
    assert set(by_name) == {"Nordlicht Computer GmbH", "Hafen Logistik GmbH", "Rhein Rechner AG", SPREE}
    status = {name: item["match"]["status"] for name, item in by_name.items()}
    assert status["Nordlicht Computer GmbH"] == status["Rhein Rechner AG"] == "full"
    assert status["Hafen Logistik GmbH"] == "rejected"  # the remaining criteria still decide
    assert status[SPREE] != "full"  # known only from the records: no company record to verify

    nordlicht = by_name["Nordlicht Computer GmbH"]
    trade = nordlicht["entity"]["trade"]
    assert (trade["records"], trade["amount_usd"], trade["last_shipment"]) == (5, 3500.0, "2024-05-15")
    assert [(p["name"], p["records"], p["amount_usd"]) for p in trade["top_counterparties"]] == [
        (TAIPEI[0], 2, 2000.0),
        (SHENZHEN[0], 3, 1500.0),
    ]
    assert trade["source"].startswith("customs:imports?") and "Nordlicht" in trade["source"]
    # A company known only from the records is kept as they name it: its name and country, no more.
    spree = by_name[SPREE]["entity"]
    assert (spree["domain"], spree["country"], spree["website"]) == ("name:spree handel gmbh@DE", "DE", None)
    assert spree["trade"]["records"] == 3
    # The ready-made columns: complete from the start, a cell per qualified item, never a job.
    assert [(c["format"], c["status"], c["job_id"]) for c in columns["items"]] == [
        ("number", "completed", None),
        ("number", "completed", None),
        ("text", "completed", None),
        ("date", "completed", None),
    ]
    assert columns["items"][2]["description"].startswith("Largest suppliers by value (HS 8471")
    cells = [c["result"] for c in nordlicht["enrichments"]]
    assert cells == [["5"], ["3500.00"], [f"{TAIPEI[0]} (TWN)", f"{SHENZHEN[0]} (CHN)"], ["2024-05-15"]]
    assert all(c["references"][0]["url"] == trade["source"] for c in nordlicht["enrichments"])
    # A rejected item has its cells too (free): a refresh that qualifies it later shows them.
    assert [c["result"] for c in by_name["Hafen Logistik GmbH"]["enrichments"]][:2] == [["4"], ["2000.00"]]
    qualified = sum(1 for s in status.values() if s != "rejected")
    assert all(c["progress"] == {"done": qualified, "total": qualified} for c in columns["items"])
    # Billed: a credit per qualified item and a customs company row (3.6) per candidate read.
    assert run["billing"]["charged_credits"] == math.ceil(qualified + 4 * 3.6)
    # Find More reads the records again: every company is on the list, nothing is added or charged.
    assert again["result"]["released"] == 0 and again["billing"]["charged_credits"] == 0


async def test_an_empty_trade_store_gives_an_empty_list_and_a_missing_one_fails_the_list(
    settings: Settings, small_pool_world: Path, tmp_path: Path
) -> None:
    """The pool world's ingest left an empty shipments table: nothing to verify, nothing charged. Without
    the file the run fails with the store's own code, and its reservation is released."""
    bare = tmp_path / "world"
    shutil.copytree(small_pool_world, bare)
    (bare / "trade.duckdb").unlink()
    outcomes = []
    for world in (small_pool_world, bare):
        async with (
            runtime_over(settings, world) as runtime,
            asgi_client(create_app(runtime=runtime)) as client,
        ):
            acct = await AccountFactory(runtime).create(credits=1000)
            async with running_worker(runtime):
                created = await create_webset(client, acct.headers, query="chemical companies", seed=SEED)
                webset = await wait_finished(client, acct.headers, created["webset"]["id"])
                if webset["run_job_id"]:
                    await poll_job(client, acct.headers, webset["run_job_id"], until=("succeeded", "failed"))
            items = await all_items(client, acct.headers, webset["id"], match="verified")
            credits = assert_ok(await client.get("/api/v2/credits", headers=acct.headers))["item"]
        outcomes.append((webset, items, credits))
    (empty, empty_items, empty_credits), (failed, _, failed_credits) = outcomes
    assert empty["status"] == "completed" and empty["progress"]["stop_reason"] == "exhausted"
    assert empty_items == [] and empty_credits == {**empty_credits, "balance": 1000, "reserved": 0}
    assert failed["status"] == "failed" and failed["failure"]["code"] == "trade_data_unavailable"
    assert failed_credits["balance"] == 1000 and failed_credits["reserved"] == 0


BAD_TERMS: list[dict[str, Any]] = [
    {"country_codes": "DE"},  # alpha-2
    {"country_codes": "DEU,XXX"},
    {"hs_code": "847"},
    {"hs_code": 8471},
    {"end_date": "2025-06-01"},  # more than a year
    {"end_date": "2023-12-31"},  # before the start
    {"start_date": "2024-02-30"},
    {"min_trade_count": 0},
    {"id": "imp_x"},
    {"role": "buyer"},
    {"hs_code": None},
]


async def test_a_bad_customs_seed_is_refused_and_nothing_is_written(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    for change in BAD_TERMS:
        seed = {**SEED, **change}
        response = await client.post(
            "/api/v2/websets", json={"query": "laptops", "seed": seed}, headers=acct.headers
        )
        assert_error(response, 400, "webset_seed_invalid")
    assert assert_ok(await client.get("/api/v2/websets", headers=acct.headers))["items"] == []


async def test_a_customs_seed_says_which_term_is_wrong_and_finds_companies_only(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    late = await client.post(
        "/api/v2/websets",
        json={"query": "laptops", "seed": {**SEED, "end_date": "2026-01-01"}},
        headers=acct.headers,
    )
    people = await client.post(
        "/api/v2/websets",
        json={"query": "buyers at laptop importers", "target_kind": "person", "seed": SEED},
        headers=acct.headers,
    )
    assert (
        assert_error(late, 400, "webset_seed_invalid")["error"]["detail"] == "the dates span at most one year"
    )
    assert (
        "customs seed finds companies" in assert_error(people, 400, "webset_seed_invalid")["error"]["detail"]
    )


async def test_an_import_seed_takes_no_customs_terms(client: httpx.AsyncClient, runtime: Runtime) -> None:
    acct = await AccountFactory(runtime).create()
    seed = {"type": "import", "id": "imp_x", "hs_code": "8471"}
    response = await client.post(
        "/api/v2/websets", json={"query": "laptops", "seed": seed}, headers=acct.headers
    )
    assert_error(response, 400, "webset_seed_invalid")


async def test_a_trade_seeded_list_reserves_its_customs_rows_up_front(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    """25 items and up to 100 candidates at 3.6: 385 credits reserved; an account holding fewer is
    refused before anything is written."""
    poor = await AccountFactory(runtime).create(credits=300)
    refused = await client.post(
        "/api/v2/websets", json={"query": "laptops", "seed": SEED}, headers=poor.headers
    )
    assert_error(refused, 402, "insufficient_credits")
    rich = await AccountFactory(runtime).create(credits=400)
    await create_webset(client, rich.headers, query="laptops", seed=SEED)
    credits = assert_ok(await client.get("/api/v2/credits", headers=rich.headers))["item"]
    assert credits["reserved"] == 25 + math.ceil(100 * 3.6)


async def test_the_sdk_cli_and_mcp_create_trade_seeded_lists(
    trade_runtime: Runtime, trade_client: httpx.AsyncClient
) -> None:
    """Every face sends the same seed and reads back the same list; a broken term is the same code."""
    acct = await AccountFactory(trade_runtime).create(credits=5000)
    key = acct.headers["Authorization"].removeprefix("Bearer ")
    query = "Computer hardware companies in Germany"
    async with served(create_app(runtime=trade_runtime)) as base:

        def sync_create() -> dict[str, Any]:
            with Leadwire(key, base) as lw:
                return lw.create_webset(query, seed=SEED)

        by_sync = await asyncio.to_thread(sync_create)
        async with AsyncLeadwire(key, base) as alw:
            by_async = await alw.create_webset(query, seed=SEED)
            with pytest.raises(LeadwireError) as refused:
                await alw.create_webset(query, seed={**SEED, "country_codes": "DE"})
        terms = ["--trade-role", "importer", "--hs-code", "8471", "--country-codes", "DEU"]
        terms += ["--start-date", "2024-01-01", "--end-date", "2024-12-31", "--min-trade-count", "2"]
        by_cli = await asyncio.to_thread(run_cli, base, key, "websets", "create", query, *terms, "--json")
        # MCP while the served app runs: its shutdown drains the shared runtime.
        mcp_answer = await call(trade_client, acct.headers, "create_webset", query=query, seed=SEED)
        by_mcp = mcp_answer["structuredContent"]
        bad_mcp = await call(
            trade_client, acct.headers, "create_webset", query=query, seed={**SEED, "hs_code": "84x"}
        )
    assert by_cli.exit_code == 0, by_cli.output
    created = [by_sync, by_async, json.loads(by_cli.output), by_mcp]
    ids = [c["webset"]["id"] for c in created]
    assert refused.value.status == 400 and refused.value.code == "webset_seed_invalid"
    assert error_code(bad_mcp) == "webset_seed_invalid"
    async with running_worker(trade_runtime):
        finished = [await wait_finished(trade_client, acct.headers, webset_id) for webset_id in ids]
    found = [
        sorted(
            i["entity"]["name"]
            for i in await all_items(trade_client, acct.headers, w["id"], match="verified")
        )
        for w in finished
    ]
    assert all(w["seed"] == SEED and w["status"] == "completed" for w in finished)
    assert (
        found == [sorted(["Nordlicht Computer GmbH", "Hafen Logistik GmbH", "Rhein Rechner AG", SPREE])] * 4
    )


class _Recording:
    """The reasoner, noting every prospect it is asked to verify."""

    name = "recording"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def verify(self, query: str, criteria: Any, prospects: Any) -> Any:
        self.seen.extend(prospects)
        return await self.inner.verify(query, criteria, prospects)


async def test_a_refresh_re_verifies_with_the_records_and_leaves_the_seed_columns(
    trade_client: httpx.AsyncClient, trade_runtime: Runtime
) -> None:
    client = trade_client
    acct = await AccountFactory(trade_runtime).create(credits=1000)
    async with running_worker(trade_runtime):
        created = await create_webset(
            client, acct.headers, query="Computer hardware companies in Germany", seed=SEED
        )
        webset_id = created["webset"]["id"]
        await wait_finished(client, acct.headers, webset_id)
        before = await all_items(
            client, acct.headers, webset_id, match="verified", detail="standard", limit=25
        )
        monitor = assert_ok(
            await client.post(
                "/api/v2/monitors",
                json={
                    "webset_id": webset_id,
                    "cadence": {"cron": "0 * * * *", "timezone": "UTC"},
                    "behavior": "refresh",
                },
                headers=acct.headers,
            ),
            201,
        )["item"]
        recording = _Recording(trade_runtime.adapters["reasoner"])
        trade_runtime.adapters["reasoner"] = recording
        slot = datetime.fromisoformat(monitor["next_run_at"].replace("Z", "+00:00")) + timedelta(minutes=1)
        assert await monitor_scheduler.tick(trade_runtime, slot) == 1
        (run,) = assert_ok(await client.get(f"/api/v2/monitors/{monitor['id']}/runs", headers=acct.headers))[
            "items"
        ]
        job = await poll_job(client, acct.headers, run["job_id"], until=("succeeded", "failed"), timeout=60)
        after = await all_items(
            client, acct.headers, webset_id, match="verified", detail="standard", limit=25
        )
    assert job["status"] == "succeeded" and job["result"]["checked"] == len(before) == 4
    # Each item was judged again with its customs records first among its evidence.
    assert len(recording.seen) == 4
    assert all(p.evidence and p.evidence[0].url.startswith("customs:imports?") for p in recording.seen)
    assert {p.evidence[0].url for p in recording.seen} == {i["entity"]["trade"]["source"] for i in before}
    # Same records, same verdicts; the seed's columns are not refilled, their cells unchanged.
    assert [(i["id"], i["match"], i["enrichments"]) for i in after] == [
        (i["id"], i["match"], i["enrichments"]) for i in before
    ]
    assert job["result"]["enrichments_refilled"] == 0
