"""HTTP: enrichments of a prospect list (v2) — add a column, list, read, cancel and delete it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from leadwire.platform.callers import Caller
from leadwire.platform.http import (
    Deleted,
    Idempotency,
    ItemEnvelope,
    JSONResponse,
    PageEnvelope,
    Session,
    add_creation_route,
    documented,
    errors,
    idempotent,
    json_response,
    ok_item,
    ok_items,
    require,
    respond,
)
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.websets import enrichments
from leadwire.websets.enrichment_schemas import EnrichmentOut
from leadwire.websets.operations import CREATE_ENRICHMENT, READ, WRITE

router = APIRouter(prefix="/api/v2/websets/{webset_id}/enrichments", tags=["websets"])
Reader = Annotated[Caller, Depends(require(READ))]
Writer = Annotated[Caller, Depends(require(WRITE))]
add_creation_route(router, "", CREATE_ENRICHMENT)
ONE_ERRORS = ("webset_not_found", "enrichment_not_found")


@router.get(
    "",
    summary="List a prospect list's enrichments",
    description="Oldest first, each with its status and `progress` (`done` of `total` qualified items). "
    "Needs `websets:read`.",
    responses={**documented(PageEnvelope[EnrichmentOut]), **errors("webset_not_found")},
)
async def list_enrichments(session: Session, caller: Reader, webset_id: str) -> JSONResponse:
    found = await enrichments.list_for(session, caller, webset_id)
    return json_response(ok_items(found, next_cursor=None, has_more=False))


@router.get(
    "/{enrichment_id}",
    summary="Read an enrichment",
    description="Its status (`pending`, `running`, `completed`, `cancelled`) and progress. Needs "
    "`websets:read`.",
    responses={**documented(ItemEnvelope[EnrichmentOut]), **errors(*ONE_ERRORS)},
)
async def get_enrichment(
    session: Session, caller: Reader, webset_id: str, enrichment_id: str
) -> JSONResponse:
    return json_response(ok_item(await enrichments.read(session, caller, webset_id, enrichment_id)))


@router.post(
    "/{enrichment_id}/cancel",
    summary="Cancel an enrichment",
    description=(
        "Stops filling it: the cells found stay on the items (and are charged), the others show "
        "`cancelled`; later items get none. A finished enrichment is answered unchanged. Needs "
        "`websets:write`."
    ),
    responses={
        **documented(ItemEnvelope[EnrichmentOut]),
        **errors(*ONE_ERRORS, "invalid_request", "idempotency_conflict", "idempotency_key_in_progress"),
    },
)
async def cancel_enrichment(
    session: Session,
    caller: Writer,
    webset_id: str,
    enrichment_id: str,
    idem: Idempotency = Depends(idempotent()),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    found = await enrichments.cancel(session, runtime.notifier, caller, webset_id, enrichment_id)
    return await respond(session, idem, ok_item(found))


@router.delete(
    "/{enrichment_id}",
    summary="Delete an enrichment",
    description=(
        "Cancels it and removes it from the list's items and exports; cells already found were charged. "
        "Needs `websets:write`."
    ),
    responses={**documented(ItemEnvelope[Deleted]), **errors(*ONE_ERRORS)},
)
async def delete_enrichment(
    session: Session,
    caller: Writer,
    webset_id: str,
    enrichment_id: str,
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    await enrichments.delete(session, runtime.notifier, caller, webset_id, enrichment_id)
    return json_response(ok_item(Deleted(id=enrichment_id, deleted=True)))
