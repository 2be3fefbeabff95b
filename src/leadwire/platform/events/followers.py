"""Following a topic: replay from a checkpoint, then deliver live events as they commit.

Woken by the notifier (LISTEN/NOTIFY across processes on PostgreSQL); it re-reads the log at least every
second in case a notification was lost, so a follower is never stuck, only at worst a second late.
Followers of one topic woken by the same notification, at the same cursor, share one read: 500 streams
of one webset cost one query per event, not 500; their periodic re-reads while idle are shared too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from leadwire.platform.db import transaction
from leadwire.platform.events import log
from leadwire.platform.events.models import Event
from leadwire.platform.notify import EVENT_CHANNEL
from leadwire.platform.runtime import Runtime

RECHECK_SECONDS = 1.0
# A timed re-read younger than this is reused by the other followers at the same cursor: idle followers of
# one topic cost a couple of reads a second, however many they are.
REUSE_SECONDS = RECHECK_SECONDS / 2
ALLOWED_CHECK_SECONDS = 5.0  # how often a follower asks whether its caller may still follow
# (reader, topic, after, batch) -> (notifications dispatched when the read began, the read)
_reads: dict[tuple[object, str, int, int], tuple[int, asyncio.Future[list[Event]]]] = {}
# (reader, topic, after, batch) -> (monotonic time the read began, the read): the last timed re-read
_recent: dict[tuple[object, str, int, int], tuple[float, asyncio.Future[list[Event]]]] = {}
_RECENT_ENTRIES = 4096


def _retrieved(read: asyncio.Future[list[Event]]) -> None:
    """A shared read's failure is its followers' to raise; marked seen here, so a read whose followers
    all left (a storm of clients gone) leaves no "exception was never retrieved" behind."""
    if not read.cancelled():
        read.exception()


async def _read(runtime: Runtime, topic: str, after: int, batch: int) -> list[Event]:
    async with transaction(runtime.reader) as session:
        return await log.read_after(session, topic, after, limit=batch)


async def _timed_read(runtime: Runtime, topic: str, after: int, batch: int) -> list[Event]:
    """The periodic re-read of a follower nobody woke: a re-read of the same cursor begun less than
    ``REUSE_SECONDS`` ago (by another follower, finished or not) answers it; else a read of its own, kept
    for the next ones."""
    key = (runtime.reader, topic, after, batch)
    now = time.monotonic()
    recent = _recent.get(key)
    if recent is not None and now - recent[0] < REUSE_SECONDS:
        return await asyncio.shield(recent[1])
    read = asyncio.ensure_future(_shared_read(runtime, topic, after, batch, None))
    read.add_done_callback(_retrieved)
    if len(_recent) >= _RECENT_ENTRIES:
        _recent.clear()
    _recent[key] = (now, read)
    return await asyncio.shield(read)


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
        _retrieved(done)

    read.add_done_callback(forget)
    return await asyncio.shield(read)


async def follow(
    runtime: Runtime,
    topic: str,
    after: int,
    *,
    until: Callable[[Event], bool] = lambda _event: False,
    batch: int = 500,
    still_allowed: Callable[[], Awaitable[bool]] | None = None,
) -> AsyncIterator[Event]:
    """Every event of `topic` with `seq > after`, in order, forever or until `until(event)` is true, or
    until `still_allowed` (asked every ``ALLOWED_CHECK_SECONDS``) says the follower may no longer."""
    cursor = after
    hub = runtime.notifier.hub
    checked = time.monotonic()
    with hub.subscribe(EVENT_CHANNEL, topic) as subscription:
        seen: int | None = None  # the first read (replay) is this follower's own
        timed = False
        while True:
            if still_allowed is not None and time.monotonic() - checked >= ALLOWED_CHECK_SECONDS:
                if not await still_allowed():
                    return
                checked = time.monotonic()
            if timed:
                events = await _timed_read(runtime, topic, cursor, batch)
            else:
                events = await _shared_read(runtime, topic, cursor, batch, seen)
            for event in events:
                cursor = event.seq
                yield event
                if until(event):
                    return
            if len(events) < batch:
                woken = await subscription.wait(RECHECK_SECONDS)
                # Woken: any read begun since this notification will do. Not woken (a notification may
                # have been lost): a recent timed re-read of the same cursor will do.
                seen, timed = (hub.dispatched, False) if woken else (None, True)
            else:
                seen, timed = None, False
                await asyncio.sleep(0)  # a long replay yields to the loop between batches
