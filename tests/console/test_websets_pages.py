"""The console's prospect-list pages over HTTP (SQLite and PostgreSQL): a list created from the form
fills while its live stream sends each released item as a page fragment; the page shows every item the
API's snapshot has, each with its per-criterion evidence; the band filter, the CSV export (the API's
file) and Find More; a form's refusal shows the API's code and writes nothing; another account's list
is not found on any of its routes."""

from __future__ import annotations

import re

import httpx

from leadwire.platform.runtime import Runtime
from tests.console.signing import csrf_of, sign_in
from tests.support.accounts import AccountFactory
from tests.support.jobs import job_count, running_worker
from tests.websets.conftest import all_items, wait_finished

LIST_LINK = re.compile(r"/console/websets/(ws_\w+)")


def _swapped_ids(body: str) -> list[str]:
    """The item ids the `swap` events of a finished live stream added (in order, each once)."""
    seen: list[str] = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        if "event: swap" not in block:
            continue
        for found in re.findall(r'<li id="item-(\w+)" data-into', block):
            if found not in seen:
                seen.append(found)
    return seen


async def _new_list(client: httpx.AsyncClient, query: str, count: int = 25) -> str:
    form = await client.get("/console/websets")
    assert form.status_code == 200 and 'name="query"' in form.text
    created = await client.post(
        "/console/websets",
        data={"csrf": csrf_of(form.text), "query": query, "count": str(count), "target_kind": "company"},
    )
    assert created.status_code == 303, created.text
    found = LIST_LINK.fullmatch(created.headers["location"])
    assert found, created.headers["location"]
    return found.group(1)


async def test_a_list_made_in_the_console_fills_live_and_shows_each_items_evidence(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    owner = await AccountFactory(world_runtime).create(credits=500)
    await sign_in(world_client, owner.key)
    webset_id = await _new_list(world_client, "software companies")
    page = await world_client.get(f"/console/websets/{webset_id}")
    assert page.status_code == 200 and "Following the list as it fills" in page.text
    live = re.search(r'data-live="([^"]+)"', page.text)
    assert live, page.text
    stream_url = live.group(1).replace("&amp;", "&")
    async with running_worker(world_runtime):
        await wait_finished(world_client, owner.headers, webset_id)
    # The stream opened from the page's checkpoint replays all the run sent, then ends.
    streamed = await world_client.get(stream_url)
    assert streamed.status_code == 200 and streamed.headers["content-type"].startswith("text/event-stream")
    qualified = [item["id"] for item in await all_items(world_client, owner.headers, webset_id)]
    assert qualified and sorted(_swapped_ids(streamed.text)) == sorted(qualified)
    assert 'id="progress"' in streamed.text and 'id="strategy"' in streamed.text
    assert streamed.text.rstrip().endswith("event: end\r\ndata:") or "event: end" in streamed.text
    done = await world_client.get(f"/console/websets/{webset_id}")
    assert "data-live" not in done.text and "Find More" in done.text
    shown = re.findall(r'<li id="item-(\w+)" data-into', done.text)
    assert shown == qualified[: len(shown)] and len(shown) == min(25, len(qualified))
    assert done.text.count('<details class="evidence">') == len(shown)
    assert re.search(r"<strong>(yes|no|unclear)</strong> · ", done.text)


async def test_the_band_filter_the_csv_export_and_find_more(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    owner = await AccountFactory(world_runtime).create(credits=500)
    await sign_in(world_client, owner.key)
    webset_id = await _new_list(world_client, "software companies")
    async with running_worker(world_runtime):
        await wait_finished(world_client, owner.headers, webset_id)
    rejected = {i["id"] for i in await all_items(world_client, owner.headers, webset_id, match="rejected")}
    page = await world_client.get(f"/console/websets/{webset_id}", params={"match": "rejected"})
    shown = set(re.findall(r'<li id="item-(\w+)" data-into', page.text))
    assert shown <= rejected and len(shown) == min(25, len(rejected))
    assert 'aria-current="page">rejected<' in page.text
    exported = await world_client.get(f"/console/websets/{webset_id}/export")
    from_api = await world_client.get(f"/api/v2/websets/{webset_id}/export", headers=owner.headers)
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/csv")
    assert exported.text == from_api.text and exported.text.count("\n") > 1
    more = await world_client.post(
        f"/console/websets/{webset_id}/find-more", data={"csrf": csrf_of(page.text), "count": "25"}
    )
    assert more.status_code == 303
    state = (await world_client.get(f"/api/v2/websets/{webset_id}", headers=owner.headers)).json()["item"]
    assert state["status"] not in ("completed", "failed", "cancelled")
    again = await world_client.post(
        f"/console/websets/{webset_id}/find-more", data={"csrf": csrf_of(page.text), "count": "25"}
    )
    assert again.status_code == 409 and "webset_busy" in again.text


async def test_a_refused_form_shows_the_apis_code_and_writes_nothing(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    factory = AccountFactory(world_runtime)
    owner = await factory.create(credits=500, plan="free")
    await sign_in(world_client, owner.key)
    form = await world_client.get("/console/websets")
    token, before = csrf_of(form.text), await job_count(world_runtime)
    blank = await world_client.post("/console/websets", data={"csrf": token, "query": "  ", "count": "25"})
    assert blank.status_code == 400 and "webset_query_required" in blank.text
    too_many = await world_client.post(
        "/console/websets", data={"csrf": token, "query": "banks", "count": "100"}
    )
    assert too_many.status_code == 403 and "webset_count_not_available_for_tier" in too_many.text
    forged = await world_client.post("/console/websets", data={"csrf": "forged", "query": "banks"})
    assert forged.status_code == 403
    reader = await factory.key(owner.user_id, scopes=["websets:read"])
    await sign_in(world_client, reader.key)
    read_only = await world_client.get("/console/websets")
    assert read_only.status_code == 200 and 'name="query"' not in read_only.text
    refused = await world_client.post(
        "/console/websets", data={"csrf": csrf_of(read_only.text), "query": "banks", "count": "25"}
    )
    assert refused.status_code == 403 and "permission_denied" in refused.text
    assert await job_count(world_runtime) == before
    listed = (await world_client.get("/api/v2/websets", headers=owner.headers)).json()
    assert listed["items"] == []


async def test_another_accounts_list_is_not_found_on_every_console_route(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    factory = AccountFactory(world_runtime)
    owner, stranger = await factory.create(credits=500), await factory.create(credits=500)
    await sign_in(world_client, owner.key)
    webset_id = await _new_list(world_client, "software companies")
    await sign_in(world_client, stranger.key)
    page = await world_client.get("/console/websets")
    assert webset_id not in page.text
    token = csrf_of(page.text)
    for response in (
        await world_client.get(f"/console/websets/{webset_id}"),
        await world_client.get(f"/console/websets/{webset_id}/live"),
        await world_client.get(f"/console/websets/{webset_id}/export"),
        await world_client.post(f"/console/websets/{webset_id}/find-more", data={"csrf": token}),
    ):
        assert response.status_code == 404, (response.request.url, response.text[:300])


async def test_a_lists_page_names_its_enrichment_columns_in_each_items_evidence_and_its_monitors(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    owner = await AccountFactory(world_runtime).create(credits=5000)
    employees = {"description": "Number of employees", "format": "number"}
    created = await world_client.post(
        "/api/v2/websets",
        json={"query": "software companies", "count": 25, "enrichments": [employees]},
        headers=owner.headers,
    )
    webset_id = created.json()["item"]["webset"]["id"]
    async with running_worker(world_runtime):
        await wait_finished(world_client, owner.headers, webset_id)
    monitor = await world_client.post(
        "/api/v2/monitors",
        json={"webset_id": webset_id, "cadence": {"cron": "0 9 * * 1", "timezone": "Europe/Berlin"}},
        headers=owner.headers,
    )
    assert monitor.status_code == 201, monitor.text
    await sign_in(world_client, owner.key)
    page = await world_client.get(f"/console/websets/{webset_id}")
    assert "Column <strong>Number of employees</strong>" in page.text
    assert "<code>0 9 * * 1</code> Europe/Berlin" in page.text
    assert page.text.count("<li>Number of employees: ") >= 1  # a cell under its column's name
