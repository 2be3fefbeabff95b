"""The console's research and customs forms and a job's page over HTTP (SQLite and PostgreSQL): a form
starts the capability's job as the API would (its body checked, its codes shown, nothing written when
refused), and the job's page draws the result: public-web sources, contacts under their inferred
hierarchy as a nested tree, customs candidates with a trade-report button, and the report's trend as an
inline SVG chart beside its table. Another account's job is not found."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from leadwire.config import Settings
from leadwire.platform.runtime import Runtime
from tests.console.signing import csrf_of, sign_in
from tests.support.accounts import AccountFactory
from tests.support.jobs import job_count, running_worker
from tests.support.trade import ACME
from tests.support.trade_stores import load_world
from tests.support.world_rows import company_with_people

JOB_LINK = re.compile(r"/console/jobs/(job_\w+)")


async def _submit(client: httpx.AsyncClient, page: str, action: str, **fields: str) -> httpx.Response:
    form = await client.get(page)
    assert form.status_code == 200 and f'action="{action}"' in form.text
    return await client.post(action, data={"csrf": csrf_of(form.text), **fields})


async def _finished_page(client: httpx.AsyncClient, runtime: Runtime, created: httpx.Response) -> str:
    assert created.status_code == 303, created.text[:500]
    found = JOB_LINK.fullmatch(created.headers["location"])
    assert found, created.headers["location"]
    async with running_worker(runtime):
        for _ in range(50):
            page = await client.get(created.headers["location"])
            assert page.status_code == 200
            if 'http-equiv="refresh"' not in page.text:
                return page.text
    raise AssertionError("the job's page still waits")


async def test_public_web_and_contacts_from_the_research_page(
    world_client: httpx.AsyncClient, world_runtime: Runtime, indexed_world: Path
) -> None:
    owner = await AccountFactory(world_runtime).create(credits=200)
    await sign_in(world_client, owner.key)
    company = company_with_people(indexed_world)
    web = await _submit(
        world_client, "/console/research", "/console/research/public-web",
        queries=company["name"], search_limit="3",
    )  # fmt: skip
    sources = await _finished_page(world_client, world_runtime, web)
    assert "succeeded" in sources and sources.count("<li>") >= 1 and company["name"] in sources
    contacts = await _submit(
        world_client, "/console/research", "/console/research/contacts", domain=company["domain"], limit="10"
    )
    tree = await _finished_page(world_client, world_runtime, contacts)
    assert 'aria-label="Inferred hierarchy"' in tree
    nested = re.search(r'<ul class="tree"[^>]*>\s*<li>.*?<ul>\s*<li>', tree, re.S)
    assert nested, "the company is the root and its people hang under it"
    assert tree.count('class="person"') >= 1


async def test_a_refused_research_form_shows_the_code_and_starts_nothing(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    factory = AccountFactory(world_runtime)
    owner = await factory.create(credits=200)
    await sign_in(world_client, owner.key)
    before = await job_count(world_runtime)
    bad = await _submit(
        world_client, "/console/research", "/console/research/contacts", domain="not a domain"
    )
    assert bad.status_code == 400 and "invalid_domain" in bad.text
    too_many = await _submit(
        world_client, "/console/research", "/console/research/public-web", queries="a\nb\nc"
    )
    assert too_many.status_code == 400 and "invalid_request" in too_many.text
    forged = await world_client.post("/console/research/public-web", data={"csrf": "x", "queries": "a"})
    assert forged.status_code == 403
    free = await factory.create(credits=200, plan="free")
    await sign_in(world_client, free.key)
    tier = await _submit(
        world_client, "/console/research", "/console/research/contacts", domain="acme.example"
    )
    assert tier.status_code == 403 and "membership_tier_insufficient" in tier.text
    assert await job_count(world_runtime) == before


@pytest.fixture(scope="module")
def customs_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return load_world(tmp_path_factory.mktemp("customs") / "world")


async def test_candidates_lead_to_a_trade_report_drawn_as_a_chart(
    settings: Settings, customs_world: Path
) -> None:
    from leadwire.app import create_app
    from leadwire.platform.runtime import build_runtime
    from tests.support.lifespan import asgi_client

    runtime = await build_runtime(settings.model_copy(update={"world_dir": customs_world}))
    try:
        async with asgi_client(create_app(runtime=runtime)) as client:
            owner = await AccountFactory(runtime).create(credits=500)
            await sign_in(client, owner.key)
            found = await _submit(
                client, "/console/customs", "/console/customs/candidates",
                company_name="Acme Imports", start_date="2024-01-01", end_date="2024-12-31",
            )  # fmt: skip
            candidates = await _finished_page(client, runtime, found)
            assert ACME in candidates and 'action="/console/customs/report"' in candidates
            row = re.search(
                r'<form method="post" action="/console/customs/report".*?</form>', candidates, re.S
            )
            assert row
            fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', row.group(0)))
            assert fields["start_date"] == "2024-01-01" and fields["company_name"]
            report = await client.post("/console/customs/report", data=fields)
            drawn = await _finished_page(client, runtime, report)
            assert '<svg class="chart"' in drawn and drawn.count('class="bar"') == 12
            assert "The trend as a table" in drawn and "Counterparties" in drawn
            stranger = await AccountFactory(runtime).create()
            await sign_in(client, stranger.key)
            other = await client.get(report.headers["location"])
            assert other.status_code == 404 and "task_not_found" in other.text
    finally:
        await runtime.close()
