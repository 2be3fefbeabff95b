"""HTTP: prospect lists (v2) — create, list, read, strategy, items, streams and Find More."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from sse_starlette import EventSourceResponse
from starlette.responses import StreamingResponse

from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.http import (
    SSE_DOC,
    ItemEnvelope,
    JSONResponse,
    Session,
    add_creation_route,
    documented,
    errors,
    json_response,
    ok_item,
    ok_items,
    ok_page,
    owned_download,
    owned_stream,
    require,
    resume_point,
)
from leadwire.platform.jobs import get_owned_job
from leadwire.platform.pagination import int_query
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.validation import int_param
from leadwire.websets import export, service, streams
from leadwire.websets.operations import CREATE, FIND_MORE, READ
from leadwire.websets.schemas import (
    DETAIL_LIMITS,
    MATCHES,
    TARGET_KINDS,
    ItemOut,
    ItemsPage,
    StrategyOut,
    WebsetListItem,
    WebsetOut,
    WebsetsPage,
)

router = APIRouter(prefix="/api/v2/websets", tags=["websets"])
WebsetsReader = Annotated[Caller, Depends(require(READ))]
add_creation_route(router, "", CREATE)
add_creation_route(router, "/{webset_id}/find-more", FIND_MORE)
READ_ERRORS = ("webset_not_found", "invalid_request")
# Reading items made of gated data: the plan's refusal (the key's is among every route's codes).
ITEM_ERRORS = (*READ_ERRORS, "membership_tier_insufficient")


def _target_kind(value: str | None) -> str | None:
    if value is not None and value not in TARGET_KINDS:
        raise ApiError("webset_target_kind_unsupported", param="target_kind")
    return value


@router.get(
    "",
    summary="List the account's prospect lists",
    description=(
        "Newest first, `limit` (1-100, default 20) per page; pass `next_cursor` unchanged as `cursor` "
        "for the next page while `has_more`. Optional `target_kind` filter. Free; needs `websets:read`."
    ),
    responses={
        **documented(WebsetsPage[WebsetListItem]),
        **errors("invalid_request", "webset_target_kind_unsupported"),
    },
)
async def list_websets(
    session: Session,
    caller: WebsetsReader,
    runtime: Runtime = Depends(get_runtime),
    limit: str | None = Query(default=None, description="1-100, default 20"),
    target_kind: str | None = Query(default=None, description="company or person; default: both"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    rows, next_cursor = await service.list_websets(
        session,
        service.cursor_codec(runtime),
        caller,
        limit=int_query(limit, "limit", 20, 1, 100),
        target_kind=_target_kind(target_kind),
        cursor=cursor,
    )
    return json_response(ok_page(rows, next_cursor))


@router.get(
    "/{webset_id}",
    summary="Read a prospect list",
    description=(
        "The list with its status, progress (`goal`, `verify_cap`, `verified`, `qualified`, `full`, "
        "`stop_reason`), criteria and, when `failed`, `failure.code`. The items endpoint is the source "
        "of truth for results. Free; needs `websets:read`."
    ),
    responses={**documented(ItemEnvelope[WebsetOut]), **errors(*READ_ERRORS)},
)
async def get_webset(session: Session, caller: WebsetsReader, webset_id: str) -> JSONResponse:
    return json_response(ok_item(await service.detail(session, caller, webset_id)))


@router.get(
    "/{webset_id}/strategy",
    summary="Read a prospect list's criteria and search strategy",
    description=(
        "The criteria and the planned query groups once ready (`criteria_ready`, `strategy_ready`; "
        "`strategy` is null before). Starts no model call or search and consumes no credits; the list "
        "need not be complete. The SSE event `webset.strategy` carries the same snapshot. Needs "
        "`websets:read`."
    ),
    responses={**documented(ItemEnvelope[StrategyOut]), **errors(*READ_ERRORS)},
)
async def get_strategy(session: Session, caller: WebsetsReader, webset_id: str) -> JSONResponse:
    return json_response(ok_item(await service.strategy(session, caller, webset_id)))


@router.get(
    "/{webset_id}/items",
    summary="Read a page of a prospect list's items (a snapshot)",
    description=(
        "Items by `match` (`qualified` = full + partial, the default; `full`, `partial`, `rejected`, "
        "`verified` = all three) at a `detail` level (`compact`, `standard` adds the entity and check "
        "counts, `full` adds per-criterion reasoning and references). Readable while discovery runs; "
        "identify items by `id`. The first page's `stream_cursor` and `items_revision` are the "
        "checkpoint to open the items stream from. Free; needs `websets:read`."
    ),
    responses={**documented(ItemsPage[ItemOut]), **errors(*ITEM_ERRORS)},
)
async def list_items(
    session: Session,
    caller: WebsetsReader,
    webset_id: str,
    runtime: Runtime = Depends(get_runtime),
    match: str = Query(default="qualified", description="qualified, full, partial, rejected or verified"),
    detail: str = Query(default="compact", description="compact, standard or full"),
    limit: str | None = Query(default=None, description="default 10; at most 50 / 25 / 10 by detail"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    if match not in MATCHES:
        raise ApiError("invalid_request", param="match", detail=", ".join(MATCHES))
    if detail not in DETAIL_LIMITS:
        raise ApiError("invalid_request", param="detail", detail="compact, standard or full")
    size = int_query(limit, "limit", 10, 1, DETAIL_LIMITS[detail])
    snapshot = await service.items(
        session,
        service.cursor_codec(runtime),
        caller,
        webset_id,
        match=match,
        detail=detail,
        limit=size,
        cursor=cursor,
    )
    return json_response(
        ok_items(
            snapshot.items,
            detail=detail,
            next_cursor=snapshot.next_cursor,
            has_more=snapshot.next_cursor is not None,
            webset_status=snapshot.webset_status,
            items_revision=snapshot.items_revision,
            stream_cursor=snapshot.stream_cursor,
        )
    )


@router.get(
    "/{webset_id}/export",
    summary="Export a prospect list's items (CSV or JSON lines)",
    description=(
        "Every item of `match` (as the items endpoint; `qualified` by default), streamed in list order "
        "at constant memory. `format=csv` (the default): a header, then a row per item with its "
        "facts, `match_status`, `score` and one `criterion: <description>` column per criterion "
        "holding its verdict (`yes`, `no`, `unclear`); a cell a spreadsheet would run as a formula "
        "starts with `'`. `format=jsonl`: one item per line at `full` detail. An export holds one of "
        "the key's and the account's open streams while it runs (429 past the bound). Free; needs "
        "`websets:read`."
    ),
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "The file, streamed",
            "content": {m.split(";")[0]: {"schema": {"type": "string"}} for m in export.FORMATS.values()},
        },
        **errors(*ITEM_ERRORS, "api_key_rate_limit_exceeded", "api_rate_limit_exceeded"),
    },
)
async def export_items(
    session: Session,
    caller: WebsetsReader,
    webset_id: str,
    runtime: Runtime = Depends(get_runtime),
    format: str = Query(default="csv", description="csv or jsonl"),
    match: str = Query(default="qualified", description="qualified, full, partial, rejected or verified"),
) -> StreamingResponse:
    what = await export.prepare(session, caller, webset_id, match=match, format=format)
    return owned_download(
        runtime,
        caller,
        export.chunks(runtime.reader, what),
        media_type=what.media_type,
        filename=what.filename,
    )


def _revision(value: str | None) -> int | None:
    return int_param(value, "items_revision", detail="the items_revision of a snapshot") if value else None


@router.get(
    "/{webset_id}/items/stream",
    summary="Follow a prospect list's items and state (server-sent events)",
    description=(
        "Opened from a snapshot's checkpoint (`stream_cursor` + `items_revision` of the items page) it "
        "replays what changed since and follows: `items.changed` (items and state; merge items by "
        "`id`), `webset.strategy`, `webset.item.enriched` (an enrichment's cell of an item), `complete` "
        "(the stream ends; a finished list whose enrichment is being filled ends when it is) and "
        "`reset` (the checkpoint is too old: "
        "read a fresh snapshot and reconnect from it). Without a checkpoint it starts at the latest "
        "event. Each event has an `id`; a reconnecting client sends it as `Last-Event-ID` and resumes "
        "after it. Free; needs `websets:read`."
    ),
    response_class=EventSourceResponse,
    responses={**SSE_DOC, **errors(*ITEM_ERRORS)},
)
async def stream_items(
    request: Request,
    session: Session,
    caller: WebsetsReader,
    webset_id: str,
    runtime: Runtime = Depends(get_runtime),
    stream_cursor: str | None = Query(default=None, description="`stream_cursor` of the snapshot"),
    items_revision: str | None = Query(default=None, description="`items_revision` of the snapshot"),
) -> EventSourceResponse:
    await service.get_readable(session, caller, webset_id)
    start = resume_point(stream_cursor, request.headers.get("last-event-id"))
    revision = _revision(items_revision) if request.headers.get("last-event-id") in (None, "") else None
    opened = await streams.opening(session, webset_id, start=start, items_revision=revision)
    return owned_stream(
        runtime, caller, lambda allowed: streams.events(runtime, opened, caller, still_allowed=allowed)
    )


@router.get(
    "/{webset_id}/find-more/stream",
    summary="Follow one Find More run (server-sent events)",
    description=(
        "The items stream of one Find More run: `job_id` names the run's job, `stream_cursor` + "
        "`items_revision` the checkpoint of the snapshot read before calling Find More. The same "
        "events as the items stream; `complete` when that run ends. `Last-Event-ID` resumes after the "
        "last event received. Free; needs `websets:read`."
    ),
    response_class=EventSourceResponse,
    responses={**SSE_DOC, **errors(*ITEM_ERRORS, "task_not_found")},
)
async def stream_find_more(
    request: Request,
    session: Session,
    caller: WebsetsReader,
    webset_id: str,
    runtime: Runtime = Depends(get_runtime),
    job_id: str | None = Query(default=None, description="the id of the Find More job"),
    stream_cursor: str | None = Query(default=None, description="`stream_cursor` of the snapshot"),
    items_revision: str | None = Query(default=None, description="`items_revision` of the snapshot"),
) -> EventSourceResponse:
    await service.get_readable(session, caller, webset_id)
    if not job_id:
        raise ApiError("invalid_request", param="job_id", detail="the id of the Find More job")
    job = await get_owned_job(session, caller, job_id, actions=lambda action: action == service.FIND_MORE)
    if job.resource_id != webset_id:
        raise ApiError("task_not_found")
    start = resume_point(stream_cursor, request.headers.get("last-event-id"))
    revision = _revision(items_revision) if request.headers.get("last-event-id") in (None, "") else None
    opened = await streams.opening(session, webset_id, start=start, items_revision=revision, job_id=job.id)
    return owned_stream(
        runtime, caller, lambda allowed: streams.events(runtime, opened, caller, still_allowed=allowed)
    )
