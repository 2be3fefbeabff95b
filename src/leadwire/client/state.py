"""What a follower of a webset holds: its items by id, status, progress, strategy and stream checkpoint.

`WebsetState` is changed only by the flows (a snapshot replaces it, each event merges into it);
callers read it, live, from `WebsetFollow.state` or from each `WebsetUpdate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from leadwire.client.sse import SSEEvent

# Which match statuses each `match` filter keeps (docs/api.md: qualified = full + partial, verified = all).
MATCH_STATUSES: dict[str, frozenset[str]] = {
    "qualified": frozenset({"full", "partial"}),
    "full": frozenset({"full"}),
    "partial": frozenset({"partial"}),
    "rejected": frozenset({"rejected"}),
    "verified": frozenset({"full", "partial", "rejected"}),
}
UpdateKind = Literal["snapshot", "started", "items.changed", "webset.strategy", "complete", "reset"]


@dataclass
class WebsetState:
    """A followed webset. `items` holds the compact items of the `match` filter by id; `progress` and
    `strategy` are None until the stream sends them; `complete` is True once the stream ended;
    `resets` and `reconnects` count the fresh snapshots and the resumed connections; `job` is the
    Find More job (`find_more` only)."""

    webset_id: str
    match: str = "qualified"
    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    webset_status: str | None = None
    progress: dict[str, Any] | None = None
    strategy: dict[str, Any] | None = None
    stream_cursor: int | None = None
    items_revision: int | None = None
    last_event_id: str | None = None
    retry_ms: int | None = None
    complete: bool = False
    resets: int = 0
    reconnects: int = 0
    job: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.match not in MATCH_STATUSES:
            raise ValueError("match must be one of " + ", ".join(MATCH_STATUSES))

    def ranked(self) -> list[dict[str, Any]]:
        """The items, best score first (then by name)."""
        return sorted(self.items.values(), key=lambda item: (-score(item), name(item)))

    def checkpoint(self) -> dict[str, int]:
        """`stream_cursor` + `items_revision` to open (or resume) the stream from."""
        pair = {"stream_cursor": self.stream_cursor, "items_revision": self.items_revision}
        return {key: value for key, value in pair.items() if value is not None}

    def replace(self, first_page: dict[str, Any], items: list[dict[str, Any]]) -> None:
        """Take a fresh snapshot: its items, and the checkpoint and status of its first page."""
        self.items = {}
        for item in items:
            self.items[item["id"]] = {**self.items.get(item["id"], {}), **item}
        self.webset_status = first_page.get("webset_status")
        self.stream_cursor = _int(first_page.get("stream_cursor"))
        self.items_revision = _int(first_page.get("items_revision"))
        self.last_event_id = None
        self.complete = False

    def note(self, event: SSEEvent) -> None:
        """Remember the event's id (the resume point) and the server's reconnection delay."""
        if event.retry is not None:
            self.retry_ms = event.retry
        if event.id is not None and event.event != "reset":
            self.last_event_id = event.id
            self.stream_cursor = _int(event.id) if event.id.isdigit() else self.stream_cursor

    def apply(self, event: SSEEvent) -> WebsetUpdate | None:
        """Merge one event; the update it makes, or None for an event this client does not use."""
        if event.event == "items.changed":
            return self._changed(event.json())
        if event.event == "webset.strategy":
            self.strategy = event.json()
            return WebsetUpdate("webset.strategy", self)
        if event.event == "complete":
            return self._complete(event.json())
        return None

    def _changed(self, data: dict[str, Any]) -> WebsetUpdate:
        self._checkpoint_from(data)
        self.webset_status = data.get("webset_status", self.webset_status)
        self.progress = data.get("progress", self.progress)
        changed, removed = [], []
        for item in data.get("items") or []:
            if match_status(item) in MATCH_STATUSES[self.match]:
                self.items[item["id"]] = {**self.items.get(item["id"], {}), **item}
                changed.append(item["id"])
            elif self.items.pop(item["id"], None) is not None:  # it left the filter (e.g. rejected)
                removed.append(item["id"])
        for item_id in data.get("removed") or []:
            if self.items.pop(item_id, None) is not None:
                removed.append(item_id)
        return WebsetUpdate("items.changed", self, changed=changed, removed=removed)

    def _complete(self, data: dict[str, Any]) -> WebsetUpdate:
        self._checkpoint_from(data)
        self.webset_status = data.get("webset_status", self.webset_status)
        self.complete = True
        if self.webset_status == "completed":  # every item is final
            for item in self.items.values():
                item["provisional"] = False
        return WebsetUpdate("complete", self)

    def _checkpoint_from(self, data: dict[str, Any]) -> None:
        if (cursor := _int(data.get("stream_cursor"))) is not None:
            self.stream_cursor = cursor
        if (revision := _int(data.get("items_revision"))) is not None:
            self.items_revision = revision


@dataclass
class WebsetUpdate:
    """One change the follower applied: `kind`, the ids it added or changed and removed, and the live
    state after it (the same object every time)."""

    kind: UpdateKind
    state: WebsetState
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


def match_status(item: dict[str, Any]) -> str | None:
    match = item.get("match") or {}
    return match.get("status")


def score(item: dict[str, Any]) -> float:
    value = (item.get("match") or {}).get("score")
    return float(value) if isinstance(value, int | float) else 0.0


def name(item: dict[str, Any]) -> str:
    return str((item.get("entity") or {}).get("name") or "")


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None
