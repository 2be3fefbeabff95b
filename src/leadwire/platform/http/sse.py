"""Server-sent events over the event log: every event's `id` is its `seq` (the public stream cursor), a
comment ping every 15 s keeps proxies from closing an idle stream, and `Last-Event-ID` resumes. A stream
a caller holds is owned and bounded (`owned_stream`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import orjson
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.types import Receive, Scope, Send

from leadwire.platform.errors import ApiError
from leadwire.platform.events.models import Event
from leadwire.platform.http.auth import key_still_valid

if TYPE_CHECKING:
    from leadwire.platform.callers import Caller
    from leadwire.platform.runtime import Runtime

HEARTBEAT_SECONDS = 15


def resume_point(stream_cursor: str | None, last_event_id: str | None) -> int | None:
    """Where a stream starts: `Last-Event-ID` (a reconnecting client) wins over the query's cursor.

    None means "from the latest event": only future changes are delivered.
    """
    raw = last_event_id if last_event_id not in (None, "") else stream_cursor
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 19:
        raise ApiError("invalid_request", param="stream_cursor", detail="a stream_cursor from a snapshot")
    return int(raw)


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


def sse_response(
    events: AsyncIterator[ServerSentEvent], *, on_close: Callable[[], None] | None = None
) -> EventSourceResponse:
    return _Stream(events, on_close)


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
