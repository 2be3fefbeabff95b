"""MCP tool of the engagement capability: like a relevant recent LinkedIn post (v2 rules)."""

from __future__ import annotations

from typing import Annotated, Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.engagement import service
from leadwire.engagement.schemas import PostLikeRequest
from leadwire.platform.http import ToolKit, field_schema
from leadwire.platform.jobs import NewJob, PublicJob

# Published with the REST model's schema of each field; validated by the model (REST codes).
ProfileUrl = Annotated[Any, field_schema(PostLikeRequest, "profile_url")]
Topic = Annotated[Any, field_schema(PostLikeRequest, "content")]
AccountId = Annotated[Any, field_schema(PostLikeRequest, "account_id")]
PostLimit = Annotated[Any, field_schema(PostLikeRequest, "post_limit")]
Locale = Annotated[Any, field_schema(PostLikeRequest, "locale")]
Interval = Annotated[Any, field_schema(PostLikeRequest, "min_channel_task_interval_seconds")]


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(
        description="Like the recent post of a LinkedIn profile most relevant to a topic. profile_url "
        "(required): https://www.linkedin.com/in/<slug>; content (required): the topic, not text to publish; "
        "account_id: needed with several LinkedIn accounts; post_limit 1-50 (20); locale en|zh; "
        "min_channel_task_interval_seconds 60-86400 (60). Returns the job; its result says which post was "
        "liked, or skipped."
    )
    async def like_linkedin_post(
        profile_url: ProfileUrl = None,
        content: Topic = None,
        account_id: AccountId = None,
        post_limit: PostLimit = 20,
        locale: Locale = "en",
        min_channel_task_interval_seconds: Interval = 60,
        wait_seconds: int = 20,
    ) -> PublicJob:
        caller = await kit.allowed("engagement:write", "outreach")
        body = kit.validate(
            PostLikeRequest,
            {
                "profile_url": profile_url,
                "content": content,
                "account_id": account_id,
                "post_limit": post_limit,
                "locale": locale,
                "min_channel_task_interval_seconds": min_channel_task_interval_seconds,
            },
        )
        runtime = kit.get_runtime()

        async def create(session: AsyncSession) -> NewJob:
            return await service.start(session, runtime, caller, body, version=2)

        return await kit.start_job(create, wait_seconds)
