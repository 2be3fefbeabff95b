"""The websets operations that take several requests (all item pages, following a webset, Find More),
defined once for both clients, and the handles they return.

`WebsetFlows` builds a flow (see `flows.py`) and asks the client to drive it: `Leadwire` returns a
`WebsetFollow` (iterate it for updates, or `.wait()` for the final state), `AsyncLeadwire` an
`AsyncWebsetFollow` (`async for update in ...`, or `await` it for the final state). Nothing is sent
until the handle is iterated or waited on.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Generator, Iterator
from typing import Any, Generic, TypeVar

from leadwire.client import flows
from leadwire.client.core import Call
from leadwire.client.flows import Flow
from leadwire.client.state import WebsetState, WebsetUpdate
from leadwire.client.surface import WEBSETS, query_params

F = TypeVar("F")  # what following returns: WebsetFollow or AsyncWebsetFollow
It = TypeVar("It")  # what iterating items returns: an iterator or an async iterator of items
B = TypeVar("B")  # what a download returns: an iterator or an async iterator of bytes
OnChange = Callable[[WebsetUpdate], object]  # may return an awaitable for the async client


class WebsetFlows(Generic[F, It, B]):
    _max_retries: int

    def _follow(self, flow: Flow, state: WebsetState, on_change: OnChange | None) -> F:
        raise NotImplementedError

    def _emitted(self, flow: Flow) -> It:
        raise NotImplementedError

    def _chunks(self, flow: Flow) -> B:
        raise NotImplementedError

    def export_webset(self, webset_id: str, *, format: str = "csv", match: str | None = None) -> B:
        """The list's export as it streams: bytes of CSV (a verdict column per criterion) or of JSON
        lines (items at `full` detail), every item of `match` (qualified by default). Write the
        chunks to a file; a download cut short raises `network_error` rather than end early."""
        params = query_params(format=format, match=match)
        return self._chunks(flows.download(Call("GET", f"{WEBSETS}/{webset_id}/export", params=params)))

    def iter_webset_items(
        self,
        webset_id: str,
        *,
        match: str | None = None,
        detail: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> It:
        """Every item of the webset, page after page (`limit` is the page size)."""
        params = {"match": match, "detail": detail, "limit": limit, "cursor": cursor}
        return self._emitted(flows.item_pages(webset_id, params))

    def listen_webhooks(self, events: list[str] | None = None) -> It:
        """The account's events as they happen, for development (`leadwire webhooks listen`): first
        `{"event": "ready", "listener_id", "secret", "events"}`, then per event `{"event": "webhook",
        "id", "type", "headers", "body"}`, the body and headers as a webhook delivery carries them."""
        return self._emitted(flows.listen(events, max_failures=self._max_retries))

    def follow_webset(
        self, webset_id: str, *, match: str = "qualified", on_change: OnChange | None = None
    ) -> F:
        """Follow the webset live: snapshot, then the items stream until `complete` (see `flows`).
        Yields a `WebsetUpdate` per change (`snapshot`, `items.changed`, `webset.strategy`, `reset`,
        `complete`) and calls `on_change` with each; the state keeps the compact items of `match`
        (qualified by default, as the Items endpoint) by id."""
        state = WebsetState(webset_id, match)
        flow = flows.follow(state, max_failures=self._max_retries)
        return self._follow(flow, state, on_change)

    def find_more(
        self,
        webset_id: str,
        *,
        count: int | None = None,
        exclude: list[dict[str, Any]] | None = None,
        match: str = "qualified",
        idempotency_key: str | None = None,
        on_change: OnChange | None = None,
    ) -> F:
        """Continue discovery and follow it: snapshot the current items, POST find-more (with an
        Idempotency-Key that retries reuse), then that run's stream from the snapshot's checkpoint
        until `complete`. Updates as `follow_webset`, plus `started` once the job exists
        (`state.job`). 409 `webset_busy` while another run is active. `exclude` adds sources the
        list leaves out (`[{"source": "webset", "id": ...}]`)."""
        state = WebsetState(webset_id, match)
        flow = flows.find_more(
            state,
            count=count,
            exclude=exclude,
            idempotency_key=idempotency_key,
            max_failures=self._max_retries,
        )
        return self._follow(flow, state, on_change)


class WebsetFollow:
    """A blocking follow: iterate for `WebsetUpdate`s, or `wait()` for the final `WebsetState`.
    `state` is live throughout; breaking out early closes the stream (or call `close()`)."""

    def __init__(
        self,
        updates: Generator[WebsetUpdate, None, None],
        state: WebsetState,
        on_change: OnChange | None,
    ) -> None:
        self.state = state
        self._updates = _notified(updates, on_change)

    def __iter__(self) -> Iterator[WebsetUpdate]:
        return self._updates

    def wait(self) -> WebsetState:
        for _ in self._updates:
            pass
        return self.state

    def close(self) -> None:
        self._updates.close()


class AsyncWebsetFollow:
    """An awaitable follow: `async for update in ...`, or `await` it for the final `WebsetState`.
    `state` is live throughout; `aclose()` ends it early and closes the stream."""

    def __init__(
        self,
        updates: AsyncGenerator[WebsetUpdate, None],
        state: WebsetState,
        on_change: OnChange | None,
    ) -> None:
        self.state = state
        self._updates = _anotified(updates, on_change)

    def __aiter__(self) -> AsyncIterator[WebsetUpdate]:
        return self._updates

    def __await__(self) -> Generator[Any, None, WebsetState]:
        return self.wait().__await__()

    async def wait(self) -> WebsetState:
        async for _ in self._updates:
            pass
        return self.state

    async def aclose(self) -> None:
        await self._updates.aclose()


def _notified(
    updates: Generator[WebsetUpdate, None, None], on_change: OnChange | None
) -> Generator[WebsetUpdate, None, None]:
    try:
        for update in updates:
            if on_change is not None:
                on_change(update)
            yield update
    finally:
        updates.close()  # closes the stream when the caller stops early


async def _anotified(
    updates: AsyncGenerator[WebsetUpdate, None], on_change: OnChange | None
) -> AsyncGenerator[WebsetUpdate, None]:
    try:
        async for update in updates:
            if on_change is not None:
                result = on_change(update)
                if inspect.isawaitable(result):
                    await result
            yield update
    finally:
        await updates.aclose()
