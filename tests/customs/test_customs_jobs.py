"""Customs jobs end to end on the hand-built shipments: results in their documented shapes
(docs/api.md, Customs trade data), each figure known row by row, billing per returned row rounded up
once, and a failing section in a report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.billing.prices import set_price_table
from leadwire.platform.runtime import Runtime, build_runtime
from leadwire.providers.trade import TradeStore, TradeStoreError
from leadwire.providers.trade_duckdb import DuckDBTradeStore
from leadwire.providers.trade_postgres import PostgresTradeStore
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import running_worker
from tests.support.lifespan import asgi_client
from tests.support.trade import ACME, HANOI, OSAKA, SHENZHEN
from tests.support.trade_stores import asyncpg_dsn, load_postgres

BASE = "/api/v2/customs"
YEAR = {"start_date": "2024-01-01", "end_date": "2024-12-31"}
ACME_YEAR = {"company_name": ACME, "company_role": "importer", **YEAR}


async def _run(
    client: httpx.AsyncClient, runtime: Runtime, headers: dict[str, str], path: str, body: dict
) -> Any:
    async with running_worker(runtime):
        response = await client.post(f"{BASE}/{path}", json=body, headers={**headers, "Prefer": "wait=30"})
    return assert_ok(response, 200)["item"]


async def _credits(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    item: dict[str, Any] = assert_ok(await client.get("/api/v2/credits", headers=headers))["item"]
    return item


async def test_sections_return_the_known_rows_and_bill_each_row(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=1000)
    job = await _run(client, runtime, acct.headers, "counterparties", ACME_YEAR)
    assert job["status"] == "succeeded"
    result = job["result"]
    assert {k: result[k] for k in ("company_name", "company_role", "catalog", "date_range", "section")} == {
        "company_name": ACME,
        "company_role": "importer",
        "catalog": "imports",
        "date_range": {"start": "2024-01-01", "end": "2024-12-31"},
        "section": "counterparties",
    }
    data = result["data"]
    assert {k: data[k] for k in ("total", "page", "page_size", "returned_rows")} == {
        "total": 3,
        "page": 1,
        "page_size": 20,
        "returned_rows": 3,
    }
    assert data["items"][1] == {
        "name": SHENZHEN,
        "country": "China",
        "countryCode": "CHN",
        "tradeCount": 2,
        "sumOfUSD": 1500.0,
        "weight": 150.0,
        "quantity": 15.0,
        "weightAvgPrice": 10.0,
        "quantityAvgPrice": 100.0,
        "amountSharePct": 39.47,
    }
    assert [row["name"] for row in data["items"]] == [OSAKA, SHENZHEN, HANOI]
    assert [row["amountSharePct"] for row in data["items"]] == [52.63, 39.47, 7.89]
    # 3 rows x 3.6 = 10.8, rounded up once; the rest of the 72 reserved is released.
    assert job["billing"] == {"status": "settled", "charged_credits": 11, "pending_units": 0.0}
    assert await _credits(client, acct.headers) | {"updated_at": None} == {
        "balance": 989,
        "reserved": 0,
        "available": 989,
        "updated_at": None,
    }

    categories = await _run(client, runtime, acct.headers, "categories", {**ACME_YEAR, "page_size": 2})
    rows = categories["result"]["data"]["items"]
    assert [(r["hsCode"], r["sumOfUSD"], r["companyCount"]) for r in rows] == [
        ("870899", 2000.0, 1),
        ("847130", 1500.0, 1),
    ]
    assert rows[1]["hsDescriptionEn"].startswith("Automatic data processing machines")
    assert rows[1]["hsDescriptionCn"].startswith("核反应堆")
    assert categories["result"]["data"]["total"] == 3
    assert categories["billing"]["charged_credits"] == 6  # 2 x 3.0

    cross = {**ACME_YEAR, "catalog": "exports"}
    countries = await _run(client, runtime, acct.headers, "countries", cross)
    assert [
        (r["countryCode"], r["country"], r["sumOfUSD"]) for r in countries["result"]["data"]["items"]
    ] == [
        ("JPN", "Japan", 2000.0),
        ("VNM", "Vietnam", 600.0),
        ("CHN", "China", 500.0),
    ]
    assert countries["result"]["catalog"] == "exports"
    assert countries["billing"]["charged_credits"] == 9  # 3 x 3.0


async def test_trends_list_every_period_with_zeros_and_page_them(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=1000)
    half = {**ACME_YEAR, "end_date": "2024-06-30", "page_size": 4, "page": 2}
    job = await _run(client, runtime, acct.headers, "trends", half)
    data = job["result"]["data"]
    assert job["result"]["period_unit"] == "months"
    assert (data["total"], data["returned_rows"]) == (6, 2)
    assert [(r["date"], r["tradeCount"], r["sumOfUSD"]) for r in data["items"]] == [
        ("2024-05-01", 0, 0.0),
        ("2024-06-01", 0, 0.0),
    ]
    assert job["billing"]["charged_credits"] == 0  # empty periods pad the calendar: not charged
    first = await _run(client, runtime, acct.headers, "trends", {**half, "page": 1})
    assert [r["tradeCount"] for r in first["result"]["data"]["items"]] == [2, 1, 0, 1]
    assert first["billing"]["charged_credits"] == 11  # 3 periods with records x 3.6 = 10.8
    quarters = await _run(client, runtime, acct.headers, "trends", {**ACME_YEAR, "period_unit": "quarters"})
    assert [(r["date"], r["tradeCount"], r["sumOfUSD"]) for r in quarters["result"]["data"]["items"]] == [
        ("2024-01-01", 3, 1800.0),
        ("2024-04-01", 1, 2000.0),
        ("2024-07-01", 0, 0.0),
        ("2024-10-01", 0, 0.0),
    ]


async def test_company_search_rows_sort_and_share(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=1000)
    body = {
        "company_role": "importer",
        "hs_code": "8471",
        "sort_by": "amount_usd",
        "sort_order": "asc",
        **YEAR,
    }
    job = await _run(client, runtime, acct.headers, "companies/search", body)
    result = job["result"]
    assert result["filters"] == {"hs_code": "8471"} and result["catalog"] == "imports"
    assert (result["sort_by"], result["sort_order"]) == ("amount_usd", "asc")
    assert result["data"]["items"] == [
        {
            "company_name": "Berlin Tools AG",
            "country": "Germany",
            "country_code": "DEU",
            "trade_count": 1,
            "amount_usd": 100.0,
            "quantity": 1.0,
            "weight": 10.0,
            "amount_share_pct": 6.25,
        },
        {
            "company_name": ACME,
            "country": "Germany",
            "country_code": "DEU",
            "trade_count": 2,
            "amount_usd": 1500.0,
            "quantity": 15.0,
            "weight": 150.0,
            "amount_share_pct": 93.75,
        },
    ]
    assert job["billing"]["charged_credits"] == 8  # 2 x 3.6 = 7.2


async def test_no_rows_cost_nothing(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=1000)
    job = await _run(
        client, runtime, acct.headers, "trade-reports", {**ACME_YEAR, "company_name": "Nobody GmbH"}
    )
    assert job["status"] == "succeeded" and job["result"]["status"] == "complete"
    sections = job["result"]["sections"]
    assert [
        sections[k]["data"]["returned_rows"] for k in ("counterparties", "categories", "trend", "countries")
    ] == [
        0,
        0,
        0,
        0,
    ]
    assert job["billing"] == {"status": "settled", "charged_credits": 0, "pending_units": 0.0}
    nothing = await _run(
        client, runtime, acct.headers, "counterparties", {**ACME_YEAR, "company_name": "Nobody"}
    )
    assert nothing["result"]["data"] == {
        "total": 0,
        "page": 1,
        "page_size": 20,
        "returned_rows": 0,
        "items": [],
    }
    assert nothing["billing"] == {"status": "settled", "charged_credits": 0, "pending_units": 0.0}
    assert (await _credits(client, acct.headers))["reserved"] == 0


class _BrokenCategories:
    """The real store, except that the categories question fails."""

    def __init__(self, store: TradeStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def categories(self, *args: Any, **kwargs: Any) -> Any:
        raise TradeStoreError("categories exploded")


class _BrokenStore:
    async def close(self) -> None:
        return None

    def __getattr__(self, name: str) -> Any:
        async def fail(*args: Any, **kwargs: Any) -> Any:
            raise TradeStoreError("the trade database is down")

        return fail


async def test_a_failed_section_leaves_the_report_partial_and_unbilled_for_it(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=1000)
    runtime.adapters["trade"] = _BrokenCategories(runtime.adapters["trade"])
    job = await _run(client, runtime, acct.headers, "trade-reports", {**ACME_YEAR, "page_size": 2})
    assert job["status"] == "succeeded"
    result = job["result"]
    assert result["status"] == "partial"
    assert set(result["sections"]) == {"counterparties", "categories", "trend", "countries"}
    assert result["sections"]["categories"] == {
        "status": "failed",
        "error": {"code": "customs_section_failed"},
    }
    for key in ("counterparties", "trend", "countries"):
        assert result["sections"][key]["status"] == "complete"
        assert result["sections"][key]["data"]["returned_rows"] == 2
    # 2 counterparties x 3.6 + 2 periods x 3.6 + 2 countries x 3.0 = 20.4 -> 21; categories cost nothing.
    assert job["billing"]["charged_credits"] == 21
    assert (await _credits(client, acct.headers))["balance"] == 979


async def test_a_store_that_cannot_answer_fails_the_job_at_no_cost(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=1000)
    runtime.adapters["trade"] = _BrokenStore()
    for path in ("trade-reports", "counterparties", "company-candidates"):
        body = {"company_name": ACME, **YEAR} if path == "company-candidates" else ACME_YEAR
        job = await _run(client, runtime, acct.headers, path, body)
        assert job["status"] == "failed"
        assert job["error"] == {"code": "trade_data_unavailable", "detail": "the trade database is down"}
        assert job["billing"]["charged_credits"] == 0
    assert (await _credits(client, acct.headers))["available"] == 1000


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # prices are no database matter
async def test_the_operator_price_table_sets_the_price_of_a_kind(settings: Settings) -> None:
    runtime = await build_runtime(settings.model_copy(update={"prices": '{"counterparties": "0.5"}'}))
    try:
        async with asgi_client(create_app(runtime=runtime)) as client:
            acct = await AccountFactory(runtime).create(credits=100)
            job = await _run(client, runtime, acct.headers, "counterparties", ACME_YEAR)
            assert job["billing"]["charged_credits"] == 2  # 3 rows x 0.5 = 1.5, rounded up
            report = await _run(client, runtime, acct.headers, "trade-reports", {**ACME_YEAR, "page_size": 1})
            assert report["billing"]["charged_credits"] == 11  # 0.5 + 3.0 + 3.6 + 3.0 = 10.1, rounded up once
    finally:
        await runtime.close()
        set_price_table({})


@pytest.fixture
def postgres_trade(pg_database: str, tmp_path: Path) -> str:
    # Sync: the ingest runs its own event loop. The app's database is the same PostgreSQL database.
    return load_postgres(asyncpg_dsn(pg_database), tmp_path)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_deployment_keeping_trade_data_in_postgresql_gets_the_same_report(
    settings: Settings, postgres_trade: str
) -> None:
    runtime = await build_runtime(
        settings.model_copy(update={"trade_store": "postgres", "trade_database_url": postgres_trade})
    )
    try:
        async with asgi_client(create_app(runtime=runtime)) as client:
            assert isinstance(runtime.adapters["trade"], PostgresTradeStore)
            acct = await AccountFactory(runtime).create(credits=1000)
            job = await _run(client, runtime, acct.headers, "trade-reports", {**ACME_YEAR, "page_size": 3})
            sections = job["result"]["sections"]
            assert [r["name"] for r in sections["counterparties"]["data"]["items"]] == [
                OSAKA,
                SHENZHEN,
                HANOI,
            ]
            assert [r["countryCode"] for r in sections["countries"]["data"]["items"]] == ["JPN", "CHN", "VNM"]
            assert sections["trend"]["data"]["items"][0]["sumOfUSD"] == 1500.0
            # 3 x 3.6 + 3 x 3.0 + 2 periods with records x 3.6 + 3 x 3.0 = 36 (March is empty)
            assert job["billing"]["charged_credits"] == 36
    finally:
        await runtime.close()


def test_the_trade_store_is_chosen_by_settings(tmp_path: Path) -> None:
    from leadwire.providers.registry import build_providers

    duck = build_providers(Settings(data_dir=tmp_path))["trade"]
    assert isinstance(duck, DuckDBTradeStore) and duck.path == tmp_path / "world" / "trade.duckdb"
    on_main = Settings(
        data_dir=tmp_path, database_url="postgresql+asyncpg://u@127.0.0.1/app", trade_store="postgres"
    )
    assert on_main.resolved_trade_database_url == "postgresql://u@127.0.0.1/app"
    assert isinstance(build_providers(on_main)["trade"], PostgresTradeStore)
    with pytest.raises(ValueError, match="LEADWIRE_TRADE_DATABASE_URL"):
        build_providers(Settings(data_dir=tmp_path, trade_store="postgres"))
    with pytest.raises(ValueError, match="LEADWIRE_TRADE_STORE"):
        build_providers(Settings(data_dir=tmp_path, trade_store="parquet"))
