"""Server-sent events over the event log: every event's `id` is its `seq` (the public stream cursor), a
comment ping every 15 s keeps proxies from closing an idle stream, and `Last-Event-ID` resumes. A stream
a caller holds is owned and bounded (`owned_stream`).

A stream reads what it needs to start before its headers (in the request's session), so a database that
cannot answer is a 503 with `Retry-After`. One that fails after it started ends with an `error` event
(`{"code"}`, and `retry:` in milliseconds) rather than a cut connection: the client reconnects with its
`Last-Event-ID` after that delay, as from any dropped stream."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import orjson
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.types import Receive, Scope, Send

from leadwire.platform.db import describe_failure, is_transient
from leadwire.platform.events.models import Event
from leadwire.platform.http.auth import key_still_valid
from leadwire.platform.validation import int_param

if TYPE_CHECKING:
    from leadwire.platform.callers import Caller
    from leadwire.platform.runtime import Runtime

HEARTBEAT_SECONDS = 15
ERROR_RETRY_MS = 5000  # as the 503's Retry-After
log = logging.getLogger("leadwire.sse")


def resume_point(stream_cursor: str | None, last_event_id: str | None) -> int | None:
    """Where a stream starts: `Last-Event-ID` (a reconnecting client) wins over the query's cursor.

    None means "from the latest event": only future changes are delivered. A value that is not an event's
    seq is 400 `invalid_request` naming where it came from (`Last-Event-ID` or `stream_cursor`).
    """
    if last_event_id:
        return int_param(last_event_id, "Last-Event-ID", detail="the id of an event of this stream")
    if not stream_cursor:
        return None
    return int_param(stream_cursor, "stream_cursor", detail="a stream_cursor from a snapshot")


def to_sse(event: Event, data: dict[str, Any] | None = None) -> ServerSentEvent:
    return ServerSentEvent(
        data=orjson.dumps(event.payload if data is None else data).decode(),
        event=event.type,
        id=str(event.seq),
    )


def control(event_type: str, data: dict[str, Any], seq: int | None = None) -> ServerSentEvent:
    """An event that is not in the log (`reset`, an immediate `complete`)."""
    return ServerSentEvent(
        data=orjson.dumps(data).decode(), event=event_type, id=None if seq is None else str(seq)
    )


class _Stream(EventSourceResponse):
    """An SSE response that runs `on_close` however it ends: finished, client gone, or cancelled."""

    def __init__(self, events: AsyncIterator[ServerSentEvent], on_close: Callable[[], None] | None) -> None:
        super().__init__(
            events, ping=HEARTBEAT_SECONDS, headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )
        self._on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self._on_close is not None:
                self._on_close()


async def ended_cleanly(events: AsyncIterator[ServerSentEvent]) -> AsyncIterator[ServerSentEvent]:
    """The stream's events; a failure once it started ends it with an `error` event (503's code when
    the database failed, else `internal_error`) and the delay to reconnect after, logged once."""
    try:
        async for event in events:
            yield event
    except Exception as exc:
        if is_transient(exc):
            log.warning("stream ended, the database failed: %s", describe_failure(exc))
            code = "task_unavailable"
        else:
            log.error("stream ended by an error", exc_info=exc)
            code = "internal_error"
        yield ServerSentEvent(data=orjson.dumps({"code": code}).decode(), event="error", retry=ERROR_RETRY_MS)


def sse_response(
    events: AsyncIterator[ServerSentEvent], *, on_close: Callable[[], None] | None = None
) -> EventSourceResponse:
    return _Stream(ended_cleanly(events), on_close)


StillAllowed = Callable[[], Awaitable[bool]]


def owned_stream(
    runtime: Runtime, caller: Caller, events: Callable[[StillAllowed], AsyncIterator[ServerSentEvent]]
) -> EventSourceResponse:
    """The SSE response of a stream ``caller`` holds: a slot of its key and account taken now (or 429,
    `events.slots`), given back when the response ends. ``events`` gets the check that says whether the
    caller's key still authenticates, so a stream ends soon after its key is revoked or expires."""
    give_back = runtime.stream_slots.hold(caller)

    async def still_allowed() -> bool:
        return await key_still_valid(runtime, caller.key_digest)

    try:
        return sse_response(events(still_allowed), on_close=give_back)
    except BaseException:
        give_back()
        raise
