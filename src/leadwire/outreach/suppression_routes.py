"""HTTP: the suppression list (v2) — recipients no dispatch may reach: add one, import a CSV, list,
read, delete."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from leadwire.outreach import suppression_import, suppressions
from leadwire.outreach.operations import READ, SUPPRESSIONS_WRITE
from leadwire.outreach.suppression_schemas import SuppressionCreate, SuppressionImportOut, SuppressionOut
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
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
from leadwire.platform.pagination import CursorCodec, int_query
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(prefix="/api/v2/outreach/suppressions", tags=["outreach"])
Reader = Annotated[Caller, Depends(require(READ))]
Writer = Annotated[Caller, Depends(require(SUPPRESSIONS_WRITE))]
SuppressionId = Path(description="the entry's id (`sup_...`)")
CSV_MEDIA = "text/csv"
MAX_CSV_BYTES = 10 * 1024 * 1024


@router.post(
    "",
    status_code=201,
    summary="Suppress a recipient",
    description=(
        "Adds `value` for `channel`: an email address or a whole email domain (`email`), a phone "
        "(`whatsapp`), a LinkedIn profile (`linkedin`), or any of them for every channel (`any`). "
        "Stored normalised. From then on a dispatch to it is refused with 409 `recipient_suppressed`, "
        "before any job. 201 with the new entry, or 200 with the entry already listed. Free; needs "
        "`outreach:write`."
    ),
    openapi_extra=openapi_body(SuppressionCreate),
    responses={
        **documented(ItemEnvelope[SuppressionOut], 201, "The new entry"),
        **documented(ItemEnvelope[SuppressionOut], 200, "The entry already listed"),
        **errors(
            "invalid_request",
            "idempotency_conflict",
            "idempotency_key_in_progress",
            "invalid_suppression",
            "suppression_limit_exceeded",
        ),
    },
)
async def create_suppression(
    session: Session,
    caller: Writer,
    body: SuppressionCreate = Depends(json_body(SuppressionCreate)),
    idem: Idempotency = Depends(idempotent()),
) -> JSONResponse:
    entry, new = await suppressions.add(
        session, caller, channel=body.channel, value=body.value, reason=body.reason
    )
    return await respond(session, idem, ok_item(entry), status=201 if new else 200)


@router.post(
    "/import",
    summary="Suppress recipients from a CSV",
    description=(
        "A CSV body (`Content-Type: text/csv`, up to 10 MB and 100,000 lines) with a header naming "
        "`channel` and `value` (and optionally `reason`). Every good line is added, or kept when it is "
        "listed already. Every bad line is counted, and the first 100 are reported with their `line`, "
        "`field` and `code`. The lines are written in batches; they count (are checked at dispatch, "
        "listed) once the whole file is written, and none of them if it fails. One import at a time per "
        "account. Free; needs `outreach:write`."
    ),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                CSV_MEDIA: {
                    "schema": {"type": "string", "description": "channel,value,reason"},
                    "example": "channel,value,reason\nemail,jane@acme.example,asked not to be contacted\n"
                    "email,competitor.example,\nwhatsapp,+4915123456789,opted out by phone\n",
                }
            },
        }
    },
    responses={
        **documented(ItemEnvelope[SuppressionImportOut], 200, "What was added and what was refused"),
        **errors(
            "idempotency_conflict",
            "idempotency_key_in_progress",
            "invalid_suppression",
            "suppression_import_too_large",
            "suppression_import_in_progress",
            "suppression_limit_exceeded",
            "request_payload_too_large",
            "task_unavailable",
        ),
    },
)
async def import_suppressions(
    request: Request,
    session: Session,
    caller: Writer,
    runtime: Runtime = Depends(get_runtime),
    idem: Idempotency = Depends(idempotent()),
) -> JSONResponse:
    raw = await request.body()
    if len(raw) > MAX_CSV_BYTES:
        raise ApiError("suppression_import_too_large", detail="a CSV is at most 10 MB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError("invalid_suppression", detail="the CSV is not UTF-8 text") from None
    # Written in batches of its own transactions; the request's session stores only the answer.
    outcome = await suppression_import.import_csv(runtime.sessionmaker, caller, text)
    return await respond(session, idem, ok_item(outcome))


@router.get(
    "",
    summary="List the suppression list",
    description=(
        "Newest first, `limit` (1-100, default 20) per page; pass `next_cursor` unchanged as `cursor` "
        "for the next page while `has_more`. `channel` keeps one channel's entries; `value` finds one "
        "recipient's, however it is written. Needs `outreach:read`."
    ),
    responses={**documented(PageEnvelope[SuppressionOut]), **errors("invalid_request")},
)
async def list_suppressions(
    session: Session,
    caller: Reader,
    runtime: Runtime = Depends(get_runtime),
    channel: str | None = Query(default=None, description="email, linkedin, whatsapp or any"),
    value: str | None = Query(default=None, description="an address, domain, phone or profile URL"),
    limit: str | None = Query(default=None, description="1-100, default 20"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    if channel is not None and channel not in suppressions.CHANNELS:
        raise ApiError("invalid_request", param="channel", detail="one of email, linkedin, whatsapp, any")
    rows, next_cursor = await suppressions.list_entries(
        session,
        CursorCodec.for_instance(runtime.settings.resolved_secret_key),
        caller,
        channel=channel,
        value=value[:320] if value is not None else None,
        limit=int_query(limit, "limit", 20, 1, 100),
        cursor=cursor,
    )
    return json_response(ok_page(rows, next_cursor))


@router.get(
    "/{suppression_id}",
    summary="Read a suppression entry",
    description="The entry: channel, kind, normalised value, reason and source. Needs `outreach:read`.",
    responses={**documented(ItemEnvelope[SuppressionOut]), **errors("suppression_not_found")},
)
async def get_suppression(
    session: Session, caller: Reader, suppression_id: str = SuppressionId
) -> JSONResponse:
    entry = await suppressions.get_owned(session, caller, suppression_id)
    return json_response(ok_item(suppressions.view(entry)))


@router.delete(
    "/{suppression_id}",
    summary="Remove a suppression entry",
    description=(
        "The recipient may be reached again (unless another entry lists it). Deleting again is 404 "
        "`suppression_not_found`. Needs `outreach:write`."
    ),
    responses={**documented(ItemEnvelope[Deleted]), **errors("suppression_not_found")},
)
async def delete_suppression(
    session: Session, caller: Writer, suppression_id: str = SuppressionId
) -> JSONResponse:
    await suppressions.delete(session, caller, suppression_id)
    return json_response(ok_item(Deleted(id=suppression_id, deleted=True)))
