"""Company-name candidates: fuzzy matching over the names in the records, routing over role and
catalog pairs, record counts per checked catalog, and no charge."""

from __future__ import annotations

from typing import Any

import httpx

from leadwire.customs.candidates import match_names, name_key
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import running_worker
from tests.support.trade import ACME, BERLIN, HANOI, OSAKA, SHENZHEN

YEAR = {"start_date": "2024-01-01", "end_date": "2024-12-31"}


def test_a_name_key_drops_case_punctuation_and_legal_forms() -> None:
    assert name_key("ACME IMPORTS G.m.b.H.") == name_key("Acme Imports GmbH") == "acme imports"
    assert name_key("Ets. L.L.C. Dupont & Fils S.A.") == "ets dupont fils"
    assert name_key("Shenzhen Widget Co., Ltd.") == "shenzhen widget"
    assert name_key("The Co.") == "the co"  # nothing but legal words: keep them rather than nothing


def test_matching_finds_spellings_of_a_name_and_ignores_strangers() -> None:
    names = [ACME, BERLIN, HANOI, OSAKA, SHENZHEN, "Acme Logistics Ltd"]
    assert [m.name for m in match_names("acme imports", names)][:1] == [ACME]
    assert match_names("ACME IMPORTS GMBH", names)[0].score == 100.0
    assert [m.name for m in match_names("Shenzen Widget", names)][:1] == [SHENZHEN]  # a typo
    assert {m.name for m in match_names("acme", names)} >= {ACME, "Acme Logistics Ltd"}
    assert match_names("Zyxwv Holdings", names) == []
    assert match_names("GmbH", [ACME, BERLIN]) == []  # a legal form alone matches no company


async def _candidates(
    client: httpx.AsyncClient, runtime: Runtime, headers: dict[str, str], **body: Any
) -> Any:
    async with running_worker(runtime):
        response = await client.post(
            "/api/v2/customs/company-candidates",
            json={**YEAR, **body},
            headers={**headers, "Prefer": "wait=30"},
        )
    return assert_ok(response, 200)["item"]


async def test_candidates_route_over_pairs_and_count_per_catalog(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=0)  # candidates are free: no credits needed
    job = await _candidates(client, runtime, acct.headers, company_name="acme imports")
    assert job["status"] == "succeeded"
    assert job["billing"] == {"status": "not_billable", "charged_credits": 0, "pending_units": 0.0}
    result = job["result"]
    assert result["query"] == "acme imports" and result["date_range"] == {
        "start": "2024-01-01",
        "end": "2024-12-31",
    }
    assert result["routing_evidence"] == {
        "mode": "both_common_pairs",
        "company_role": None,
        "catalogs_checked": ["imports", "exports"],
    }
    assert "unverified" in result["identity_notice"]
    [acme] = result["candidates"]
    assert {k: acme[k] for k in ("name", "source", "countries", "company_ids", "identity_status")} == {
        "name": ACME,
        "source": "customs_records",
        "countries": ["DEU"],
        "company_ids": ["cmp_acme"],
        "identity_status": "unverified",
    }
    assert acme["trade_counts"] == {
        "start_date": "2024-01-01",
        "end_date": "2024-12-31",
        "company_role": "importer",
        "catalog": "imports",
        "imports_as_importer": 4,
        "total": 4,
        "queryable": True,
    }

    compared = await _candidates(
        client, runtime, acct.headers, company_name="Acme", company_role="importer", compare_catalogs=True
    )
    assert compared["result"]["routing_evidence"]["mode"] == "compare_catalogs"
    counts = compared["result"]["candidates"][0]["trade_counts"]
    assert (counts["imports_as_importer"], counts["exports_as_importer"], counts["total"]) == (4, 3, 7)

    cross = await _candidates(
        client,
        runtime,
        acct.headers,
        company_name="shenzhen widget",
        company_role="exporter",
        catalog="imports",
    )
    assert cross["result"]["routing_evidence"] == {
        "mode": "cross_pair",
        "company_role": "exporter",
        "catalogs_checked": ["imports"],
    }
    assert cross["result"]["candidates"][0]["trade_counts"]["imports_as_exporter"] == 3  # rows 1, 2, 6

    filled = await _candidates(
        client, runtime, acct.headers, company_name="Hanoi Textiles", catalog="exports"
    )
    [hanoi] = filled["result"]["candidates"]
    assert (
        hanoi["trade_counts"]["company_role"] == "exporter"
        and hanoi["trade_counts"]["exports_as_exporter"] == 1
    )

    elsewhere = await _candidates(client, runtime, acct.headers, company_name="Acme", country_codes="FRA,ITA")
    assert elsewhere["result"]["candidates"] == [] and elsewhere["result"]["total"] == 0
    german = await _candidates(client, runtime, acct.headers, company_name="Acme", country_codes="deu")
    assert [c["name"] for c in german["result"]["candidates"]] == [ACME]
    assert (await client.get("/api/v2/credits", headers=acct.headers)).json()["item"]["balance"] == 0
