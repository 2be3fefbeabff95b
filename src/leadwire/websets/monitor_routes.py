"""HTTP: monitors (v2) — keep a prospect list fresh on a schedule; create, list, read, change, delete,
and read a monitor's runs."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from leadwire.platform.callers import Caller
from leadwire.platform.http import (
    Deleted,
    Idempotency,
    ItemEnvelope,
    JSONResponse,
    PageEnvelope,
    Session,
    documented,
    errors,
    idempotent,
    json_body,
    json_response,
    ok_item,
    ok_page,
    openapi_body,
    require,
    respond,
)
from leadwire.platform.pagination import int_query
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.websets import monitors, service
from leadwire.websets.monitor_schemas import MonitorCreate, MonitorOut, MonitorRunOut, MonitorUpdate
from leadwire.websets.operations import READ, WRITE

router = APIRouter(prefix="/api/v2/monitors", tags=["monitors"])
Reader = Annotated[Caller, Depends(require(READ))]
Writer = Annotated[Caller, Depends(require(WRITE))]
MonitorId = Path(description="the monitor's id (`mon_...`)")
BODY_ERRORS = ("invalid_request", "invalid_monitor", "invalid_monitor_cadence", "request_payload_too_large")
PAGE = Query(default=None, description="1-100, default 20")
CURSOR = Query(default=None, description="`next_cursor` of the previous page, unchanged")


@router.post(
    "",
    status_code=201,
    summary="Create a monitor (keep a prospect list fresh on a schedule)",
    description=(
        "`{webset_id, cadence: {cron, timezone}, behavior, count?, metadata?}`. At each slot of the "
        "five-field cron expression (read in the IANA `timezone`, default UTC; at most hourly) a run "
        "starts. `search` (the default): a Find More of `count` (25 by default, plan-limited) new items "
        "with the list's criteria and exclusions, billed like any Find More (1 credit per new qualified "
        "item). `refresh`: a `websets.refresh` job re-verifies every released item against the criteria "
        "(items whose match or score changed come on the list's stream) and re-runs the enrichments; "
        "0.2 credit per item re-verified, enrichment cells as any. A slot runs once "
        "whatever the number of workers or restarts; a slot that cannot start (the list still running, "
        "too few credits) is recorded `skipped` with its code. At most 5 monitors a list, 50 an account. "
        "`Idempotency-Key` is honoured. Needs `websets:write`."
    ),
    openapi_extra=openapi_body(MonitorCreate),
    responses={
        **documented(ItemEnvelope[MonitorOut], 201, "The monitor, with its next slot"),
        **errors(
            *BODY_ERRORS,
            "idempotency_conflict",
            "idempotency_key_in_progress",
            "webset_not_found",
            "webset_count_not_available_for_tier",
            "membership_tier_insufficient",
            "monitor_limit_exceeded",
        ),
    },
)
async def create_monitor(
    session: Session,
    caller: Writer,
    body: MonitorCreate = Depends(json_body(MonitorCreate)),
    idem: Idempotency = Depends(idempotent()),
) -> JSONResponse:
    return await respond(session, idem, ok_item(await monitors.create(session, caller, body)), status=201)


@router.get(
    "",
    summary="List the account's monitors",
    description="Newest first; optional `webset_id` filter; `limit` 1-100 (default 20), `cursor`. Needs "
    "`websets:read`.",
    responses={**documented(PageEnvelope[MonitorOut]), **errors("invalid_request")},
)
async def list_monitors(
    session: Session,
    caller: Reader,
    runtime: Runtime = Depends(get_runtime),
    webset_id: str | None = Query(default=None, description="only this list's monitors"),
    limit: str | None = PAGE,
    cursor: str | None = CURSOR,
) -> JSONResponse:
    found, next_cursor = await monitors.list_monitors(
        session,
        service.cursor_codec(runtime),
        caller,
        webset_id=webset_id,
        limit=int_query(limit, "limit", 20, 1, 100),
        cursor=cursor,
    )
    return json_response(ok_page(found, next_cursor))


@router.get(
    "/{monitor_id}",
    summary="Read a monitor",
    description="Its cadence, status and `next_run_at` (null while paused). Needs `websets:read`.",
    responses={**documented(ItemEnvelope[MonitorOut]), **errors("monitor_not_found")},
)
async def get_monitor(session: Session, caller: Reader, monitor_id: str = MonitorId) -> JSONResponse:
    return json_response(ok_item(monitors.view(await monitors.get_owned(session, caller, monitor_id))))


@router.patch(
    "/{monitor_id}",
    summary="Change a monitor",
    description=(
        "Any of `cadence`, `status` (`active` | `paused`), `count`, `metadata`; absent fields stay. A new "
        "cadence, or resuming, counts the next slot from now. A monitor paused because its key was "
        "revoked (`pause_reason: key_revoked`) is resumed only by a key also holding `keys:write` (else "
        "403 `permission_denied`), and runs in that key's name from then on. Needs `websets:write`."
    ),
    openapi_extra=openapi_body(MonitorUpdate),
    responses={
        **documented(ItemEnvelope[MonitorOut]),
        **errors(
            *BODY_ERRORS, "monitor_not_found", "webset_count_not_available_for_tier", "permission_denied"
        ),
    },
)
async def update_monitor(
    session: Session,
    caller: Writer,
    monitor_id: str = MonitorId,
    body: MonitorUpdate = Depends(json_body(MonitorUpdate)),
) -> JSONResponse:
    return json_response(ok_item(await monitors.update(session, caller, monitor_id, body)))


@router.delete(
    "/{monitor_id}",
    summary="Delete a monitor",
    description="No more slots; a run already started goes on (a Find More job). Needs `websets:write`.",
    responses={**documented(ItemEnvelope[Deleted]), **errors("monitor_not_found")},
)
async def delete_monitor(session: Session, caller: Writer, monitor_id: str = MonitorId) -> JSONResponse:
    await monitors.delete(session, caller, monitor_id)
    return json_response(ok_item(Deleted(id=monitor_id, deleted=True)))


@router.get(
    "/{monitor_id}/runs",
    summary="List a monitor's runs",
    description=(
        "Newest first: each slot with its `job_id` and the job's `status` (follow or cancel it on the jobs "
        "endpoints), or `status: skipped` with `skipped_code`. `limit` 1-100 (default 20), `cursor`. Needs "
        "`websets:read`."
    ),
    responses={**documented(PageEnvelope[MonitorRunOut]), **errors("invalid_request", "monitor_not_found")},
)
async def list_runs(
    session: Session,
    caller: Reader,
    monitor_id: str = MonitorId,
    runtime: Runtime = Depends(get_runtime),
    limit: str | None = PAGE,
    cursor: str | None = CURSOR,
) -> JSONResponse:
    found, next_cursor = await monitors.runs(
        session,
        service.cursor_codec(runtime),
        caller,
        monitor_id,
        limit=int_query(limit, "limit", 20, 1, 100),
        cursor=cursor,
    )
    return json_response(ok_page(found, next_cursor))
