"""The SSE streams of a webset: replay from a snapshot's checkpoint, then follow live changes until the
run's `complete`; `reset` when the checkpoint cannot be replayed (pruned, unknown, or its
`items_revision` is not the one the log had at that point)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sse_starlette import ServerSentEvent

from leadwire.platform.db import transaction
from leadwire.platform.events import Event, follow, must_reset, payload_at
from leadwire.platform.http import StillAllowed, control, to_sse
from leadwire.platform.runtime import Runtime
from leadwire.websets import enrichments, service, states
from leadwire.websets.models import Webset


async def revision_at(session: Any, topic: str, seq: int) -> int:
    return int((await payload_at(session, topic, seq)).get("items_revision", 0))


async def events(
    runtime: Runtime,
    webset_id: str,
    *,
    start: int | None,
    items_revision: int | None,
    job_id: str | None = None,
    still_allowed: StillAllowed | None = None,
) -> AsyncIterator[ServerSentEvent]:
    topic = states.topic(webset_id)
    async with transaction(runtime.reader) as session:
        webset = await session.get(Webset, webset_id)
        assert webset is not None
        latest, revision = await service.checkpoint(session, webset_id)
        # A finished list whose enrichment is still being filled is followed to that end too.
        finished = webset.status in states.FINISHED and not await enrichments.filling(session, webset_id)
        reason = None
        if start is not None:
            if await must_reset(session, topic, start):
                reason = "checkpoint_pruned"
            elif start > latest:
                reason = "checkpoint_unknown"
            elif items_revision is not None and await revision_at(session, topic, start) != items_revision:
                reason = "revision_mismatch"
    if reason is not None:
        # The id is the log's head, so a plain EventSource that reconnects on its own resumes from now
        # rather than asking for the same unreplayable checkpoint forever.
        yield control("reset", {"reason": reason}, latest)
        return
    if start is None or (finished and start >= latest):
        if finished:
            yield control(
                "complete",
                {
                    "webset_id": webset_id,
                    "webset_status": webset.status,
                    "stream_cursor": latest,
                    "items_revision": revision,
                    "job_id": job_id,
                },
                latest,
            )
            return
        start = latest

    def ends(event: Event) -> bool:
        return event.type == "complete" and (job_id is None or event.payload.get("job_id") == job_id)

    async for event in follow(runtime, topic, start, until=ends, still_allowed=still_allowed):
        yield to_sse(event, {**event.payload, "stream_cursor": event.seq})
