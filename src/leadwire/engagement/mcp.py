"""MCP tool of the engagement capability: like a relevant recent LinkedIn post (v2 rules)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.engagement import service
from leadwire.engagement.schemas import PostLikeRequest
from leadwire.platform.jobs.models import Job
from leadwire.platform.mcp_tools import ToolKit
from leadwire.platform.schemas import PublicJob


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(
        description="Like the recent post of a LinkedIn profile most relevant to a topic (content). "
        "Returns the post-like job; its result says which post was liked, or skipped."
    )
    async def like_linkedin_post(
        profile_url: str,
        content: str,
        account_id: str | None = None,
        post_limit: int = 20,
        locale: str = "en",
        min_channel_task_interval_seconds: int = 60,
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
