"""HTTP of the engagement capability: LinkedIn post likes, v2 and v1 (spec section 4)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from leadwire.engagement import service
from leadwire.engagement.schemas import PostLikeRequest, PostLikeRequestV1
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.http import (
    Idempotency,
    ItemEnvelope,
    JSONResponse,
    Session,
    documented,
    errors,
    idempotent,
    json_body,
    openapi_body,
    prefer_wait,
    require,
    respond_with_job,
)
from leadwire.platform.jobs import Job, PublicJob, ReducedJob
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(tags=["engagement"])
EngagementWriter = Annotated[Caller, Depends(require("engagement:write", "outreach"))]

_COMMON = (
    "invalid_request",
    "profile_url_required",
    "invalid_profile_url",
    "content_required",
    "post_limit_invalid",
    "locale_invalid",
    "min_channel_task_interval_seconds_invalid",
    "linkedin_account_not_found",
    "account_not_found",
    "connect_account_not_sendable",
    "connect_account_reconnect_required",
    "idempotency_conflict",
    "idempotency_key_in_progress",
    "request_payload_too_large",
    "task_unavailable",
)
POST_LIKE_DESCRIPTION = (
    "Creates an `outreach.linkedin.post_like` job. No post URL is given: the job reads up to `post_limit` "
    "(1-50, default 20) recent posts of `profile_url`, scores each against the topic `content`, and likes "
    "the most relevant one this account has not liked yet; with none relevant it still succeeds with "
    "`{status: skipped, reason: no_relevant_post, liked_post: null}`. `account_id` is needed only when "
    "several usable LinkedIn accounts exist. The like takes part in LinkedIn's pacing "
    "(`min_channel_task_interval_seconds`), so the 202 item is the reduced "
    "`{id, status: queued, action, channel, scheduled_at}`. Not metered. Needs `engagement:write`. "
    "Body limit 32 KB."
)
_CREATED = {
    **documented(
        ItemEnvelope[ReducedJob], 202, "Post like accepted: queued for the account's next LinkedIn slot"
    ),
    **documented(ItemEnvelope[PublicJob], 200, "Job finished within Prefer: wait"),
}


@router.post(
    "/api/v2/outreach/linkedin/post-likes",
    status_code=202,
    summary="Like the recent post of a LinkedIn profile most relevant to a topic",
    description=POST_LIKE_DESCRIPTION,
    openapi_extra=openapi_body(PostLikeRequest),
    responses={**_CREATED, **errors(*_COMMON, "account_id_required")},
)
async def create_post_like(
    session: Session,
    caller: EngagementWriter,
    idem: Idempotency = Depends(idempotent()),
    body: PostLikeRequest = Depends(json_body(PostLikeRequest)),
    runtime: Runtime = Depends(get_runtime),
    wait: int | None = Depends(prefer_wait),
) -> JSONResponse:
    job = await service.start(session, runtime, caller, body, version=2)
    return await respond_with_job(session, runtime, job, idem=idem, wait=wait)


def _failed_like(job: Job) -> ApiError | None:
    """v1: a LinkedIn action that failed while the caller waited for it is 502 `action_failed`."""
    if job.status != "failed":
        return None
    return ApiError("action_failed", detail=f"job {job.id} failed: {job.error_code}")


@router.post(
    "/api/v1/outreach/linkedin/post-likes",
    status_code=202,
    summary="Like the recent post of a LinkedIn profile most relevant to a topic (v1)",
    description=POST_LIKE_DESCRIPTION
    + " v1: an interval below 60 s is taken as 60 s; several accounts without `account_id` is "
    "`account_id_required_multiple_linkedin_accounts`; a like that fails while the caller waits "
    "(`Prefer: wait`) is 502 `action_failed`.",
    openapi_extra=openapi_body(PostLikeRequestV1),
    responses={
        **_CREATED,
        **errors(*_COMMON, "account_id_required_multiple_linkedin_accounts", "action_failed"),
    },
)
async def create_post_like_v1(
    session: Session,
    caller: EngagementWriter,
    idem: Idempotency = Depends(idempotent()),
    body: PostLikeRequestV1 = Depends(json_body(PostLikeRequestV1)),
    runtime: Runtime = Depends(get_runtime),
    wait: int | None = Depends(prefer_wait),
) -> JSONResponse:
    job = await service.start(session, runtime, caller, body, version=1)
    return await respond_with_job(session, runtime, job, idem=idem, wait=wait, refuse_finished=_failed_like)
