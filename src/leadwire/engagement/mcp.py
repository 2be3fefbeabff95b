"""MCP tool of the engagement capability: like a relevant recent LinkedIn post (v2 rules)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.engagement import service
from leadwire.engagement.schemas import PostLikeRequest
from leadwire.platform.jobs.models import Job
from leadwire.platform.mcp_tools import Integer, Text, ToolKit
from leadwire.platform.schemas import PublicJob


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(
        description="Like the recent post of a LinkedIn profile most relevant to a topic. profile_url "
        "(required): https://www.linkedin.com/in/<slug>; content (required): the topic, not text to publish; "
        "account_id: needed with several LinkedIn accounts; post_limit 1-50 (20); locale en|zh; "
        "min_channel_task_interval_seconds 60-86400 (60). Returns the job; its result says which post was "
        "liked, or skipped."
    )
    async def like_linkedin_post(
        profile_url: Text = None,
        content: Text = None,
        account_id: Text = None,
        post_limit: Integer = 20,
        locale: Text = "en",
        min_channel_task_interval_seconds: Integer = 60,
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

        async def create(session: AsyncSession) -> Job:
            return await service.start(session, runtime, caller, body, version=2)

        return await kit.start_job(create, wait_seconds)
