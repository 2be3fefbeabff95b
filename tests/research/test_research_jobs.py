"""Research jobs end to end on the sandbox world: results in their documented shape
(docs/api.md, Public-web research) and (docs/api.md, Company contacts), billing per source and per
contact with an email (docs/api.md, Credits and per-row billing)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import pytest

from leadwire.platform.runtime import Runtime
from leadwire.providers.contacts import ContactsProviderError
from leadwire.providers.search import SearchProviderError, SearchRequest, SearchSource
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import running_worker
from tests.support.world_rows import company_with_people

SOURCE_FIELDS = {"url", "title", "published_date", "author", "image", "highlights", "text"}


async def _run(
    client: httpx.AsyncClient, runtime: Runtime, headers: dict[str, str], path: str, body: dict
) -> dict:
    async with running_worker(runtime):
        response = await client.post(path, json=body, headers={**headers, "Prefer": "wait=30"})
    return assert_ok(response, 200)["item"]


async def test_public_web_returns_sources_and_bills_per_source(
    world_client: httpx.AsyncClient, world_runtime: Runtime, indexed_world: Path
) -> None:
    acct = await AccountFactory(world_runtime).create(credits=100)
    company = company_with_people(indexed_world)
    body = {"queries": [f"{company['industry']} {company['city']}", company["name"]], "search_limit": 3}
    job = await _run(world_client, world_runtime, acct.headers, "/api/v2/research/public-web", body)
    assert job["status"] == "succeeded"
    result = job["result"]
    assert result["status"] == "complete" and result["errors"] == []
    assert result["queries"] == body["queries"] and result["searched_queries"] == body["queries"]
    assert result["results_per_query"] == 3
    sources = [s for r in result["results"] for s in r["sources"]]
    assert sources and all(set(s) == SOURCE_FIELDS for s in sources)
    assert all(len(r["sources"]) <= 3 for r in result["results"])
    assert job["billing"] == {"status": "settled", "charged_credits": len(sources), "pending_units": 0.0}
    credits = assert_ok(await world_client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["balance"] == 100 - len(sources) and credits["reserved"] == 0


async def test_public_web_include_domains_keeps_only_that_site(
    world_client: httpx.AsyncClient, world_runtime: Runtime, indexed_world: Path
) -> None:
    acct = await AccountFactory(world_runtime).create(credits=100)
    company = company_with_people(indexed_world)
    body = {"queries": [company["name"]], "include_domains": [company["domain"]]}
    job = await _run(world_client, world_runtime, acct.headers, "/api/v2/research/public-web", body)
    sources = job["result"]["results"][0]["sources"]
    hosts = {s["url"].split("/")[2] for s in sources}
    assert hosts and all(h == company["domain"] or h.endswith("." + company["domain"]) for h in hosts)


class _HalfBrokenSearch:
    """An upstream that fails one query: the research result must say `partial`."""

    async def search(self, request: SearchRequest) -> list[SearchSource]:
        if "boom" in request.query:
            raise SearchProviderError(
                "search_provider_unavailable", "local index: no such table: documents_fts"
            )
        return [SearchSource(url="https://a.example/x", title="A", highlights=["a"], text="a")]


async def test_one_failed_query_makes_the_result_partial(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    runtime.adapters["search"] = _HalfBrokenSearch()
    acct = await accounts.create(credits=100)
    async with running_worker(runtime):
        response = await client.post(
            "/api/v2/research/public-web",
            json={"queries": ["fine", "boom"]},
            headers={**acct.headers, "Prefer": "wait=20"},
        )
    job = assert_ok(response, 200)["item"]
    result = job["result"]
    assert result["status"] == "partial" and result["searched_queries"] == ["fine"]
    assert result["errors"] == [{"query": "boom", "code": "search_provider_unavailable"}]
    assert job["billing"]["charged_credits"] == 1


async def test_every_query_failing_fails_the_job_with_the_providers_detail(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, caplog: pytest.LogCaptureFixture
) -> None:
    runtime.adapters["search"] = _HalfBrokenSearch()
    acct = await accounts.create(credits=100)
    async with running_worker(runtime):
        response = await client.post(
            "/api/v2/research/public-web",
            json={"queries": ["boom"]},
            headers={**acct.headers, "Prefer": "wait=20"},
        )
    created = assert_ok(response, 200)
    job = assert_ok(await client.get(f"/api/v2/jobs/{created['item']['id']}", headers=acct.headers))["item"]
    assert job["status"] == "failed" and job["result"] is None
    assert job["error"] == {
        "code": "search_provider_unavailable",
        "detail": "local index: no such table: documents_fts",
    }
    assert created["item"]["error"] == job["error"]
    assert job["billing"]["charged_credits"] == 0
    # The operator sees why, with the job's id and the request that created it: the provider's words.
    request_id = created["request_id"]
    records = [r for r in caplog.records if r.name == "leadwire.worker" and job["id"] in r.getMessage()]
    assert [r.getMessage() for r in records] == [
        f"job {job['id']} (research.public_web) failed: search_provider_unavailable: "
        f"local index: no such table: documents_fts request_id={request_id}"
    ]
    assert getattr(records[0], "request_id", None) == request_id


class _DownContacts:
    """A contacts provider that cannot be reached."""

    async def domain_search(self, domain: str, **kwargs: object) -> object:
        raise ContactsProviderError("contacts_provider_unavailable", "HTTP 503")


async def test_a_contacts_provider_failure_fails_the_job_with_its_detail(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    runtime.adapters["contacts"] = _DownContacts()
    acct = await accounts.create(credits=100)
    async with running_worker(runtime):
        response = await client.post(
            "/api/v2/research/contacts",
            json={"domain": "acme.example"},
            headers={**acct.headers, "Prefer": "wait=20"},
        )
    job_id = assert_ok(response, 200)["item"]["id"]
    job = assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=acct.headers))["item"]
    assert job["status"] == "failed"
    assert job["error"] == {"code": "contacts_provider_unavailable", "detail": "HTTP 503"}


async def test_contacts_on_a_world_company(
    world_client: httpx.AsyncClient, world_runtime: Runtime, indexed_world: Path
) -> None:
    acct = await AccountFactory(world_runtime).create(credits=100)
    company = company_with_people(indexed_world)
    body = {"domain": f"https://www.{company['domain']}/team", "limit": 50}
    job = await _run(world_client, world_runtime, acct.headers, "/api/v2/research/contacts", body)
    result = job["result"]
    assert result["status"] == "done" and result["domain"] == company["domain"]
    assert result["company_name"] == company["name"]
    contacts = result["contacts"]
    assert contacts and set(contacts[0]) == {
        "email",
        "status",
        "position",
        "first_name",
        "last_name",
        "full_name",
        "linkedin_url",
    }
    assert result["nodes"][0]["kind"] == "company" and result["nodes"][0]["sort_order"] == 0
    assert len(result["nodes"]) == len(contacts) + 1
    node_ids = {n["id"] for n in result["nodes"]}
    for edge in result["edges"]:
        assert {edge["from"], edge["to"]} <= node_ids and 0 <= edge["confidence"] <= 1
    assert "title" in result["note"].lower()
    with_email = sum(1 for c in contacts if c["email"])
    assert job["billing"]["charged_credits"] == with_email


async def test_contacts_of_an_unknown_domain_is_no_result(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    acct = await AccountFactory(world_runtime).create(credits=100)
    job = await _run(
        world_client,
        world_runtime,
        acct.headers,
        "/api/v2/research/contacts",
        {"domain": "nobody-here.example"},
    )
    assert job["status"] == "succeeded"
    assert job["result"]["status"] == "no_result" and job["result"]["contacts"] == []
    assert job["billing"]["charged_credits"] == 0


async def test_contacts_position_filter_and_zh_locale(
    world_client: httpx.AsyncClient, world_runtime: Runtime, indexed_world: Path
) -> None:
    acct = await AccountFactory(world_runtime).create(credits=100)
    con = sqlite3.connect(f"file:{indexed_world / 'world.db'}?mode=ro", uri=True)
    row = con.execute(
        "SELECT c.domain FROM companies c JOIN people p ON p.company_id = c.id "
        "WHERE c.country = 'CN' AND p.title_zh IS NOT NULL GROUP BY c.id HAVING count(*) >= 3 LIMIT 1"
    ).fetchone()
    con.close()
    assert row is not None, "the small world has Chinese companies"
    job = await _run(
        world_client,
        world_runtime,
        acct.headers,
        "/api/v2/research/contacts",
        {"domain": row[0], "locale": "zh", "limit": 50},
    )
    positions = [c["position"] for c in job["result"]["contacts"]]
    assert positions and any(any("\u4e00" <= ch <= "\u9fff" for ch in p or "") for p in positions)
