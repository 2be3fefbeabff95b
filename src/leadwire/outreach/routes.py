"""HTTP of the outreach capability: dispatches (v1 and v2, same body and reduced item, DESIGN section
8), and v1's read of its jobs at `/api/v1/outreach/jobs/{id}` (v2 reads every job at
`/api/v2/jobs/{id}`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path

from leadwire.outreach import service
from leadwire.outreach.schemas import DispatchRequest
from leadwire.platform.callers import Caller
from leadwire.platform.http import (
    Idempotency,
    ItemEnvelope,
    JSONResponse,
    Session,
    documented,
    errors,
    flat_get,
    idempotent,
    json_body,
    json_response,
    ok_item,
    openapi_body,
    prefer_wait,
    require,
    respond_with_job,
)
from leadwire.platform.jobs import PublicJob, ReducedJob, read_job
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(tags=["outreach"])
OutreachJobReader = Annotated[Caller, Depends(require(None, "poll"))]
OutreachWriter = Annotated[Caller, Depends(require("outreach:write", "outreach"))]

DISPATCH_ERRORS = errors(
    "invalid_request",
    "account_id_required",
    "invalid_channel",
    "invalid_action",
    "recipient_address_required",
    "recipient_profile_url_required",
    "recipient_phone_required",
    "invalid_profile_url",
    "content_subject_required",
    "content_text_or_html_required",
    "content_text_or_attachment_required",
    "attachment_invalid",
    "attachments_invalid",
    "queued_bytes_limit_exceeded",
    "min_channel_task_interval_seconds_invalid",
    "account_not_found",
    "connect_account_not_sendable",
    "connect_account_reconnect_required",
    "idempotency_conflict",
    "idempotency_key_in_progress",
    "request_payload_too_large",
    "task_unavailable",
)
_CREATED = {
    **documented(ItemEnvelope[ReducedJob], 202, "Dispatch accepted: scheduled at the channel's next slot"),
    **documented(ItemEnvelope[PublicJob], 200, "Job finished within Prefer: wait"),
}


async def _dispatch(
    session: Session,
    caller: OutreachWriter,
    idem: Idempotency = Depends(idempotent()),
    body: DispatchRequest = Depends(json_body(DispatchRequest)),
    runtime: Runtime = Depends(get_runtime),
    wait: int | None = Depends(prefer_wait),
) -> JSONResponse:
    job = await service.start_dispatch(session, runtime, caller, body)
    return await respond_with_job(session, runtime, job, idem=idem, wait=wait)


DISPATCH_DESCRIPTION = (
    "Creates an `outreach.dispatch` job that sends one email, LinkedIn or WhatsApp message through the "
    "connected account `account_id` (its channel must be `channel`); on LinkedIn a connection gets a "
    "message, anyone else a connection request with the text as its note. The job is `scheduled` at the "
    "channel's next free slot — at least `min_channel_task_interval_seconds` (60-86400, default 60) after "
    "the previous job of this user on this channel — so 202 means accepted, not sent. The 202 item is the "
    "reduced `{id, status, action, channel, scheduled_at}`; the outcome is read at "
    "`GET /api/v2/jobs/{id}` (v1: `/api/v1/outreach/jobs/{id}`). A message is sent at most once: a "
    "worker lost mid-send fails the job `delivery_unknown` rather than send again. Not metered "
    "(`billing.status: not_metered`). Needs `outreach:write`. Body limit 12 MB."
)

for _version in ("v1", "v2"):
    router.add_api_route(
        f"/api/{_version}/outreach/dispatches",
        _dispatch,
        methods=["POST"],
        status_code=202,
        name=f"create_dispatch_{_version}",
        summary="Send one email, LinkedIn or WhatsApp action through a connected account"
        + (" (v1)" if _version == "v1" else ""),
        description=DISPATCH_DESCRIPTION,
        openapi_extra=openapi_body(DispatchRequest),
        responses={**_CREATED, **DISPATCH_ERRORS},
    )


@flat_get(
    router,
    "/api/v1/outreach/jobs/{job_id}",
    responses={**documented(ItemEnvelope[PublicJob]), **errors("task_not_found")},
    summary="Read an outreach job (v1)",
)
async def get_outreach_job_v1(
    caller: OutreachJobReader,
    job_id: str = Path(description="job id from a creation response"),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    """The v1 read of a dispatch or post-like job, in the same shape as `GET /api/v2/jobs/{id}`; any
    other job is 404 `task_not_found`. Free; polled under the job-polling rate limit."""
    # Dispatches and post likes: v1 knows no other job, so another one is not found (before any scope).
    job = await read_job(runtime.driver_reads, caller, job_id, actions=lambda a: a.startswith("outreach."))
    return json_response(ok_item(job))
