"""What the console's prospect-list pages show and do, through the websets services the API uses: the
lists with a creation form, one list with its criteria, strategy and a page of items at full detail
(the evidence), Find More, and the live stream that turns the list's SSE events into page fragments."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncSession
from sse_starlette import ServerSentEvent

from leadwire.console import web
from leadwire.platform.callers import Caller
from leadwire.platform.db import transaction
from leadwire.platform.http import StillAllowed
from leadwire.platform.jobs import NewJob
from leadwire.platform.runtime import Runtime
from leadwire.platform.validation import validate
from leadwire.websets import enrichments, monitors, service, states, streams
from leadwire.websets.operations import CREATE, FIND_MORE
from leadwire.websets.schemas import MATCHES, CreateWebsetRequest, FindMoreRequest

ITEMS_PER_PAGE = 25
MONITORS_SHOWN = 20
LISTS_PER_PAGE = 20
BANDS = MATCHES


def plan_counts(caller: Caller) -> tuple[int, ...]:
    return service.PLAN_COUNTS.get(caller.plan.name, service.PLAN_COUNTS["business"])


async def lists(
    session: AsyncSession, runtime: Runtime, caller: Caller, cursor: str | None
) -> dict[str, Any]:
    codec = service.cursor_codec(runtime)

    async def read(at: str | None) -> tuple[list[dict[str, Any]], str | None]:
        return await service.list_websets(
            session, codec, caller, limit=LISTS_PER_PAGE, target_kind=None, cursor=at
        )

    rows, next_cursor = await web.first_page_if_stale(read, cursor)
    return {
        "websets": rows,
        "next_cursor": next_cursor,
        "counts": plan_counts(caller),
        "can_create": caller.can("websets:write"),
    }


async def create(session: AsyncSession, runtime: Runtime, caller: Caller, form: dict[str, Any]) -> str:
    """The new list's id; the form's fields checked as the API checks a JSON body (same codes)."""
    body = validate(CreateWebsetRequest, form)
    webset, _ = await CREATE.start(session, runtime, caller, body)
    return str(webset.id)


async def find_more(
    session: AsyncSession, runtime: Runtime, caller: Caller, webset_id: str, count: int | str
) -> NewJob:
    body = validate(FindMoreRequest, {"count": count})
    job: NewJob = await FIND_MORE.start(session, runtime, caller, body, webset_id=webset_id)
    return job


async def opening(
    session: AsyncSession, caller: Caller, webset_id: str, *, start: int | None, items_revision: int | None
) -> streams.Opening:
    """Where the page's live stream starts (404 `webset_not_found` unless the list is the caller's
    account's; 403 when its items are made of data the caller may not read), read before the stream's
    headers."""
    await service.get_readable(session, caller, webset_id)
    return await streams.opening(session, webset_id, start=start, items_revision=items_revision)


async def one(
    session: AsyncSession,
    runtime: Runtime,
    caller: Caller,
    webset_id: str,
    *,
    match: str,
    cursor: str | None,
) -> dict[str, Any]:
    """A list, its strategy and a page of its items at full detail, with the checkpoint its live
    stream starts from (so nothing released between the read and the stream is missed)."""
    detail = await service.detail(session, caller, webset_id)
    strategy = await service.strategy(session, caller, webset_id)
    codec = service.cursor_codec(runtime)
    first: list[bool] = []

    async def read(at: str | None) -> service.ItemsSnapshot:
        first.append(at is None)
        return await service.items(
            session, codec, caller, webset_id, match=match, detail="full", limit=ITEMS_PER_PAGE, cursor=at
        )

    snapshot = await web.first_page_if_stale(read, cursor)
    columns = await enrichments.list_for(session, caller, webset_id)
    watching, _ = await monitors.list_monitors(
        session, codec, caller, webset_id=webset_id, limit=MONITORS_SHOWN, cursor=None
    )
    finished = detail["status"] in states.FINISHED
    live = None
    if not finished and first[-1]:  # only the first page follows the list as it grows
        live = (
            f"/console/websets/{webset_id}/live?match={match}&stream_cursor={snapshot.stream_cursor}"
            f"&items_revision={snapshot.items_revision}"
        )
    return {
        "webset": detail,
        "strategy": strategy["strategy"],
        "items": snapshot.items,
        "next_cursor": snapshot.next_cursor,
        "match": match,
        "bands": BANDS,
        "live": live,
        "finished": finished,
        "counts": plan_counts(caller),
        "can_write": caller.can("websets:write"),
        "columns": {column["id"]: column for column in columns},
        "monitors": watching,
    }


async def live(
    runtime: Runtime,
    caller: Caller,
    webset_id: str,
    *,
    match: str,
    opened: streams.Opening,
    csrf: str,
    still_allowed: StillAllowed,
) -> AsyncIterator[ServerSentEvent]:
    """The list's SSE events as `swap` events whose data is HTML: each element replaces the page's
    element with its id (or is added to the one its `data-into` names; `data-gone` removes). `end`
    tells the page to stop listening."""
    async for event in streams.events(runtime, opened, caller, still_allowed=still_allowed):
        data = orjson.loads(event.data) if event.data else {}
        html = await _fragments(runtime, caller, webset_id, event.event, data, match, csrf)
        if html:
            yield ServerSentEvent(data=html, event="swap", id=event.id)
        if event.event in ("complete", "reset"):
            yield ServerSentEvent(data="", event="end")
            return


async def _fragments(
    runtime: Runtime,
    caller: Caller,
    webset_id: str,
    kind: str | None,
    data: dict[str, Any],
    match: str,
    csrf: str,
) -> str:
    if kind == "items.changed":
        ids = [item["id"] for item in data.get("items", [])] + list(data.get("removed", []))
        shown = await _read_items(runtime, caller, webset_id, ids, match)
        gone = [i for i in ids if i not in {item["id"] for item in shown}]
        return web.fragment(
            "live_items.html",
            status=data.get("webset_status"),
            progress=data.get("progress"),
            items=shown,
            gone=gone,
        )
    if kind == "webset.item.enriched":
        shown = await _read_items(runtime, caller, webset_id, [data.get("item_id", "")], match)
        return web.fragment("live_items.html", status=None, progress=None, items=shown, gone=[])
    if kind == "webset.strategy":
        return web.fragment(
            "live_strategy.html", criteria=data.get("criteria", []), strategy=data.get("strategy")
        )
    if kind in ("complete", "reset"):
        return web.fragment(
            "live_end.html",
            webset_id=webset_id,
            status=data.get("webset_status"),
            reset=kind == "reset",
            match=match,
            counts=plan_counts(caller),
            can_write=caller.can("websets:write"),
            csrf=csrf,
        )
    return ""


async def _read_items(
    runtime: Runtime, caller: Caller, webset_id: str, ids: list[str], match: str
) -> list[dict[str, Any]]:
    shown: list[dict[str, Any]] = []
    async with transaction(runtime.reader) as session:
        for start in range(0, len(ids), service.MAX_ITEMS_BY_ID):
            chunk = ids[start : start + service.MAX_ITEMS_BY_ID]
            found = await service.items_by_id(session, caller, webset_id, chunk, match=match, detail="full")
            shown.extend(dict(item) for item in found)
    return shown
