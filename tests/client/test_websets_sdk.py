"""The SDK's websets calls, sync and async, against the fake server of websets_fake.py: the plain calls
unwrap their envelopes; following a webset is the snapshot-then-stream procedure
(docs/api.md, Streams (server-sent events) and Last-Event-ID): every page read, the stream opened from
the FIRST page's checkpoint, overlap merged by id, removals, `complete` making items final; a `reset`
replaces the state with a fresh snapshot, a dropped stream resumes with Last-Event-ID, and Find More
posts with an Idempotency-Key (reused on retry) and follows its own stream from the checkpoint of the
snapshot taken just before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError, WebsetState, WebsetUpdate
from leadwire.client.sse import SSEDecoder
from tests.client.websets_fake import (
    BASE,
    KEY,
    PRELUDE,
    Conn,
    FakeWebsets,
    Snapshot,
    changed,
    complete,
    item,
    sse,
)

A = item("item_a", "Alpha Freight", "full", 90)
B = item("item_b", "Beta Cargo", "partial", 60)
C = item("item_c", "Gamma Lines", "partial", 50)
D = item("item_d", "Delta Haul", "partial", 70)
REJECTED = item("item_r", "Rho Rejects", "rejected", 10)

Start = Callable[[Any], Any]  # starts a follow on a Leadwire or AsyncLeadwire


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def run(
    mode: str, fake: FakeWebsets, start: Start, *, max_retries: int = 3
) -> tuple[WebsetState, list[Any]]:
    """Start a follow with the sync or the async client and iterate it to its end."""
    if mode == "sync":
        with Leadwire(KEY, BASE, transport=fake.transport, max_retries=max_retries) as lw:
            follow = start(lw)
            return follow.state, list(follow)
    async with AsyncLeadwire(KEY, BASE, transport=fake.transport, max_retries=max_retries) as alw:
        follow = start(alw)
        return follow.state, [update async for update in follow]


def params(request: Any) -> dict[str, str]:
    return dict(request.url.params)


async def test_follow_reads_every_page_streams_from_the_first_checkpoint_and_merges_by_id(mode: str) -> None:
    b_full = {**B, "match": {"status": "full", "score": 85}}
    c_again = {**C, "match": {"status": "partial", "score": 55}}
    stream = (
        PRELUDE
        + changed(
            11, 4, [b_full, D, REJECTED], split=True
        )  # B changes, D arrives, a rejected one is filtered
        + sse(
            12,
            "webset.strategy",
            {"webset_id": "ws_1", "readiness": "ready", "strategy": {"query_groups": []}},
        )
        + changed(13, 5, [c_again, {**A, "match": {"status": "rejected", "score": 30}}], removed=["item_d"])
        + ": ping\n\n"
        + complete(14, 6)
    )
    fake = FakeWebsets(Snapshot([A, B, C], checkpoints=[(10, 3), (12, 4)]), streams=[Conn(stream)])
    seen: list[str] = []

    state, updates = await run(
        mode, fake, lambda lw: lw.follow_webset("ws_1", on_change=lambda u: seen.append(u.kind))
    )

    pages, streamed = fake.sent("/items"), fake.sent("/items/stream")
    assert [params(r) for r in pages] == [
        {"match": "qualified", "detail": "compact", "limit": "50"},
        {"match": "qualified", "detail": "compact", "limit": "50", "cursor": "page-1"},
    ]
    assert len(streamed) == 1 and params(streamed[0]) == {"stream_cursor": "10", "items_revision": "3"}
    assert "last-event-id" not in streamed[0].headers
    assert streamed[0].headers["accept"] == "text/event-stream"
    kinds = ["snapshot", "items.changed", "webset.strategy", "items.changed", "complete"]
    assert [u.kind for u in updates] == kinds and seen == kinds
    assert (updates[1].changed, updates[1].removed) == (["item_b", "item_d"], [])
    assert (updates[3].changed, updates[3].removed) == (["item_c"], ["item_a", "item_d"])
    assert set(state.items) == {"item_b", "item_c"}
    assert state.items["item_b"]["match"] == {"status": "full", "score": 85}
    assert state.items["item_c"]["match"]["score"] == 55
    assert all(it["provisional"] is False for it in state.items.values())
    assert (state.webset_status, state.complete, state.stream_cursor, state.items_revision) == (
        "completed",
        True,
        14,
        6,
    )
    assert state.progress is not None and state.progress["verified"] == 13
    assert state.strategy is not None and state.strategy["readiness"] == "ready"
    assert [it["id"] for it in state.ranked()] == ["item_b", "item_c"]
    assert (state.resets, state.reconnects, state.retry_ms) == (0, 0, 5)


async def test_a_reset_replaces_the_state_with_a_fresh_snapshot_and_reconnects_from_it(mode: str) -> None:
    x = item("item_x", "Xi Transport", "full", 88)
    e, f = item("item_e", "Epsilon Ship", "full", 81), item("item_f", "Phi Logistics", "partial", 45)
    f_later = {**f, "match": {"status": "partial", "score": 65}}
    fresh = Snapshot([{**B, "match": {"status": "full", "score": 84}}, e, f], checkpoints=[(20, 7), (21, 8)])
    final = Snapshot(
        [{**it, "provisional": False} for it in (fresh.items[0], e, f_later)], [(22, 9)], status="completed"
    )
    first = PRELUDE + changed(11, 4, [x]) + sse(12, "reset", {"reason": "items_revision_expired"})
    second = PRELUDE + changed(21, 8, [f_later]) + complete(22, 9)
    fake = FakeWebsets(Snapshot([A, B], [(10, 3)]), [Conn(first, then=fresh), Conn(second, then=final)])

    state, updates = await run(mode, fake, lambda lw: lw.follow_webset("ws_1"))

    streamed = fake.sent("/items/stream")
    assert [params(r) for r in streamed] == [
        {"stream_cursor": "10", "items_revision": "3"},
        {"stream_cursor": "20", "items_revision": "7"},  # the fresh snapshot's first page
    ]
    assert "last-event-id" not in streamed[1].headers
    assert [u.kind for u in updates] == ["snapshot", "items.changed", "reset", "items.changed", "complete"]
    assert state.resets == 1 and "item_x" not in state.items and "item_a" not in state.items
    with Leadwire(KEY, BASE, transport=fake.transport) as lw:
        again = {it["id"]: it for it in lw.iter_webset_items("ws_1")}
    assert state.items == again and len(again) == 3


async def test_a_dropped_stream_resumes_with_last_event_id(mode: str) -> None:
    b, c = item("item_b", "Beta Cargo", "partial", 60), item("item_c", "Gamma Lines", "full", 95)
    broken = PRELUDE + changed(11, 4, [b]) + "id: 12\nevent: items.cha"  # the connection dies mid-event
    ended = PRELUDE + ": ping\n\n"  # ends without `complete`: also a dropped connection
    last = PRELUDE + changed(12, 5, [c]) + complete(13, 5)
    fake = FakeWebsets(Snapshot([A], [(10, 3)]), [Conn(broken, drop=True), Conn(ended), Conn(last)])

    state, _ = await run(mode, fake, lambda lw: lw.follow_webset("ws_1"))

    streamed = fake.sent("/items/stream")
    assert [r.headers.get("last-event-id") for r in streamed] == [None, "11", "11"]
    assert [params(r) for r in streamed][1:] == [{"stream_cursor": "11", "items_revision": "4"}] * 2
    assert set(state.items) == {"item_a", "item_b", "item_c"} and state.reconnects == 2
    assert state.complete and not any(it["provisional"] for it in state.items.values())


async def test_a_stream_that_keeps_dropping_raises_network_error(mode: str) -> None:
    fake = FakeWebsets(Snapshot([A], [(10, 3)]), [Conn(PRELUDE, drop=True), Conn(PRELUDE, drop=True)])
    with pytest.raises(LeadwireError) as caught:
        await run(mode, fake, lambda lw: lw.follow_webset("ws_1"), max_retries=1)
    assert (caught.value.status, caught.value.code) == (0, "network_error")
    assert len(fake.sent("/items/stream")) == 2


async def test_find_more_posts_with_a_reused_key_and_follows_its_own_stream(mode: str) -> None:
    c, d = item("item_c", "Gamma Lines", "full", 92), item("item_d", "Delta Haul", "partial", 41)
    run_stream = PRELUDE + changed(31, 6, [c, d], status="searching") + complete(32, 6)
    fake = FakeWebsets(
        Snapshot([{**A, "provisional": False}, {**B, "provisional": False}], [(30, 5)], status="completed"),
        streams=[Conn(run_stream)],
        find_more_failures=[503],
    )

    excluded = [{"source": "webset", "id": "ws_0"}]
    state, updates = await run(mode, fake, lambda lw: lw.find_more("ws_1", count=100, exclude=excluded))

    assert [(r.method, r.url.path.rsplit("/", 1)[-1]) for r in fake.requests] == [
        ("GET", "items"),
        ("POST", "find-more"),
        ("POST", "find-more"),
        ("GET", "stream"),
    ]
    posts = fake.sent("/find-more")
    keys = [r.headers.get("idempotency-key") for r in posts]
    assert keys[0] and keys[0].startswith("sdk-") and keys == [keys[0]] * 2
    assert [fake.bodies[fake.requests.index(r)] for r in posts] == [{"count": 100, "exclude": excluded}] * 2
    streamed = fake.sent("/find-more/stream")[0]
    assert params(streamed) == {"job_id": "job_fm1", "stream_cursor": "30", "items_revision": "5"}
    assert [u.kind for u in updates] == ["snapshot", "started", "items.changed", "complete"]
    assert state.job is not None and state.job["action"] == "websets.find_more"
    assert set(state.items) == {"item_a", "item_b", "item_c", "item_d"}
    assert state.webset_status == "completed" and not any(it["provisional"] for it in state.items.values())


async def test_find_more_can_be_awaited_or_waited_with_a_given_key(mode: str) -> None:
    fake = FakeWebsets(Snapshot([A], [(30, 5)]), [Conn(PRELUDE + complete(31, 5))])
    seen: list[str] = []

    async def record(update: WebsetUpdate) -> None:  # the async client awaits an async callback
        seen.append(update.kind)

    if mode == "sync":
        with Leadwire(KEY, BASE, transport=fake.transport) as lw:
            state = lw.find_more(
                "ws_1", idempotency_key="fm-1", on_change=lambda u: seen.append(u.kind)
            ).wait()
    else:
        async with AsyncLeadwire(KEY, BASE, transport=fake.transport) as alw:
            state = await alw.find_more("ws_1", idempotency_key="fm-1", on_change=record)
    assert seen == ["snapshot", "started", "complete"]
    assert fake.sent("/find-more")[0].headers["idempotency-key"] == "fm-1"
    assert fake.bodies[1] == {} and state.complete and set(state.items) == {"item_a"}


async def test_find_more_on_a_busy_webset_raises_webset_busy(mode: str) -> None:
    fake = FakeWebsets(Snapshot([A], [(30, 5)]), busy=True)
    with pytest.raises(LeadwireError) as caught:
        await run(mode, fake, lambda lw: lw.find_more("ws_1"))
    assert (caught.value.status, caught.value.code) == (409, "webset_busy")
    assert not fake.sent("/stream")


def test_plain_calls_send_the_contract_and_unwrap_envelopes() -> None:
    fake = FakeWebsets(Snapshot([A, B, C, REJECTED], [(10, 3), (11, 3)]))
    with Leadwire(KEY, BASE, transport=fake.transport) as lw:
        created = lw.create_webset("EU freight forwarders", count=100, target_kind="company", locale="en")
        page = lw.list_websets(limit=5, target_kind="company")
        webset, strategy = lw.get_webset("ws_1"), lw.webset_strategy("ws_1")
        one = lw.webset_items("ws_1", match="verified", detail="standard", limit=2)
        every = list(lw.iter_webset_items("ws_1", match="verified", limit=3))
        job = lw.start_find_more("ws_1", count=25)
        with pytest.raises(LeadwireError) as too_many:
            lw.webset_items("ws_1", detail="full", limit=11)
        with pytest.raises(LeadwireError) as missing:
            lw.get_webset("ws_nope")
    create = fake.requests[0]
    assert fake.bodies[0] == {
        "query": "EU freight forwarders",
        "count": 100,
        "target_kind": "company",
        "locale": "en",
    }
    assert create.headers["idempotency-key"].startswith("sdk-")
    assert created["webset"]["id"] == "ws_1" and created["preparation_job"]["status"] == "queued"
    assert params(fake.requests[1]) == {"limit": "5", "target_kind": "company"}
    assert page["next_cursor"] == "ws-page-2" and page["has_more"] and page["items"][0]["id"] == "ws_1"
    assert webset["progress"]["goal"] == 25 and strategy["strategy_ready"] is True
    assert [it["id"] for it in one["items"]] == ["item_a", "item_b"]
    extras = {
        k: one[k]
        for k in ("detail", "next_cursor", "has_more", "webset_status", "items_revision", "stream_cursor")
    }
    assert extras == {
        "detail": "standard",
        "next_cursor": "page-1",
        "has_more": True,
        "webset_status": "verifying",
        "items_revision": 3,
        "stream_cursor": 10,
    }
    assert [it["id"] for it in every] == ["item_a", "item_b", "item_c", "item_r"]
    assert job["id"] == "job_fm1" and fake.sent("/find-more")[0].headers["idempotency-key"]
    assert (too_many.value.status, too_many.value.param) == (400, "limit")
    assert missing.value.code == "webset_not_found"


async def test_async_items_iterate_every_page() -> None:
    fake = FakeWebsets(Snapshot([A, B, C], [(10, 3)]))
    async with AsyncLeadwire(KEY, BASE, transport=fake.transport) as alw:
        ids = [it["id"] async for it in alw.iter_webset_items("ws_1")]
        page = await alw.webset_items("ws_1", cursor="page-1")
    assert ids == ["item_a", "item_b", "item_c"] and [it["id"] for it in page["items"]] == ["item_c"]
    assert [params(r).get("cursor") for r in fake.sent("/items")] == [None, "page-1", "page-1"]


def test_an_unknown_match_filter_is_refused_before_any_request() -> None:
    fake = FakeWebsets(Snapshot([A], [(10, 3)]))
    with Leadwire(KEY, BASE, transport=fake.transport) as lw, pytest.raises(ValueError):
        lw.follow_webset("ws_1", match="maybe")
    assert fake.requests == []


def test_the_sse_decoder_follows_the_event_stream_format() -> None:
    decoder = SSEDecoder()
    lines = [
        ": ping",
        "retry: 250",
        "",
        "id: 7",
        "event: items.changed",
        'data: {"a":',
        "data: 1}",
        "",
        "data: no id here\r",
        "",
        "id: 8",
        "event: complete",
        "data: {}",
    ]
    events = [event for line in lines if (event := decoder.feed(line)) is not None]
    assert [(e.event, e.id, e.retry) for e in events] == [
        ("message", None, 250),
        ("items.changed", "7", None),
        ("message", "7", None),
    ]
    assert events[1].json() == {"a": 1} and events[2].data == "no id here"
    assert decoder.last_event_id == "8"  # the unfinished block is never dispatched
