"""The post-like job: what the worker runs when a post like's LinkedIn slot is due."""

from __future__ import annotations

from typing import Any

from leadwire.engagement import service
from leadwire.engagement.schemas import PostLikeRequest, PostLikeResult
from leadwire.platform.billing import NOT_METERED
from leadwire.platform.jobs import ActionSpec, JobContext, reduced_job


async def run_post_like(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    # The payload is the validated body plus what creation decided: the account and the API version.
    body = PostLikeRequest.model_validate(payload)
    return await service.like_relevant_post(ctx, body, str(payload["account_id"]))


POST_LIKE_ACTION = ActionSpec(
    action=service.POST_LIKE,
    scopes="engagement",
    handler=run_post_like,
    request_class="outreach",
    timeout_seconds=120.0,
    price=NOT_METERED,  # outreach actions are outside job billing (docs/api.md, Credits and per-row billing)
    creation_item=reduced_job,  # `{id, status, action, channel, scheduled_at}` like dispatches
    result=PostLikeResult,
)
