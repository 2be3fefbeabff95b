"""MCP tools of outreach beyond the dispatch: the suppression list's (`suppressions_mcp`) and the queue of
sends waiting to go out, on the same services and allowances as REST."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.outreach import queue_service, suppressions_mcp
from leadwire.outreach.operations import READ
from leadwire.outreach.suppressions_mcp import ListLimit
from leadwire.platform.errors import ApiError
from leadwire.platform.http import ToolKit, tool_error
from leadwire.platform.pagination import CursorCodec, page


def register_tools(kit: ToolKit) -> None:
    suppressions_mcp.register_tools(kit)

    @kit.server.tool(
        description="Sends (v2 dispatches and post likes) waiting to go out, in slot order, each with its "
        "hold {reason, until} when the account's sending policy placed it later; account_id keeps one "
        "account's."
    )
    async def list_outreach_queue(
        account_id: str | None = None, limit: ListLimit = 20, cursor: str | None = None
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        if not 1 <= limit <= 100:
            raise tool_error(ApiError("invalid_request", param="limit"))

        async def read(session: AsyncSession) -> dict[str, Any]:
            codec = CursorCodec.for_instance(kit.get_runtime().settings.resolved_secret_key)
            found, next_cursor = await queue_service.waiting(
                session, codec, caller, account_id=account_id, limit=limit, cursor=cursor
            )
            return page(found, next_cursor)

        return await kit.read(read)
