"""The seven customs endpoints at the door: every invalid body is 400 with no job and no reservation,
plans and scopes are checked, and the reservation is the most the request can return."""

from __future__ import annotations

from typing import Any

import httpx

from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import job_count
from tests.support.trade import ACME

BASE = "/api/v2/customs"
DATES = {"start_date": "2024-01-01", "end_date": "2024-12-31"}
SECTION = {"company_name": ACME, "company_role": "importer", **DATES}
SEARCH = {"company_role": "importer", "hs_code": "8471", **DATES}
CANDIDATES = {"company_name": "Acme", **DATES}
SECTION_PATHS = ("counterparties", "categories", "trends", "countries", "trade-reports")

# (path, body, param) — every rule of the request models, through HTTP.
INVALID: list[tuple[str, dict[str, Any], str | None]] = [
    ("counterparties", {**SECTION, "start_date": "2024/01/01"}, "start_date"),
    ("counterparties", {**SECTION, "start_date": "2024-02-30"}, "start_date"),
    ("counterparties", {**SECTION, "end_date": "20241231"}, "end_date"),
    ("counterparties", {**SECTION, "end_date": "2023-12-31"}, "end_date"),
    ("counterparties", {**SECTION, "end_date": "2025-01-02"}, "end_date"),
    ("counterparties", {**SECTION, "company_name": "A"}, "company_name"),
    ("counterparties", {**SECTION, "company_name": "x" * 301}, "company_name"),
    ("counterparties", {**SECTION, "company_role": "buyer"}, "company_role"),
    ("counterparties", {**SECTION, "catalog": "both"}, "catalog"),
    ("counterparties", {**SECTION, "page": 0}, "page"),
    ("counterparties", {**SECTION, "page": 1001}, "page"),
    ("counterparties", {**SECTION, "period_unit": "weeks"}, "period_unit"),
    ("categories", {**SECTION, "filters": {"hs_code": "847"}}, "filters.hs_code"),
    ("categories", {**SECTION, "filters": {"hs_code": "8471,8472"}}, "filters.hs_code"),
    ("trends", {**SECTION, "filters": {"origin_country_code": "CN"}}, "filters.origin_country_code"),
    (
        "countries",
        {**SECTION, "filters": {"destination_country_code": "XXX"}},
        "filters.destination_country_code",
    ),
    ("trade-reports", {k: v for k, v in SECTION.items() if k != "company_role"}, "company_role"),
    ("companies/search", {**SEARCH, "hs_code": None, "company_role": "exporter"}, None),
    ("companies/search", {**SEARCH, "page_size": 21}, "page_size"),
    ("companies/search", {**SEARCH, "page_size": 0}, "page_size"),
    ("companies/search", {**SEARCH, "sort_by": "name"}, "sort_by"),
    ("companies/search", {**SEARCH, "sort_order": "up"}, "sort_order"),
    ("companies/search", {**SEARCH, "hs_code": "84 71"}, "hs_code"),
    ("companies/search", {**SEARCH, "origin_country_code": "DE"}, "origin_country_code"),
    ("companies/search", {**SEARCH, "end_date": "2025-06-01"}, "end_date"),
    ("company-candidates", {**CANDIDATES, "country_codes": "DEU,FR"}, "country_codes"),
    ("company-candidates", {**CANDIDATES, "page_size": 25}, "page_size"),
    ("company-candidates", {**CANDIDATES, "compare_catalogs": "yes"}, "compare_catalogs"),
    ("company-candidates", {k: v for k, v in CANDIDATES.items() if k != "start_date"}, "start_date"),
]


async def test_every_invalid_body_is_400_with_no_job_and_no_reservation(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=1000)
    for path, body, param in INVALID:
        response = await client.post(f"{BASE}/{path}", json=body, headers=acct.headers)
        assert_error(response, 400, "invalid_request", param=param)
    assert await job_count(runtime) == 0
    credits = assert_ok(await client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert (credits["available"], credits["reserved"]) == (1000, 0)


async def test_each_endpoint_creates_its_job_and_reserves_page_rows_at_their_price(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=1000)
    expected = {
        # path: (action, reservation for page_size 5: 5 rows x price, rounded up once)
        "company-candidates": ("customs.company_candidates", 0),
        "companies/search": ("customs.companies_search", 18),  # 5 x 3.6
        "counterparties": ("customs.counterparties", 18),
        "categories": ("customs.categories", 15),  # 5 x 3.0
        "trends": ("customs.trends", 18),
        "countries": ("customs.countries", 15),
        "trade-reports": ("customs.trade_report", 66),  # 5 x (3.6 + 3.0 + 3.6 + 3.0)
    }
    bodies = {"company-candidates": CANDIDATES, "companies/search": SEARCH}
    for path, (action, reserved) in expected.items():
        body = {**bodies.get(path, SECTION), "page_size": 5}
        item = assert_ok(await client.post(f"{BASE}/{path}", json=body, headers=acct.headers), 202)["item"]
        assert item["action"] == action and item["status"] == "queued" and "channel" not in item
        job = assert_ok(await client.get(f"/api/v2/jobs/{item['id']}", headers=acct.headers))["item"]
        billing = "not_billable" if reserved == 0 else "pending"
        assert job["billing"]["status"] == billing
        credits = assert_ok(await client.get("/api/v2/credits", headers=acct.headers))["item"]
        assert (credits["reserved"], credits["available"]) == (reserved, 1000 - reserved), path
        cancelled = assert_ok(await client.post(f"/api/v2/jobs/{item['id']}/cancel", headers=acct.headers))
        assert cancelled["item"]["status"] == "cancelled"
    # A section's page_size out of range is set to the boundary, not refused: 20 rows reserved.
    item = assert_ok(
        await client.post(f"{BASE}/countries", json={**SECTION, "page_size": 500}, headers=acct.headers), 202
    )["item"]
    assert (await client.get("/api/v2/credits", headers=acct.headers)).json()["item"]["reserved"] == 60
    job = assert_ok(await client.get(f"/api/v2/jobs/{item['id']}", headers=acct.headers))["item"]
    assert job["status"] == "queued"


async def test_plans_scopes_and_credits_are_checked_before_any_job(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    free = await accounts.create(plan="free", credits=1000)
    response = await client.post(f"{BASE}/counterparties", json=SECTION, headers=free.headers)
    assert_error(response, 403, "membership_tier_insufficient")
    pro = await accounts.create(plan="pro", credits=1000)
    assert_ok(await client.post(f"{BASE}/company-candidates", json=CANDIDATES, headers=pro.headers), 202)
    reader = await accounts.key(pro.user_id, scopes=["customs:read"])
    response = await client.post(f"{BASE}/counterparties", json=SECTION, headers=reader.headers)
    assert_error(response, 403, "permission_denied")
    poor = await accounts.create(credits=263)  # a full trade report reserves 20 x 13.2 = 264
    response = await client.post(f"{BASE}/trade-reports", json=SECTION, headers=poor.headers)
    assert_error(response, 402, "insufficient_credits")
    assert await job_count(runtime) == 1  # pro's candidates job only


async def test_an_idempotency_key_gives_one_job(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create(credits=1000)
    headers = {**acct.headers, "Idempotency-Key": "report-acme-2024"}
    first = assert_ok(await client.post(f"{BASE}/trade-reports", json=SECTION, headers=headers), 202)
    again = await client.post(f"{BASE}/trade-reports", json=SECTION, headers=headers)
    assert again.status_code == 202 and again.json()["item"]["id"] == first["item"]["id"]  # the stored reply
    other = {**SECTION, "company_role": "exporter"}
    assert_error(
        await client.post(f"{BASE}/trade-reports", json=other, headers=headers), 409, "idempotency_conflict"
    )
