"""Following a topic: replay from a checkpoint, then deliver live events as they commit.

Woken by the notifier (LISTEN/NOTIFY across processes on PostgreSQL); it re-reads the log at least every
second in case a notification was lost, so a follower is never stuck, only at worst a second late.
Followers of one topic woken by the same notification, at the same cursor, share one read: 500 streams
of one webset cost one query per event, not 500.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from leadwire.platform.db import transaction
from leadwire.platform.events import log
from leadwire.platform.events.models import Event
from leadwire.platform.notify import EVENT_CHANNEL
from leadwire.platform.runtime import Runtime

RECHECK_SECONDS = 1.0
# (reader, topic, after, batch) -> (notifications dispatched when the read began, the read)
_reads: dict[tuple[object, str, int, int], tuple[int, asyncio.Future[list[Event]]]] = {}


async def _read(runtime: Runtime, topic: str, after: int, batch: int) -> list[Event]:
    async with transaction(runtime.reader) as session:
        return await log.read_after(session, topic, after, limit=batch)


async def _shared_read(runtime: Runtime, topic: str, after: int, batch: int, seen: int | None) -> list[Event]:
    """`read_after`, joining one already under way if it began after notification `seen` (so it sees
    what that notification announced); None = a read of its own. The read is a task of its own, so a
    follower that goes away does not cancel the others' read. Events are shared: read-only."""
    key = (runtime.reader, topic, after, batch)
    running = _reads.get(key)
    if seen is not None and running is not None and running[0] >= seen and not running[1].done():
        return await asyncio.shield(running[1])
    read = asyncio.ensure_future(_read(runtime, topic, after, batch))
    _reads[key] = (runtime.notifier.hub.dispatched, read)

    def forget(done: asyncio.Future[list[Event]]) -> None:
        if key in _reads and _reads[key][1] is done:
            del _reads[key]

    read.add_done_callback(forget)
    return await asyncio.shield(read)


async def follow(
    runtime: Runtime,
    topic: str,
    after: int,
    *,
    until: Callable[[Event], bool] = lambda _event: False,
    batch: int = 500,
) -> AsyncIterator[Event]:
    """Every event of `topic` with `seq > after`, in order, forever or until `until(event)` is true."""
    cursor = after
    hub = runtime.notifier.hub
    with hub.subscribe(EVENT_CHANNEL, topic) as subscription:
        seen: int | None = None  # the first read (replay) is this follower's own
        while True:
            events = await _shared_read(runtime, topic, cursor, batch, seen)
            for event in events:
                cursor = event.seq
                yield event
                if until(event):
                    return
            if len(events) < batch:
                woken = await subscription.wait(RECHECK_SECONDS)
                # Woken: any read begun since this notification will do. The timed re-read (a
                # notification may have been lost) is its own.
                seen = hub.dispatched if woken else None
            else:
                seen = None
                await asyncio.sleep(0)  # a long replay yields to the loop between batches
