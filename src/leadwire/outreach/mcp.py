"""MCP tools of the outreach capability: one dispatch, as a job (same rules and allowances as REST)."""

from __future__ import annotations

from typing import Annotated, Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.outreach import service
from leadwire.outreach.schemas import DispatchRequest
from leadwire.platform.http import ToolKit, field_schema
from leadwire.platform.jobs import NewJob, PublicJob

# Published with the REST model's schema of each field (enums, bounds, nested objects); validated by the
# model itself, so a missing or mistyped argument gets the REST code.
AccountId = Annotated[Any, field_schema(DispatchRequest, "account_id")]
Channel = Annotated[Any, field_schema(DispatchRequest, "channel")]
Recipient = Annotated[Any, field_schema(DispatchRequest, "recipient")]
Content = Annotated[Any, field_schema(DispatchRequest, "content")]
Metadata = Annotated[Any, field_schema(DispatchRequest, "metadata")]
Interval = Annotated[Any, field_schema(DispatchRequest, "min_channel_task_interval_seconds")]


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(
        description=(
            "Send one outreach action through a connected account: an email (recipient.address, "
            "content.subject, content.text or html), a LinkedIn message or invitation "
            "(recipient.profile_url, content.text, a note at most 300 characters) or a WhatsApp message "
            "(recipient.phone in E.164). account_id, channel, recipient and content are required. "
            "Paced per channel by min_channel_task_interval_seconds (60-86400). Returns the job."
        )
    )
    async def dispatch_outreach(
        account_id: AccountId = None,
        channel: Channel = None,
        recipient: Recipient = None,
        content: Content = None,
        metadata: Metadata = None,
        min_channel_task_interval_seconds: Interval = 60,
        wait_seconds: int = 20,
    ) -> PublicJob:
        caller = await kit.allowed("outreach:write", "outreach")
        body = kit.validate(
            DispatchRequest,
            {
                "account_id": account_id,
                "channel": channel,
                "action": "outreach",
                "recipient": recipient,
                "content": content,
                "metadata": metadata,
                "min_channel_task_interval_seconds": min_channel_task_interval_seconds,
            },
        )
        runtime = kit.get_runtime()

        async def create(session: AsyncSession) -> NewJob:
            return await service.start_dispatch(session, runtime, caller, body)

        return await kit.start_job(create, wait_seconds)
