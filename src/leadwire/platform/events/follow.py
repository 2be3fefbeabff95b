"""Following a topic: replay from a checkpoint, then deliver live events as they commit.

Woken by the notifier (LISTEN/NOTIFY across processes on PostgreSQL); it re-reads the log at least every
second in case a notification was lost, so a follower is never stuck, only at worst a second late.
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
    with runtime.notifier.hub.subscribe(EVENT_CHANNEL, topic) as subscription:
        while True:
            async with transaction(runtime.reader) as session:
                events = await log.read_after(session, topic, cursor, limit=batch)
            for event in events:
                cursor = event.seq
                yield event
                if until(event):
                    return
            if len(events) < batch:
                await subscription.wait(RECHECK_SECONDS)
            else:
                await asyncio.sleep(0)  # a long replay yields to the loop between batches
