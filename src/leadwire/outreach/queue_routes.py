"""HTTP: the outreach queue (v2) — the sends still waiting, in slot order, with why each waits."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from leadwire.channels.queue import QueuedSend
from leadwire.outreach import queue_service
from leadwire.outreach.operations import READ
from leadwire.platform.callers import Caller
from leadwire.platform.http import (
    JSONResponse,
    PageEnvelope,
    Session,
    documented,
    errors,
    json_response,
    ok_page,
    require,
)
from leadwire.platform.pagination import CursorCodec, int_query
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(tags=["outreach"])
Reader = Annotated[Caller, Depends(require(READ))]


@router.get(
    "/api/v2/outreach/queue",
    summary="List the sends waiting to go out",
    description=(
        "Dispatches and post likes created on v2 that have not started, in the order they will go: "
        "each with its job id, its slot (`scheduled_at`), its `hold: {reason, until}` when the account's "
        "sending policy placed it past the channel's slot (`daily_cap`, `ramp`, `window`, `paused`, "
        "`person_touched`), and the timezone its window was read in when the window follows the "
        "recipient (`timezone_source`: `phone`, `email_domain` or `account`). `account_id` keeps one "
        "account's. `limit` 1-100 (default 20); pass `next_cursor` as `cursor` while `has_more`. Needs "
        "`outreach:read`."
    ),
    responses={
        **documented(PageEnvelope[QueuedSend]),
        **errors("invalid_request", "account_not_found"),
    },
)
async def list_queue(
    session: Session,
    caller: Reader,
    runtime: Runtime = Depends(get_runtime),
    account_id: str | None = Query(default=None, description="one connected account's sends"),
    limit: str | None = Query(default=None, description="1-100, default 20"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    rows, next_cursor = await queue_service.waiting(
        session,
        CursorCodec.for_instance(runtime.settings.resolved_secret_key),
        caller,
        account_id=account_id,
        limit=int_query(limit, "limit", 20, 1, 100),
        cursor=cursor,
    )
    return json_response(ok_page(rows, next_cursor))
