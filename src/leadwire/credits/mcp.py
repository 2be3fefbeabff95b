"""MCP tools of the credits capability."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.credits.operations import READ
from leadwire.credits.schemas import CreditsOut, public_credits
from leadwire.platform.billing import read_balance
from leadwire.platform.http import ToolKit


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(description="Credits of the account: balance, reserved, available.")
    async def get_credits() -> CreditsOut:
        caller = await kit.allowed(READ)

        async def read(session: AsyncSession) -> CreditsOut:
            return public_credits(await read_balance(session, caller.user_id))

        return await kit.read(read)
