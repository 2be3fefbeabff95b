"""HTTP: create public-web and contacts research jobs (v2)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from leadwire.platform.auth import Caller, require
from leadwire.platform.body import json_body, openapi_body
from leadwire.platform.envelope import JSONResponse
from leadwire.platform.http import Idempotency, idempotent, prefer_wait, respond_with_job
from leadwire.platform.openapi import errors
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.schemas import ItemEnvelope, PublicJob, documented
from leadwire.platform.session import Session
from leadwire.research import service
from leadwire.research.schemas import ContactsRequest, PublicWebRequest

router = APIRouter(prefix="/api/v2/research", tags=["research"])
# The permissions of research routes, named once.
ResearchWriter = Annotated[Caller, Depends(require("research:write", "task"))]
ContactsWriter = Annotated[Caller, Depends(require("research:write", "task", capability="contacts"))]
_CREATION_ERRORS = (
    "invalid_request",
    "insufficient_credits",
    "idempotency_conflict",
    "idempotency_key_in_progress",
    "task_unavailable",
    "request_payload_too_large",
)
_JOB = {
    **documented(ItemEnvelope[PublicJob], 202, "Job accepted"),
    **documented(ItemEnvelope[PublicJob], 200, "Job finished within Prefer: wait"),
}


@router.post(
    "/public-web",
    status_code=202,
    openapi_extra=openapi_body(PublicWebRequest),
    responses={**_JOB, **errors(*_CREATION_ERRORS)},
)
async def create_public_web(
    session: Session,
    caller: ResearchWriter,
    idem: Idempotency = Depends(idempotent()),
    body: PublicWebRequest = Depends(json_body(PublicWebRequest)),
    runtime: Runtime = Depends(get_runtime),
    wait: int | None = Depends(prefer_wait),
) -> JSONResponse:
    job = await service.start(session, runtime, caller, body)
    return await respond_with_job(session, runtime, job, idem=idem, wait=wait)


@router.post(
    "/contacts",
    status_code=202,
    openapi_extra=openapi_body(ContactsRequest),
    responses={
        **_JOB,
        **errors(*_CREATION_ERRORS, "invalid_domain", "locale_invalid", "membership_tier_insufficient"),
    },
)
async def create_contacts(
    session: Session,
    caller: ContactsWriter,
    idem: Idempotency = Depends(idempotent()),
    body: ContactsRequest = Depends(json_body(ContactsRequest)),
    runtime: Runtime = Depends(get_runtime),
    wait: int | None = Depends(prefer_wait),
) -> JSONResponse:
    job = await service.start(session, runtime, caller, body)
    return await respond_with_job(session, runtime, job, idem=idem, wait=wait)
