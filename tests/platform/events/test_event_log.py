"""The event log: ordered replay from a checkpoint, live following, serialised appends, pruning."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update

from leadwire.platform.db import transaction
from leadwire.platform.events import log
from leadwire.platform.events.followers import follow
from leadwire.platform.events.models import Event
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow


async def _append(runtime: Runtime, topic: str, type_: str, n: int) -> int:
    async with transaction(runtime.sessionmaker) as session:
        return await log.append(session, runtime.notifier, topic, type_, {"n": n})


async def test_replay_from_a_checkpoint_in_order(runtime: Runtime) -> None:
    seqs = [await _append(runtime, "webset:a", "items.changed", n) for n in range(5)]
    await _append(runtime, "webset:b", "items.changed", 99)  # another topic: not replayed
    assert seqs == sorted(seqs) and len(set(seqs)) == 5
    async with transaction(runtime.sessionmaker) as session:
        replay = await log.read_after(session, "webset:a", seqs[1])
        latest = await log.latest_seq(session, "webset:a")
    assert [e.payload["n"] for e in replay] == [2, 3, 4]
    assert latest == seqs[-1]


async def test_follower_gets_live_events_and_stops_at_complete(runtime: Runtime) -> None:
    start = await _append(runtime, "webset:live", "items.changed", 0)
    received: list[Event] = []

    async def consume() -> None:
        async for event in follow(runtime, "webset:live", start, until=lambda e: e.type == "complete"):
            received.append(event)

    consumer = asyncio.create_task(consume())
    await asyncio.sleep(0.1)
    for n in range(1, 4):
        await _append(runtime, "webset:live", "items.changed", n)
    await _append(runtime, "webset:live", "complete", 4)
    await asyncio.wait_for(consumer, timeout=10)
    assert [e.payload["n"] for e in received] == [1, 2, 3, 4]
    assert received[-1].type == "complete"


async def test_concurrent_appends_reach_a_follower_without_gaps(runtime: Runtime) -> None:
    start = await _append(runtime, "webset:busy", "items.changed", -1)
    seen: list[int] = []

    async def consume() -> None:
        async for event in follow(runtime, "webset:busy", start):
            seen.append(event.payload["n"])
            if len(seen) == 30:
                return

    consumer = asyncio.create_task(consume())
    await asyncio.gather(*(_append(runtime, "webset:busy", "items.changed", n) for n in range(30)))
    await asyncio.wait_for(consumer, timeout=15)
    assert sorted(seen) == list(range(30))


async def test_checkpoint_before_the_pruned_log_must_reset(runtime: Runtime) -> None:
    old = await _append(runtime, "webset:old", "items.changed", 0)
    newer = await _append(runtime, "webset:old", "items.changed", 1)
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(
            update(Event).where(Event.seq == old).values(created_at=utcnow() - timedelta(days=8))
        )
    async with transaction(runtime.sessionmaker) as session:
        assert await log.prune(session, older_than=timedelta(days=7)) == 1
    async with transaction(runtime.sessionmaker) as session:
        assert await log.must_reset(session, "webset:old", old - 1) is True
        assert await log.must_reset(session, "webset:old", old) is False
        assert [e.seq for e in await log.read_after(session, "webset:old", 0)] == [newer]


async def test_followers_woken_by_one_event_share_one_read_and_all_get_it(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """500 streams of one webset must cost about one query per event, not 500 (the pool would run
    dry and streams would be cut): followers woken together at one cursor share a read."""
    start = await _append(runtime, "webset:crowd", "items.changed", 0)
    reads: list[int] = []
    real_read = log.read_after

    async def counted(*args: Any, **kwargs: Any) -> list[Event]:
        reads.append(1)
        return await real_read(*args, **kwargs)

    monkeypatch.setattr(log, "read_after", counted)
    followers = 40
    received: list[list[int]] = [[] for _ in range(followers)]

    async def consume(mine: list[int]) -> None:
        async for event in follow(runtime, "webset:crowd", start, until=lambda e: e.type == "complete"):
            mine.append(event.payload["n"])

    tasks = [asyncio.create_task(consume(mine)) for mine in received]
    while len(reads) < followers:  # every follower has made its first read (its own) and waits
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    before = len(reads)
    await _append(runtime, "webset:crowd", "complete", 1)
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=10)
    assert all(mine == [1] for mine in received)
    assert len(reads) - before < followers // 4, f"{len(reads) - before} reads for {followers} followers"


async def test_idle_followers_share_their_periodic_re_read(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Followers nobody wakes re-read the log every second in case a notification was lost; 1,000 idle
    streams once cost 1,000 reads a second. A re-read of the same cursor a moment old answers them all."""
    from leadwire.platform.events import followers as following

    start = await _append(runtime, "webset:idle", "items.changed", 0)
    reads: list[int] = []
    real_read = log.read_after

    async def counted(*args: Any, **kwargs: Any) -> list[Event]:
        reads.append(1)
        return await real_read(*args, **kwargs)

    monkeypatch.setattr(log, "read_after", counted)
    monkeypatch.setattr(following, "RECHECK_SECONDS", 0.1)
    monkeypatch.setattr(following, "REUSE_SECONDS", 0.05)
    followers = 40

    async def consume() -> None:
        async for _ in follow(runtime, "webset:idle", start):
            raise AssertionError("nothing was appended")

    tasks = [asyncio.create_task(consume()) for _ in range(followers)]
    while len(reads) < followers:
        await asyncio.sleep(0.01)
    before = len(reads)
    await asyncio.sleep(1.0)  # about ten rechecks each
    timed = len(reads) - before
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    # Unshared, 40 followers would read about 400 times; shared, about twice per recheck period.
    assert timed < followers * 2, f"{timed} timed reads for {followers} idle followers"


async def test_a_follower_stops_when_it_may_no_longer_follow(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leadwire.platform.events import followers as following

    monkeypatch.setattr(following, "RECHECK_SECONDS", 0.05)
    monkeypatch.setattr(following, "ALLOWED_CHECK_SECONDS", 0.05)
    start = await _append(runtime, "webset:revoked", "items.changed", 0)
    allowed = [True]

    async def still_allowed() -> bool:
        return allowed[0]

    async def consume() -> list[int]:
        return [e.seq async for e in follow(runtime, "webset:revoked", start, still_allowed=still_allowed)]

    task = asyncio.create_task(consume())
    await asyncio.sleep(0.2)
    assert not task.done()
    allowed[0] = False
    assert await asyncio.wait_for(task, timeout=10) == []
