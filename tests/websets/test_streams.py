"""The items streams against the real app: raw SSE (replay from a checkpoint, `reset`, a finished list)
and the SDK's snapshot-then-stream procedure (`follow_webset`, `find_more`) run while a worker builds
the list, ending with the same items as a fresh snapshot."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
import pytest

from leadwire.client import AsyncLeadwire, flows
from leadwire.platform.callers import Caller
from leadwire.platform.events import followers as follow
from leadwire.platform.plans import get_plan
from leadwire.platform.runtime import Runtime
from leadwire.websets import streams
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.websets.conftest import all_items, create_webset, discovery_times_out, wait_finished

BASE = "http://leadwire.test"


def sse_events(text: str) -> list[dict[str, Any]]:
    """The events of a finished SSE body: `event`, `id` and the JSON `data` of each (comments dropped)."""
    out = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line and not line.startswith(":") and ":" in line:
                name, _, value = line.partition(":")
                fields[name] = fields.get(name, "") + value.removeprefix(" ")
        if "event" in fields:
            out.append({"event": fields["event"], "id": fields.get("id"), "data": json.loads(fields["data"])})
    return out


async def finished_webset(
    client: httpx.AsyncClient, runtime: Runtime, acct: TestAccount, **body: Any
) -> dict[str, Any]:
    created = await create_webset(client, acct.headers, **body)
    async with running_worker(runtime):
        return await wait_finished(client, acct.headers, created["webset"]["id"])


async def first_page(client: httpx.AsyncClient, acct: TestAccount, webset_id: str, **params: Any) -> Any:
    return assert_ok(
        await client.get(f"/api/v2/websets/{webset_id}/items", params=params, headers=acct.headers)
    )


async def test_a_stream_from_before_the_run_replays_every_change_then_completes(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    acct = await AccountFactory(world_runtime).create()
    created = await create_webset(world_client, acct.headers, query="software companies", count=25)
    webset_id = created["webset"]["id"]
    before = await first_page(world_client, acct, webset_id)
    assert before["items"] == [] and before["webset_status"] == "generating_criteria"
    async with running_worker(world_runtime):
        await wait_finished(world_client, acct.headers, webset_id)
    checkpoint = {"stream_cursor": before["stream_cursor"], "items_revision": before["items_revision"]}
    response = await world_client.get(
        f"/api/v2/websets/{webset_id}/items/stream", params=checkpoint, headers=acct.headers
    )
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    events = sse_events(response.text)
    kinds = [e["event"] for e in events]
    assert kinds[-1] == "complete" and "webset.strategy" in kinds and "items.changed" in kinds
    assert all(e["id"] is not None for e in events)
    assert [int(e["id"]) for e in events] == sorted(int(e["id"]) for e in events)
    merged: dict[str, dict[str, Any]] = {}
    for event in events:
        for item in event["data"].get("items", []):
            merged[item["id"]] = item
    qualified = {i["id"] for i in merged.values() if i["match"]["status"] in ("full", "partial")}
    snapshot = await all_items(world_client, acct.headers, webset_id)
    assert qualified == {i["id"] for i in snapshot} and snapshot
    assert events[-1]["data"]["webset_status"] == "completed"


async def test_a_finished_list_streams_complete_at_once_with_its_checkpoint(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    acct = await AccountFactory(world_runtime).create()
    webset = await finished_webset(world_client, world_runtime, acct, count=25)
    page = await first_page(world_client, acct, webset["id"])
    for params in ({}, {"stream_cursor": page["stream_cursor"], "items_revision": page["items_revision"]}):
        response = await world_client.get(
            f"/api/v2/websets/{webset['id']}/items/stream", params=params, headers=acct.headers
        )
        [complete] = sse_events(response.text)
        assert complete["event"] == "complete"
        assert complete["data"]["stream_cursor"] == page["stream_cursor"]
        assert complete["data"]["items_revision"] == page["items_revision"]


@pytest.mark.parametrize(
    ("checkpoint", "reason"),
    [
        (lambda page: {"stream_cursor": page["stream_cursor"] + 1000}, "checkpoint_unknown"),
        (
            lambda page: {
                "stream_cursor": page["stream_cursor"],
                "items_revision": page["items_revision"] + 1,
            },
            "revision_mismatch",
        ),
    ],
    ids=["unknown", "revision"],
)
async def test_a_checkpoint_that_cannot_be_replayed_gets_reset(
    world_client: httpx.AsyncClient, world_runtime: Runtime, checkpoint: Any, reason: str
) -> None:
    acct = await AccountFactory(world_runtime).create()
    webset = await finished_webset(world_client, world_runtime, acct, count=25)
    page = await first_page(world_client, acct, webset["id"])
    response = await world_client.get(
        f"/api/v2/websets/{webset['id']}/items/stream", params=checkpoint(page), headers=acct.headers
    )
    assert sse_events(response.text) == [
        {"event": "reset", "id": str(page["stream_cursor"]), "data": {"reason": reason}}
    ]


class WrongRevisionOnce(httpx.AsyncBaseTransport):
    """Passes requests to the app, but opens the first items stream with a wrong `items_revision`, as a
    client holding a stale snapshot would: the server must answer `reset` and the SDK recover."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner, self.tampered, self.streams = inner, False, 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/stream"):
            self.streams += 1
            revision = request.url.params.get("items_revision")
            if not self.tampered and revision is not None:
                self.tampered = True
                request.url = request.url.copy_set_param("items_revision", str(int(revision) + 7))
        return await self.inner.handle_async_request(request)


@pytest.mark.parametrize("tamper", [False, True], ids=["plain", "forced_reset"])
async def test_follow_webset_ends_with_the_items_of_a_fresh_snapshot(
    world_client: httpx.AsyncClient,
    world_runtime: Runtime,
    monkeypatch: pytest.MonkeyPatch,
    tamper: bool,
) -> None:
    monkeypatch.setattr(flows, "SNAPSHOT_PAGE_SIZE", 4)  # several snapshot pages
    acct = await AccountFactory(world_runtime).create()
    inner = world_client._transport
    transport = WrongRevisionOnce(inner) if tamper else inner
    async with running_worker(world_runtime):
        created = await create_webset(world_client, acct.headers, query="software companies", count=25)
        webset_id = created["webset"]["id"]
        # Let a few items land first, so the first snapshot already spans pages.
        async with AsyncLeadwire(acct.key, BASE, transport=transport) as lw:
            kinds: list[str] = []
            state = await lw.follow_webset(webset_id, on_change=lambda update: kinds.append(update.kind))
    fresh = await all_items(world_client, acct.headers, webset_id)
    assert state.complete and state.webset_status == "completed"
    assert set(state.items) == {i["id"] for i in fresh} and fresh
    assert {i["id"]: i["match"]["status"] for i in state.items.values()} == {
        i["id"]: i["match"]["status"] for i in fresh
    }
    assert kinds[0] == "snapshot" and kinds[-1] == "complete"
    if tamper:
        assert state.resets == 1 and "reset" in kinds
        assert isinstance(transport, WrongRevisionOnce) and transport.streams >= 2


async def test_find_more_follows_its_run_to_more_items_without_repeats(
    world_client: httpx.AsyncClient, world_runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flows, "SNAPSHOT_PAGE_SIZE", 7)
    acct = await AccountFactory(world_runtime).create()
    # The small world has about 100 manufacturers: enough for a second run of 25.
    webset = await finished_webset(
        world_client, world_runtime, acct, query="manufacturing companies", count=25
    )
    before = await all_items(world_client, acct.headers, webset["id"])
    async with running_worker(world_runtime):
        async with AsyncLeadwire(acct.key, BASE, transport=world_client._transport) as lw:
            kinds: list[str] = []
            state = await lw.find_more(
                webset["id"], count=25, idempotency_key="more-1", on_change=lambda u: kinds.append(u.kind)
            )
        assert state.job is not None
        job = await poll_job(world_client, acct.headers, state.job["id"], until=("succeeded",))
    fresh = await all_items(world_client, acct.headers, webset["id"])
    got = assert_ok(await world_client.get(f"/api/v2/websets/{webset['id']}", headers=acct.headers))
    print("DEBUG", webset["progress"], job["result"], len(before), len(fresh), got["item"]["progress"])
    assert kinds[:2] == ["snapshot", "started"] and kinds[-1] == "complete"
    assert set(state.items) == {i["id"] for i in fresh}
    assert {i["id"] for i in before} < set(state.items), "Find More adds items and keeps the old ones"
    websites = [i["entity"].get("website") or i["entity"].get("domain") for i in fresh]
    assert len(websites) == len(set(websites)), "no company twice"
    assert job["billing"]["charged_credits"] == len(fresh) - len(before)


async def test_a_stream_whose_client_goes_away_leaves_no_task_read_or_connection(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    """The server cancels a stream's response when its client disconnects: the follower must leave no
    shared read, no task and no checked-out connection behind."""
    acct = await AccountFactory(world_runtime).create()
    created = await create_webset(world_client, acct.headers, count=25)
    webset_id = created["webset"]["id"]
    page = await first_page(world_client, acct, webset_id)
    engine = (world_runtime.read_engine or world_runtime.engine).sync_engine
    tasks_before = {t for t in asyncio.all_tasks() if not t.done()}
    got: list[str] = []

    async with world_runtime.reader() as session:
        opened = await streams.opening(session, webset_id, start=page["stream_cursor"], items_revision=None)
    caller = Caller(
        user_id=acct.user_id, key_id="", plan=get_plan("free"), scopes=frozenset({"websets:read"})
    )

    async def client() -> None:
        async for event in streams.events(world_runtime, opened, caller):
            got.append(event.event or "")

    listening = asyncio.create_task(client())
    await asyncio.sleep(0.3)  # replayed what there was; now waiting for live events
    listening.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await listening
    await asyncio.sleep(0.05)
    assert not follow._reads, "a shared read outlived its followers"
    leftover = {t for t in asyncio.all_tasks() if not t.done()} - tasks_before - {asyncio.current_task()}
    assert not leftover, leftover
    checked_out = getattr(engine.pool, "checkedout", lambda: 0)()
    assert checked_out == 0, f"{checked_out} connections still checked out"


async def test_a_run_whose_job_times_out_ends_the_list_failed_and_its_stream_with_complete(
    world_client: httpx.AsyncClient, world_runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handler cut off by its job's timeout cannot tell its list: the job's failure does (`on_fail`),
    so the list shows failed with the job's code and a stream of it ends instead of waiting forever."""
    discovery_times_out(monkeypatch)
    acct = await AccountFactory(world_runtime).create()
    created = await create_webset(world_client, acct.headers, query="software companies", count=25)
    webset_id = created["webset"]["id"]
    before = await first_page(world_client, acct, webset_id)
    async with running_worker(world_runtime):
        webset = await wait_finished(world_client, acct.headers, webset_id)
    assert webset["status"] == "failed" and webset["failure"]["code"] == "job_timeout"
    checkpoint = {"stream_cursor": before["stream_cursor"], "items_revision": before["items_revision"]}
    response = await world_client.get(
        f"/api/v2/websets/{webset_id}/items/stream", params=checkpoint, headers=acct.headers
    )
    events = sse_events(response.text)
    assert events[-1]["event"] == "complete" and events[-1]["data"]["webset_status"] == "failed"
    credits = assert_ok(await world_client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["reserved"] == 0
