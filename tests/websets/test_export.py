"""Exports: a list's items as CSV or JSON lines, every page, in list order, with a column per criterion;
the codes of a bad export; the stream bound (SQLite and PostgreSQL)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import httpx
import pytest

from leadwire.app import create_app
from leadwire.platform.runtime import Runtime
from leadwire.websets import export
from leadwire.websets.export import json_line
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import running_worker
from tests.support.lifespan import served
from tests.websets.conftest import all_items, create_webset, wait_finished
from tests.websets.test_stream_bounds import open_stream, until

QUERY = "chemical companies in Switzerland"


async def _finished_list(client: httpx.AsyncClient, runtime: Runtime, headers: dict[str, str]) -> str:
    async with running_worker(runtime):
        webset_id = str((await create_webset(client, headers, query=QUERY, count=25))["webset"]["id"])
        await wait_finished(client, headers, webset_id)
    return webset_id


async def test_a_csv_export_holds_every_item_with_a_verdict_per_criterion(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "PAGE_ROWS", 4)  # several pages, each its own read
    acct = await AccountFactory(pool_runtime).create(credits=200)
    webset_id = await _finished_list(pool_client, pool_runtime, acct.headers)
    items = await all_items(
        pool_client, acct.headers, webset_id, match="verified", detail="standard", limit=25
    )
    webset = assert_ok(await pool_client.get(f"/api/v2/websets/{webset_id}", headers=acct.headers))["item"]

    response = await pool_client.get(
        f"/api/v2/websets/{webset_id}/export", params={"match": "verified"}, headers=acct.headers
    )

    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"] == f'attachment; filename="{webset_id}-verified.csv"'
    rows = list(csv.DictReader(io.StringIO(response.text)))
    criteria = [f"criterion: {c['description']}" for c in webset["criteria"]]
    assert list(rows[0])[-len(criteria) - 2 :] == ["match_status", "score", *criteria]
    assert [r["id"] for r in rows] == [i["id"] for i in items]
    for row, item in zip(rows, items, strict=True):
        assert row["name"] == item["entity"]["name"] and row["domain"] == item["entity"]["domain"]
        assert row["match_status"] == item["match"]["status"]
        assert float(row["score"]) == item["match"]["score"]
        verdicts = {c["criterion_id"]: c["verdict"] for c in item["criteria"]}
        assert [row[c] for c in criteria] == [verdicts[c["id"]] for c in webset["criteria"]]


async def test_a_jsonl_export_is_the_items_at_full_detail(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    webset_id = await _finished_list(pool_client, pool_runtime, acct.headers)
    items = await all_items(pool_client, acct.headers, webset_id, detail="full", limit=10)

    response = await pool_client.get(
        f"/api/v2/websets/{webset_id}/export", params={"format": "jsonl"}, headers=acct.headers
    )

    assert response.headers["content-type"] == "application/x-ndjson"
    assert [json.loads(line) for line in response.text.splitlines()] == items


@pytest.mark.parametrize(
    ("params", "param"),
    [({"format": "xlsx"}, "format"), ({"match": "best"}, "match")],
    ids=["format", "match"],
)
async def test_a_bad_export_query_is_invalid_request(
    client: httpx.AsyncClient, runtime: Runtime, params: dict[str, str], param: str
) -> None:
    acct = await AccountFactory(runtime).create()
    webset_id = (await create_webset(client, acct.headers))["webset"]["id"]
    response = await client.get(f"/api/v2/websets/{webset_id}/export", params=params, headers=acct.headers)
    assert_error(response, 400, "invalid_request", param=param)


async def test_another_accounts_list_is_webset_not_found(client: httpx.AsyncClient, runtime: Runtime) -> None:
    owner, other = await AccountFactory(runtime).create(), await AccountFactory(runtime).create()
    webset_id = (await create_webset(client, owner.headers))["webset"]["id"]
    response = await client.get(f"/api/v2/websets/{webset_id}/export", headers=other.headers)
    assert_error(response, 404, "webset_not_found")


def test_a_json_line_is_one_line_to_every_line_reader() -> None:
    text = "a\u2028b\u2029c\x85d\ne"
    line = json_line({"description": text})
    assert line.endswith(b"\n") and len(line.decode().splitlines()) == 1
    assert json.loads(line) == {"description": text}


async def test_an_export_holds_a_stream_slot_while_it_runs_and_gives_it_back(world_runtime: Runtime) -> None:
    world_runtime.stream_slots.per_key = 1
    acct = await AccountFactory(world_runtime).create()
    async with (
        served(create_app(runtime=world_runtime)) as base,
        httpx.AsyncClient(base_url=base, timeout=10) as http,
    ):
        webset_id = (await create_webset(http, acct.headers))["webset"]["id"]  # no worker: stays open
        async with open_stream(http, acct, webset_id) as stream:
            assert stream.status_code == 200
            refused = await http.get(f"/api/v2/websets/{webset_id}/export", headers=acct.headers)
            assert_error(refused, 429, "api_key_rate_limit_exceeded")
        await until(lambda: world_runtime.stream_slots.open_streams() == 0)  # the server saw it close
        for _ in range(2):  # the stream's slot is back, and so is each export's
            exported = await http.get(f"/api/v2/websets/{webset_id}/export", headers=acct.headers)
            assert exported.status_code == 200 and exported.text.startswith("id,name,domain,")
    assert world_runtime.stream_slots.open_streams() == 0


async def test_an_export_that_fails_midway_cuts_the_connection_rather_than_end_short(
    pool_runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    async with (
        served(create_app(runtime=pool_runtime)) as base,
        httpx.AsyncClient(base_url=base, timeout=10) as http,
    ):
        webset_id = await _finished_list(http, pool_runtime, acct.headers)
        monkeypatch.setattr(export, "PAGE_ROWS", 4)
        real_page, calls = export._page, []

        async def failing_second_page(*args: Any) -> Any:
            calls.append(args)
            if len(calls) == 2:
                raise RuntimeError("the database went away")
            return await real_page(*args)

        monkeypatch.setattr(export, "_page", failing_second_page)
        received = b""
        with pytest.raises(httpx.RemoteProtocolError):
            async with http.stream("GET", f"/api/v2/websets/{webset_id}/export", headers=acct.headers) as r:
                assert r.status_code == 200
                async for chunk in r.aiter_bytes():
                    received += chunk
    assert received.count(b"\r\n") == 5  # the header and the first page, and no end of the body
    assert pool_runtime.stream_slots.open_streams() == 0


async def _list_of(runtime: Runtime, client: httpx.AsyncClient, acct: Any, items: int) -> str:
    """A list of `items` items. Discovery over a test world cannot find tens of thousands, so the
    list is created through the API and its items added as discovery adds them, through the model."""
    from leadwire.platform.db import transaction
    from leadwire.platform.ids import new_id
    from leadwire.platform.time import utcnow
    from leadwire.websets.models import WebsetItem

    webset_id = str((await create_webset(client, acct.headers))["webset"]["id"])
    now = utcnow()
    for start in range(0, items, 2000):
        async with transaction(runtime.sessionmaker) as session:
            session.add_all(
                WebsetItem(
                    id=new_id("item"),
                    webset_id=webset_id,
                    entity_key=f"company-{n}.example",
                    position=n + 1,
                    run_number=1,
                    target_kind="company",
                    entity={
                        "name": f"Company {n}",
                        "domain": f"company-{n}.example",
                        "description": "x" * 400,
                    },
                    match_status="full",
                    score=90.0,
                    evaluations=[],
                    released=True,
                    created_at=now,
                    updated_at=now,
                )
                for n in range(start, min(items, start + 2000))
            )
    return webset_id


async def test_an_export_s_memory_does_not_follow_the_list_s_size(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    import tracemalloc

    acct = await AccountFactory(runtime).create()
    peaks, sizes = {}, (500, 5_000)
    for size in sizes:
        webset_id = await _list_of(runtime, client, acct, size)
        what = export.Export(webset_id, "company", (), "qualified", "jsonl")
        tracemalloc.start()
        try:
            written = sum([len(chunk) async for chunk in export.chunks(runtime.reader, what)])
            peaks[size] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert written > size * 400
    # Ten times the items (one page, then ten), well under twice the memory: never the whole list.
    assert peaks[5_000] < 2 * peaks[500], peaks
