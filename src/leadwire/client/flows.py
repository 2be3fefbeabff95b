"""The procedures that take more than one request (websets; the webhook listener), written once for the
sync and async clients.

Each procedure is a generator of `Step`s: it asks its driver to fetch a page, open a stream, read the
next event, pause, or hand a value to the caller, and is resumed with the answer. `Leadwire` drives it
blocking and `AsyncLeadwire` awaitably; neither holds any of the rules, which are the guide's (docs/api.md):

snapshot-then-stream: read the Items snapshot; with several pages keep the FIRST page's
`stream_cursor` + `items_revision` and follow `next_cursor` through the rest; open the stream from that
checkpoint; merge `items.changed` by `id` (overlap tolerated, `removed` ids deleted); finish on
`complete` (every item final when the webset is completed); on `reset` replace the state with a fresh
snapshot and reconnect from its checkpoint; after a dropped connection reconnect with `Last-Event-ID`.
Find More: keep the current snapshot's checkpoint, call find-more, follow its stream with the job id.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal

from leadwire.client.core import PAGE, Call, LeadwireError
from leadwire.client.sse import SSEEvent
from leadwire.client.state import WebsetState, WebsetUpdate
from leadwire.client.surface import WEBHOOKS, WEBSETS, find_more_call, query_params

STREAM_TIMEOUT_SECONDS = 60.0  # the server pings every 15 s: a minute of silence is a dead connection
SNAPSHOT_PAGE_SIZE = 50  # the compact maximum: the fewest pages (stream items are compact too)
MAX_RECONNECT_DELAY = 8.0


@dataclass(frozen=True)
class Fetch:
    """Send `call` (retried by the client's rule); resumed with the picked part of the envelope."""

    call: Call


@dataclass(frozen=True)
class Open:
    """Open the SSE stream `call` (closing any open one); resumed with None."""

    call: Call


@dataclass(frozen=True)
class Next:
    """Read the open stream's next event; resumed with it, or None when the stream ended or broke."""


@dataclass(frozen=True)
class NextChunk:
    """Read the open response's next bytes; resumed with them, or None at its end. A response cut
    short raises `network_error`: a download never ends early without saying so."""


@dataclass(frozen=True)
class Pause:
    seconds: float


@dataclass(frozen=True)
class Emit:
    """Hand `value` to the caller; resumed with None."""

    value: Any


Step = Fetch | Open | Next | NextChunk | Pause | Emit
Flow = Generator[Step, Any, None]
Outcome = Literal["complete", "reset", "dropped"]


def item_pages(webset_id: str, params: dict[str, Any]) -> Flow:
    """Every item of the Items endpoint, page after page (`next_cursor` passed unchanged)."""
    cursor = params.get("cursor")
    while True:
        page = yield Fetch(_items_call(webset_id, {**params, "cursor": cursor}))
        for item in page["items"]:
            yield Emit(item)
        cursor = page.get("next_cursor")
        if not page.get("has_more") or not cursor:
            return


def download(call: Call) -> Flow:
    """The body of `call` as it arrives, chunk by chunk (an export)."""
    yield Open(call)
    while (chunk := (yield NextChunk())) is not None:
        yield Emit(chunk)


def follow(state: WebsetState, *, max_failures: int) -> Flow:
    """Snapshot, then the items stream until `complete`; emits a `WebsetUpdate` per change."""
    yield from _snapshot(state)
    yield Emit(WebsetUpdate("snapshot", state, changed=list(state.items)))
    yield from _stream(state, f"{WEBSETS}/{state.webset_id}/items/stream", {}, max_failures)


def find_more(
    state: WebsetState,
    *,
    count: int | None,
    exclude: list[dict[str, Any]] | None = None,
    idempotency_key: str | None,
    max_failures: int,
) -> Flow:
    """Snapshot (its checkpoint is the old one), start Find More, then follow that run's stream."""
    yield from _snapshot(state)
    yield Emit(WebsetUpdate("snapshot", state, changed=list(state.items)))
    state.job = yield Fetch(find_more_call(state.webset_id, count, idempotency_key, exclude))
    yield Emit(WebsetUpdate("started", state))
    extra = {"job_id": state.job["id"]}
    yield from _stream(state, f"{WEBSETS}/{state.webset_id}/find-more/stream", extra, max_failures)


def _items_call(webset_id: str, params: dict[str, Any]) -> Call:
    return Call("GET", f"{WEBSETS}/{webset_id}/items", params=query_params(**params), unwrap=PAGE)


def _snapshot(state: WebsetState) -> Generator[Step, Any, None]:
    """Read every page; the state takes the items and the FIRST page's checkpoint."""
    params: dict[str, Any] = {"match": state.match, "detail": "compact", "limit": SNAPSHOT_PAGE_SIZE}
    first = page = yield Fetch(_items_call(state.webset_id, params))
    items = list(page["items"])
    while page.get("has_more") and page.get("next_cursor"):
        page = yield Fetch(_items_call(state.webset_id, {**params, "cursor": page["next_cursor"]}))
        items.extend(page["items"])
    state.replace(first, items)


def _stream(state: WebsetState, path: str, extra: dict[str, Any], max_failures: int) -> Flow:
    """Follow `path` from the state's checkpoint until `complete`, through resets and dropped
    connections; `max_failures` drops (or resets) in a row without another event raise."""
    failures = 0
    while True:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if state.last_event_id is not None:
            headers["Last-Event-ID"] = state.last_event_id
        params = {**extra, **state.checkpoint()}
        yield Open(Call("GET", path, params=params, headers=headers, timeout=STREAM_TIMEOUT_SECONDS))
        outcome, progressed = yield from _consume(state)
        if outcome == "complete":
            return
        failures = 1 if progressed else failures + 1
        if failures > max_failures:
            raise LeadwireError(0, "network_error", detail=f"the webset stream failed {failures} times")
        if outcome == "reset":
            state.resets += 1
            yield from _snapshot(state)
            yield Emit(WebsetUpdate("reset", state, changed=list(state.items)))
        else:
            state.reconnects += 1
            yield Pause(_reconnect_delay(state, failures))


def _consume(state: WebsetState) -> Generator[Step, Any, tuple[Outcome, bool]]:
    """Apply the open stream's events; the outcome, and whether any event other than reset came."""
    progressed = False
    while True:
        event: SSEEvent | None = yield Next()
        if event is None:
            return "dropped", progressed
        state.note(event)
        if event.event == "reset":
            return "reset", progressed
        update = state.apply(event)
        if update is None:
            continue
        progressed = True
        yield Emit(update)
        if update.kind == "complete":
            return "complete", progressed


def _reconnect_delay(state: WebsetState, failures: int) -> float:
    """The server's `retry:` when it sent one, else 0.5 s doubling to 8 s."""
    if state.retry_ms is not None:
        return state.retry_ms / 1000
    return min(MAX_RECONNECT_DELAY, 0.5 * 2 ** (failures - 1))


def listen(events: list[str] | None, *, max_failures: int) -> Flow:
    """The account's webhook events as they happen (`GET /api/v2/webhooks/stream`): emits each SSE event
    as `{"event": "ready" | "webhook", **data}`, reconnecting after a dropped connection (events while
    it is down are not kept: it is a development listener)."""
    failures = 0
    params = {"events": ",".join(events)} if events else None
    while True:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        yield Open(
            Call("GET", f"{WEBHOOKS}/stream", params=params, headers=headers, timeout=STREAM_TIMEOUT_SECONDS)
        )
        progressed = False
        while (event := (yield Next())) is not None:
            progressed = True
            yield Emit({"event": event.event, **event.json()})
        failures = 1 if progressed else failures + 1
        if failures > max_failures:
            raise LeadwireError(0, "network_error", detail=f"the listen stream failed {failures} times")
        yield Pause(min(MAX_RECONNECT_DELAY, 0.5 * 2 ** (failures - 1)))
