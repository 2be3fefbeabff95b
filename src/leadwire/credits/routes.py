"""HTTP: the credits balance of the caller's account, and its ledger of grants, reservations, releases
and charges."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from leadwire.credits.operations import READ
from leadwire.credits.schemas import CreditsOut, LedgerEntryOut, public_credits, public_entry
from leadwire.platform.billing import list_entries, read_balance
from leadwire.platform.callers import Caller
from leadwire.platform.http import (
    ItemEnvelope,
    JSONResponse,
    PageEnvelope,
    Session,
    documented,
    errors,
    json_response,
    ok_item,
    ok_page,
    require,
)
from leadwire.platform.pagination import CursorCodec, int_query
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(tags=["credits"])
CreditsReader = Annotated[Caller, Depends(require(READ))]


@router.get(
    "/api/v2/credits",
    responses={**documented(ItemEnvelope[CreditsOut]), **errors()},
    summary="Read the account's credit balance",
    description=(
        "`balance` is what the account holds, `reserved` what running jobs have set aside (a job "
        "reserves its most possible cost at creation and releases the unused part when it settles), "
        "`available` = balance - reserved, which a new job's reservation must fit in (else 402 "
        "`insufficient_credits`). Not billed; needs `credits:read`."
    ),
)
async def get_credits(session: Session, caller: CreditsReader) -> JSONResponse:
    view = await read_balance(session, caller.user_id)
    return json_response(ok_item(public_credits(view)))


@router.get(
    "/api/v2/credits/ledger",
    responses={**documented(PageEnvelope[LedgerEntryOut]), **errors("invalid_request")},
    summary="List the account's credit ledger",
    description=(
        "Every entry behind the balance, newest first: `grant` (credits added), `reserve` (set aside "
        "when a job is created), `release` (the reservation given back when it ends) and `charge` "
        "(what it cost). `amount` is always positive and `kind` says which way it moves: balance = "
        "grants - charges, reserved = reserves - releases. `kind` keeps one kind, `job_id` one job's "
        "entries; an unknown kind is 400 `invalid_request` (param `kind`). `limit` 1-100 (default 25); "
        "pass `next_cursor` as `cursor` while `has_more` (a changed cursor, or one of other filters, is "
        "400 `invalid_request`, param `cursor`). Free; needs `credits:read`."
    ),
)
async def list_ledger(
    session: Session,
    caller: CreditsReader,
    runtime: Runtime = Depends(get_runtime),
    kind: str | None = Query(default=None, description="grant, reserve, release or charge"),
    job_id: str | None = Query(default=None, description="one job's entries"),
    limit: str | None = Query(default=None, description="1-100, default 25"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    entries, next_cursor = await list_entries(
        session,
        CursorCodec.for_instance(runtime.settings.resolved_secret_key),
        caller.user_id,
        kind=kind,
        job_id=job_id,
        limit=int_query(limit, "limit", 25, 1, 100),
        cursor=cursor,
    )
    rows = [public_entry(entry) for entry in entries]
    return json_response(ok_page(rows, next_cursor))
