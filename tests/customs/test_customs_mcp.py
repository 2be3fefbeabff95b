"""The customs tools over MCP: the REST rules (published in their schemas, enforced with REST codes),
the plan gate, and the same jobs and billing."""

from __future__ import annotations

import httpx

from leadwire.platform.runtime import Runtime
from tests.mcp.test_mcp_server import call, error_text, rpc
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import running_worker
from tests.support.trade import ACME, OSAKA

YEAR = {"start_date": "2024-01-01", "end_date": "2024-12-31"}


async def test_tool_schemas_carry_the_request_rules(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    tools = (await rpc(client, acct.headers, "tools/list", {})).json()["result"]["tools"]
    schemas = {t["name"]: t["inputSchema"]["properties"] for t in tools if t["name"].startswith("customs_")}
    assert len(schemas) == 7
    search = schemas["customs_companies_search"]
    assert search["hs_code"]["anyOf"][0]["pattern"] == "^([0-9]{2}){1,5}$"
    assert search["company_role"]["enum"] == ["importer", "exporter"]
    assert (search["page_size"]["minimum"], search["page_size"]["maximum"]) == (1, 20)
    assert schemas["customs_trends"]["period_unit"]["enum"] == ["months", "quarters", "years"]
    filters = schemas["customs_trends"]["filters"]
    assert filters["type"] == "object" and set(filters["properties"]) == {
        "hs_code",
        "product_description",
        "origin_country_code",
        "destination_country_code",
    }


async def test_tools_run_the_jobs_with_the_rest_codes_and_plans(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=1000)
    section = {"company_name": ACME, "company_role": "importer", **YEAR}
    async with running_worker(runtime):
        result = await call(client, acct.headers, "customs_counterparties", **section, wait_seconds=20)
    job = result["structuredContent"]
    assert job["status"] == "succeeded" and job["action"] == "customs.counterparties"
    assert job["result"]["data"]["items"][0]["name"] == OSAKA
    assert job["billing"]["charged_credits"] == 11  # as over REST: 3 rows x 3.6
    polled = assert_ok(await client.get(f"/api/v2/jobs/{job['id']}", headers=acct.headers))["item"]
    assert polled["result"] == job["result"]

    assert "invalid_request: end_date" in error_text(
        await call(client, acct.headers, "customs_trade_report", **{**section, "end_date": "2025-03-01"})
    )
    assert "invalid_request: filters.hs_code" in error_text(
        await call(client, acct.headers, "customs_categories", **section, filters={"hs_code": "847"})
    )
    assert "invalid_request" in error_text(
        await call(client, acct.headers, "customs_companies_search", company_role="importer", **YEAR)
    )
    free = await accounts.create(plan="free", credits=1000)
    assert "membership_tier_insufficient" in error_text(
        await call(client, free.headers, "customs_company_candidates", company_name="Acme", **YEAR)
    )
