"""The SDK's customs calls (sync and async) against the real app served on loopback, over the hand-built
shipments of tests/support/trade.py: candidates, company search, one section, the trade report, waiting
for a job that outlived its wait, and refusals as LeadwireError."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from leadwire.client.core import TERMINAL
from leadwire.config import Settings
from tests.support.served import Served, served_app
from tests.support.trade import ACME, BERLIN, HANOI, OSAKA, SHENZHEN
from tests.support.trade_stores import load_world


@contextlib.asynccontextmanager
async def customs_server(settings: Settings, tmp_path: Path) -> AsyncIterator[Served]:
    """The app over a trade world holding SHIPMENTS, served on loopback (`served_app`)."""
    world = load_world(tmp_path / "trade-world" / "world")
    async with served_app(settings.model_copy(update={"world_dir": world})) as served:
        yield served


def by_name(items: list[dict[str, Any]], key: str = "name") -> dict[str, dict[str, Any]]:
    return {item[key]: item for item in items}


async def test_async_customs_calls_answer_from_the_shipments(settings: Settings, tmp_path: Path) -> None:
    async with (
        customs_server(settings, tmp_path) as served,
        AsyncLeadwire(served.key, served.base_url) as sdk,
    ):
        found = await sdk.customs_candidates("acme imports", "2024-01-01", date(2024, 12, 31), wait=30)
        counterparties = await sdk.customs_section(
            "counterparties", ACME, "importer", date(2024, 1, 1), "2024-12-31", wait=30
        )
        report = await sdk.customs_report(
            ACME, "importer", "2024-01-01", "2024-12-31", period_unit="quarters", wait=30
        )
        search = await sdk.customs_search("importer", "2024-01-01", "2024-12-31", hs_code="8471", wait=30)
        # Created without waiting: the job is polled to its end.
        queued = await sdk.customs_section(
            "countries", ACME, "importer", "2024-01-01", "2024-12-31", filters={"hs_code": "8471"}
        )
        countries = await sdk.wait_for(queued["id"], timeout=30)
        with pytest.raises(LeadwireError) as bad_date:
            await sdk.customs_report(ACME, "importer", "2024-01-01", "2024-13-01")
        with pytest.raises(LeadwireError) as no_filter:
            await sdk.customs_search("importer", "2024-01-01", "2024-12-31")

    # Candidates: Acme as importer in the imports catalog, rows 1-4 of 2024 (free).
    assert found["status"] == "succeeded" and found["billing"]["charged_credits"] in (0, None)
    first = found["result"]["candidates"][0]
    assert first["name"] == ACME and first["countries"] == ["DEU"]
    assert first["trade_counts"]["imports_as_importer"] == 4 == first["trade_counts"]["total"]
    assert first["trade_counts"]["queryable"] is True and first["identity_status"] == "unverified"
    assert found["result"]["identity_notice"]

    rows = counterparties["result"]["data"]["items"]
    assert [r["name"] for r in rows] == [OSAKA, SHENZHEN, HANOI]  # by amount, largest first
    assert [r["sumOfUSD"] for r in rows] == [2000, 1500, 300] and sum(r["sumOfUSD"] for r in rows) == 3800
    assert by_name(rows)[SHENZHEN]["tradeCount"] == 2 and by_name(rows)[OSAKA]["amountSharePct"] == 52.63
    assert counterparties["result"]["section"] == "counterparties"

    result = report["result"]
    assert result["status"] == "complete"
    assert {key: part["status"] for key, part in result["sections"].items()} == dict.fromkeys(
        ("counterparties", "categories", "trend", "countries"), "complete"
    )
    trend = result["sections"]["trend"]["data"]["items"]
    assert [(p["date"], p["sumOfUSD"]) for p in trend] == [
        ("2024-01-01", 1800),
        ("2024-04-01", 2000),
        ("2024-07-01", 0),
        ("2024-10-01", 0),
    ]
    by_country = by_name(result["sections"]["countries"]["data"]["items"], "countryCode")
    assert {code: row["sumOfUSD"] for code, row in by_country.items()} == {
        "JPN": 2000,
        "CHN": 1500,
        "VNM": 300,
    }
    categories = result["sections"]["categories"]["data"]["items"]
    assert sum(c["sumOfUSD"] for c in categories) == 3800 and len(categories) == 3

    companies = search["result"]["data"]["items"]
    assert [(c["company_name"], c["trade_count"], c["amount_usd"]) for c in companies] == [
        (ACME, 2, 1500),
        (BERLIN, 1, 100),
    ]
    assert search["result"]["filters"] == {"hs_code": "8471"}
    assert countries["status"] == "succeeded"
    assert countries["result"]["data"]["items"][0]["countryCode"] == "CHN"
    assert countries["result"]["data"]["total"] == 1

    assert (bad_date.value.status, bad_date.value.code, bad_date.value.param) == (
        400,
        "invalid_request",
        "end_date",
    )
    assert (no_filter.value.status, no_filter.value.code) == (400, "invalid_request")


async def test_sync_customs_calls(settings: Settings, tmp_path: Path) -> None:
    async with customs_server(settings, tmp_path) as served:

        def calls() -> tuple[dict[str, Any], dict[str, Any], LeadwireError]:
            with Leadwire(served.key, served.base_url) as sdk:
                section = sdk.customs_section(
                    "counterparties",
                    ACME,
                    "importer",
                    datetime(2024, 1, 1, 9, 30),
                    date(2024, 12, 31),
                    wait=30,
                )
                started = sdk.customs_candidates(
                    "Acme Imports", "2024-01-01", "2024-12-31", company_role="importer", country_codes=["DEU"]
                )
                candidates = (
                    started if started["status"] in TERMINAL else sdk.wait_for(started["id"], timeout=30)
                )
                try:
                    sdk.customs_section("counterparties", ACME, "importer", "2024-01-01", "2024-02-30")
                except LeadwireError as error:
                    return section, candidates, error
            raise AssertionError("an impossible date was accepted")

        section, candidates, error = await asyncio.to_thread(calls)

    items = section["result"]["data"]["items"]
    assert {r["name"]: r["sumOfUSD"] for r in items} == {OSAKA: 2000, SHENZHEN: 1500, HANOI: 300}
    assert section["result"]["date_range"] == {"start": "2024-01-01", "end": "2024-12-31"}
    assert candidates["status"] == "succeeded"
    assert candidates["result"]["routing_evidence"]["mode"] == "common_pair"
    assert candidates["result"]["candidates"][0]["name"] == ACME
    assert (error.status, error.code, error.param) == (400, "invalid_request", "end_date")


def test_an_unknown_section_is_refused_before_any_request() -> None:
    with Leadwire("lw_live_x", "http://127.0.0.1:9") as sdk, pytest.raises(ValueError):
        sdk.customs_section("partners", ACME, "importer", "2024-01-01", "2024-12-31")


def test_bodies_carry_dates_as_iso_days_and_drop_what_was_not_given() -> None:
    class Recorder(Leadwire):
        def _run(self, call: Any) -> Any:
            return call

    with Recorder("lw_live_x", "http://127.0.0.1:9") as sdk:
        section = sdk.customs_section(
            "trends",
            ACME,
            "importer",
            date(2024, 1, 1),
            datetime(2024, 6, 30, 23, 59),
            filters={"hs_code": "8471", "origin_country_code": None},
            wait=5,
        )
        report = sdk.customs_report(ACME, "exporter", "2024-01-01", "2024-12-31", filters={"hs_code": None})
        candidates = sdk.customs_candidates("Acme", "2024-01-01", "2024-12-31", country_codes=["DEU", "FRA"])
    assert section.path == "/api/v2/customs/trends" and section.headers["Prefer"] == "wait=5"
    assert section.json == {
        "company_name": ACME,
        "company_role": "importer",
        "start_date": "2024-01-01",
        "end_date": "2024-06-30",
        "filters": {"hs_code": "8471"},
    }
    assert report.path == "/api/v2/customs/trade-reports" and "filters" not in report.json
    assert candidates.json["country_codes"] == "DEU,FRA"
