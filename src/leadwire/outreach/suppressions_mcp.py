"""MCP tools of the suppression list: suppress a recipient, list, read and remove entries, on the same
services and allowances as REST (a CSV file is for REST, the SDK and the CLI)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.outreach import suppressions
from leadwire.outreach.operations import READ, SUPPRESSIONS_WRITE
from leadwire.outreach.suppression_schemas import SuppressionCreate, SuppressionOut
from leadwire.platform.errors import ApiError
from leadwire.platform.http import Deleted, ToolKit, given, tool_error
from leadwire.platform.pagination import CursorCodec, page

ListLimit = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 100})]
# Published as the request model states it; taken as it comes, so that the permission is checked first
# and a malformed value gets the REST code (`invalid_suppression`), not the framework's error.
Channel = Annotated[Any, WithJsonSchema({"type": "string", "enum": list(suppressions.CHANNELS)})]


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(
        description=(
            "Suppress a recipient: no dispatch may reach it. channel email (an address or a whole "
            "domain), whatsapp (a phone), linkedin (a profile URL) or any. Answers the entry, new or "
            "already listed."
        )
    )
    async def suppress_recipient(channel: Channel, value: str, reason: str | None = None) -> SuppressionOut:
        caller = await kit.allowed(SUPPRESSIONS_WRITE)
        body = kit.validate(SuppressionCreate, given(channel=channel, value=value, reason=reason))

        async def add(session: AsyncSession) -> SuppressionOut:
            entry, _ = await suppressions.add(
                session, caller, channel=body.channel, value=body.value, reason=body.reason
            )
            return entry

        return await kit.write(add)

    @kit.server.tool(description="List the suppression list, newest first; `value` finds one recipient.")
    async def list_suppressions(
        channel: str | None = None, value: str | None = None, limit: ListLimit = 20, cursor: str | None = None
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        if not 1 <= limit <= 100:
            raise tool_error(ApiError("invalid_request", param="limit"))
        if channel is not None and channel not in suppressions.CHANNELS:
            raise tool_error(ApiError("invalid_request", param="channel"))

        async def read(session: AsyncSession) -> dict[str, Any]:
            codec = CursorCodec.for_instance(kit.get_runtime().settings.resolved_secret_key)
            found, next_cursor = await suppressions.list_entries(
                session, codec, caller, channel=channel, value=value, limit=limit, cursor=cursor
            )
            return page(found, next_cursor)

        return await kit.read(read)

    @kit.server.tool(description="A suppression entry: channel, kind, value, reason and source.")
    async def get_suppression(suppression_id: str) -> SuppressionOut:
        caller = await kit.allowed(READ)

        async def read(session: AsyncSession) -> SuppressionOut:
            return suppressions.view(await suppressions.get_owned(session, caller, suppression_id))

        return await kit.read(read)

    @kit.server.tool(description="Remove a suppression entry: the recipient may be reached again.")
    async def delete_suppression(suppression_id: str) -> Deleted:
        caller = await kit.allowed(SUPPRESSIONS_WRITE)

        async def remove(session: AsyncSession) -> Deleted:
            await suppressions.delete(session, caller, suppression_id)
            return Deleted(id=suppression_id, deleted=True)

        return await kit.write(remove)
