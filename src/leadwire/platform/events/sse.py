"""Server-sent events over the event log: every event's `id` is its `seq` (the public stream cursor), a
comment ping every 15 s keeps proxies from closing an idle stream, and `Last-Event-ID` resumes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import orjson
from sse_starlette import EventSourceResponse, ServerSentEvent

from leadwire.platform.errors import ApiError
from leadwire.platform.events.models import Event

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


def sse_response(events: AsyncIterator[ServerSentEvent]) -> EventSourceResponse:
    return EventSourceResponse(
        events,
        ping=HEARTBEAT_SECONDS,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
