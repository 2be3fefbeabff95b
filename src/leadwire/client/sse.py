"""A small server-sent-events decoder (the WHATWG event-stream format), fed one line at a time.

The SDK reads the websets streams with it instead of a third-party SSE package, so it needs nothing
beyond httpx: `httpx.Response.iter_lines()` (or `aiter_lines()`) already splits on CR, LF and CRLF.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SSEEvent:
    """One dispatched event. `id` is the stream's last event id when the event was dispatched."""

    event: str = "message"
    data: str = ""
    id: str | None = None
    retry: int | None = None  # milliseconds, when this event's block carried a `retry:` field

    def json(self) -> Any:
        """The data as JSON (`{}` when empty)."""
        return json.loads(self.data) if self.data else {}


@dataclass
class SSEDecoder:
    """Turns lines into events: `feed(line)` returns the event a blank line completes, else None.
    Comment lines (`:` first, e.g. heartbeats) are skipped; an incomplete block at the end of the
    stream is never dispatched."""

    last_event_id: str | None = None
    _event: str = ""
    _data: list[str] = field(default_factory=list)
    _retry: int | None = None
    _has_fields: bool = False

    def feed(self, line: str) -> SSEEvent | None:
        line = line.rstrip("\r\n")
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        self._field(name, value.removeprefix(" "))
        return None

    def _field(self, name: str, value: str) -> None:
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "id" and "\0" not in value:
            self.last_event_id = value
        elif name == "retry" and value.isdigit():
            self._retry = int(value)
        else:
            return
        self._has_fields = True

    def _dispatch(self) -> SSEEvent | None:
        if not self._has_fields:
            return None
        event = SSEEvent(self._event or "message", "\n".join(self._data), self.last_event_id, self._retry)
        self._event, self._data, self._retry, self._has_fields = "", [], None, False
        return event
