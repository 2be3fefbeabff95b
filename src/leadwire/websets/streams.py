"""The SSE streams of a webset: replay from a snapshot's checkpoint, then follow live changes until the
run's `complete`; `reset` when the checkpoint cannot be replayed (pruned, unknown, or its
`items_revision` is not the one the log had at that point).

A stream is opened in two steps. `opening` reads what it needs to start (the log's head, whether the
checkpoint can be replayed, whether the list is already finished) in the request's own session, before
the response's headers: a database that cannot answer then is a 503 with `Retry-After`, never a 200
that breaks. `events` then replays and follows, reading only as the follower does.

A stream shows customs records, contacts and email cells only while its caller may read them: each event
that carries them is checked against the caller's plan and scopes as they stand then (the key's record,
cached as every request's is), and the stream ends with an `error` event holding the refusal when they no
longer do (a plan downgraded, or an email column added by another key since the stream opened)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession
from sse_starlette import ServerSentEvent

from leadwire.platform.callers import Caller
from leadwire.platform.events import Event, follow, must_reset, payload_at
from leadwire.platform.http import StillAllowed, caller_for_digest, control, to_sse
from leadwire.platform.runtime import Runtime
from leadwire.providers.data_rights import Reader, refusal
from leadwire.websets import data_use, enrichments, service, states
from leadwire.websets.models import Webset


@dataclass(frozen=True)
class Opening:
    """Where a stream starts, read before its headers: the first event to send when it is decided
    already (`reset`, or an immediate `complete`), else the sequence number to follow from."""

    webset_id: str
    job_id: str | None
    start: int
    first: ServerSentEvent | None
    data: data_use.Data = frozenset()  # what the list's items are made of (`data_use.of_list`)


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
    made_of = data_use.of_list(webset.target_kind, webset.seed)
    return Opening(webset_id, job_id, latest if start is None else start, None, made_of)


async def events(
    runtime: Runtime, opened: Opening, caller: Caller, *, still_allowed: StillAllowed | None = None
) -> AsyncIterator[ServerSentEvent]:
    if opened.first is not None:
        yield opened.first
        return
    job_id = opened.job_id

    def ends(event: Event) -> bool:
        return event.type == "complete" and (job_id is None or event.payload.get("job_id") == job_id)

    topic = states.topic(opened.webset_id)
    async for event in follow(runtime, topic, opened.start, until=ends, still_allowed=still_allowed):
        shown = data_use.of_event(event.type, event.payload, opened.data)
        if shown:
            now = await caller_for_digest(runtime, caller.key_digest) if caller.key_digest else caller
            if now is None:  # the key no longer authenticates: ended, as `still_allowed` ends it
                return
            refused = refusal(Reader.of(now), shown)
            if refused is not None:
                yield control("error", {"code": refused.code, "detail": refused.detail})
                return
        yield to_sse(event, {**event.payload, "stream_cursor": event.seq})
