"""MCP tools of the connected-accounts capability."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.accounts.operations import READ
from leadwire.accounts.schemas import ConnectAccountOut, public_account
from leadwire.channels import connected
from leadwire.platform.http import ToolKit


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(description="Connected accounts; can_send=true keeps only those that can send now.")
    async def list_accounts(can_send: bool | None = None) -> list[ConnectAccountOut]:
        caller = await kit.allowed(READ)

        async def read(session: AsyncSession) -> list[ConnectAccountOut]:
            found = await connected.list_accounts(session, caller.user_id, can_send=can_send)
            return [public_account(a) for a in found]

        return await kit.read(read)
