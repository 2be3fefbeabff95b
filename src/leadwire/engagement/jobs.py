"""The post-like job: what the worker runs when a post like's LinkedIn slot is due."""

from __future__ import annotations

from typing import Any

from leadwire.channels.actions import sending_action
from leadwire.engagement import service
from leadwire.engagement.schemas import PostLikeRequest, PostLikeResult
from leadwire.platform.jobs import JobContext


async def run_post_like(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    # The payload is the validated body plus what creation decided: the account and the API version.
    body = PostLikeRequest.model_validate(payload)
    return await service.like_relevant_post(
        ctx, body, str(payload["account_id"]), api_version=int(payload.get("api_version", 1))
    )


POST_LIKE_ACTION = sending_action(
    action=service.POST_LIKE, scopes="engagement", handler=run_post_like, result=PostLikeResult
)
