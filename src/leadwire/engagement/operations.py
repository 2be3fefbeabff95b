"""What the engagement capability lets a caller do: its permission and the LinkedIn post like, declared
once per version for REST (v1 keeps its own body and answers), MCP (v2 rules) and (through OpenAPI) the
SDK and CLI."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from leadwire.channels.limits import SENDS
from leadwire.engagement import service
from leadwire.engagement.schemas import PostLikeRequest, PostLikeRequestV1
from leadwire.platform.callers import Permission
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs import JobLike, ReducedJob, job_operation

WRITE = Permission("engagement:write", SENDS.name)

_ERRORS = (
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
)
_DESCRIPTION = (
    "Creates an `outreach.linkedin.post_like` job. No post URL is given: the job reads up to `post_limit` "
    "(1-50, default 20) recent posts of `profile_url`, scores each against the topic `content`, and likes "
    "the most relevant one this account has not liked yet; with none relevant it still succeeds with "
    "`{status: skipped, reason: no_relevant_post, liked_post: null}`. `account_id` is needed only when "
    "several usable LinkedIn accounts exist. The like takes part in LinkedIn's pacing "
    "(`min_channel_task_interval_seconds`), so the 202 item is the reduced "
    "`{id, status: queued, action, channel, scheduled_at}`. Not metered. Needs `engagement:write`. "
    "Body limit 32 KB."
)


def _failed_like(job: JobLike) -> ApiError | None:
    """v1: a LinkedIn action that failed while the caller waited for it is 502 `action_failed`."""
    if job.status != "failed":
        return None
    return ApiError("action_failed", detail=f"job {job.id} failed: {job.error_code}")


POST_LIKE = job_operation(
    name="like_linkedin_post",
    body=PostLikeRequest,
    permission=WRITE,
    start=partial(service.start, version=2),
    created=(ReducedJob, "Post like accepted: queued for the account's next LinkedIn slot"),
    error_codes=(*_ERRORS, "account_id_required", "sending_queue_full"),
    summary="Like the recent post of a LinkedIn profile most relevant to a topic",
    description=_DESCRIPTION,
    tool_description=(
        "Like the recent post of a LinkedIn profile most relevant to a topic. profile_url (required): "
        "https://www.linkedin.com/in/<slug>; content (required): the topic, not text to publish; "
        "account_id: needed with several LinkedIn accounts; post_limit 1-50 (20); locale en|zh; "
        "min_channel_task_interval_seconds 60-86400 (60). Returns the job; its result says which post was "
        "liked, or skipped."
    ),
)
# v1: the same operation with v1's body (an interval below 60 s is taken as 60 s), its codes, and a like
# that failed while the caller waited answered 502; not an MCP tool (MCP follows v2's rules).
POST_LIKE_V1 = replace(
    POST_LIKE,
    body=PostLikeRequestV1,
    start=partial(service.start, version=1),
    error_codes=(*_ERRORS, "account_id_required_multiple_linkedin_accounts", "action_failed"),
    description=_DESCRIPTION
    + " v1: an interval below 60 s is taken as 60 s; several accounts without `account_id` is "
    "`account_id_required_multiple_linkedin_accounts`; a like that fails while the caller waits "
    "(`Prefer: wait`) is 502 `action_failed`.",
    tool_description=None,
    refuse_finished=_failed_like,
)
OPERATIONS = (POST_LIKE, POST_LIKE_V1)
