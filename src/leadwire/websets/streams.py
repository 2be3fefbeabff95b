"""The SSE streams of a webset: replay from a snapshot's checkpoint, then follow live changes until the
run's `complete`; `reset` when the checkpoint cannot be replayed (pruned, unknown, or its
`items_revision` is not the one the log had at that point).

A stream is opened in two steps. `opening` reads what it needs to start (the log's head, whether the
checkpoint can be replayed, whether the list is already finished) in the request's own session, before
the response's headers: a database that cannot answer then is a 503 with `Retry-After`, never a 200
that breaks. `events` then replays and follows, reading only as the follower does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession
from sse_starlette import ServerSentEvent

from leadwire.platform.events import Event, follow, must_reset, payload_at
from leadwire.platform.http import StillAllowed, control, to_sse
from leadwire.platform.runtime import Runtime
from leadwire.websets import enrichments, service, states
from leadwire.websets.models import Webset


@dataclass(frozen=True)
class Opening:
    """Where a stream starts, read before its headers: the first event to send when it is decided
    already (`reset`, or an immediate `complete`), else the sequence number to follow from."""

    webset_id: str
    job_id: str | None
    start: int
    first: ServerSentEvent | None


async def revision_at(session: Any, topic: str, seq: int) -> int:
    return int((await payload_at(session, topic, seq)).get("items_revision", 0))


async def opening(
    session: AsyncSession,
    webset_id: str,
    *,
    start: int | None,
    items_revision: int | None,
    job_id: str | None = None,
) -> Opening:
    topic = states.topic(webset_id)
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
        return Opening(webset_id, job_id, latest, control("reset", {"reason": reason}, latest))
    if finished and (start is None or start >= latest):
        done = {
            "webset_id": webset_id,
            "webset_status": webset.status,
            "stream_cursor": latest,
            "items_revision": revision,
            "job_id": job_id,
        }
        return Opening(webset_id, job_id, latest, control("complete", done, latest))
    return Opening(webset_id, job_id, latest if start is None else start, None)


async def events(
    runtime: Runtime, opened: Opening, *, still_allowed: StillAllowed | None = None
) -> AsyncIterator[ServerSentEvent]:
    if opened.first is not None:
        yield opened.first
        return
    job_id = opened.job_id

    def ends(event: Event) -> bool:
        return event.type == "complete" and (job_id is None or event.payload.get("job_id") == job_id)

    topic = states.topic(opened.webset_id)
    async for event in follow(runtime, topic, opened.start, until=ends, still_allowed=still_allowed):
        yield to_sse(event, {**event.payload, "stream_cursor": event.seq})
