"""MCP tools of the credits capability: the balance, and the ledger behind it."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.credits.operations import READ
from leadwire.credits.schemas import CreditsOut, public_credits, public_entry
from leadwire.platform.billing import ENTRY_KINDS, list_entries, read_balance
from leadwire.platform.errors import ApiError
from leadwire.platform.http import ToolKit, tool_error
from leadwire.platform.pagination import CursorCodec, page

# Published with the REST rules; the tool checks the limit, the service the kind, with the REST codes.
ListLimit = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 100})]
KindFilter = Annotated[
    str | None, WithJsonSchema({"anyOf": [{"type": "string", "enum": list(ENTRY_KINDS)}, {"type": "null"}]})
]


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(description="Credits of the account: balance, reserved, available.")
    async def get_credits() -> CreditsOut:
        caller = await kit.allowed(READ)

        async def read(session: AsyncSession) -> CreditsOut:
            return public_credits(await read_balance(session, caller.user_id))

        return await kit.read(read)

    @kit.server.tool(
        description="The account's credit ledger, newest first: grant, reserve, release and charge entries "
        "(amount always positive; grants add to the balance, charges take from it, a reserve sets credits "
        "aside for a job and its release gives them back). kind keeps one kind, job_id one job's entries."
    )
    async def list_credit_entries(
        kind: KindFilter = None, job_id: str | None = None, limit: ListLimit = 25, cursor: str | None = None
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        if not 1 <= limit <= 100:
            raise tool_error(ApiError("invalid_request", param="limit"))

        async def read(session: AsyncSession) -> dict[str, Any]:
            codec = CursorCodec.for_instance(kit.get_runtime().settings.resolved_secret_key)
            entries, next_cursor = await list_entries(
                session, codec, caller.user_id, kind=kind, job_id=job_id, limit=limit, cursor=cursor
            )
            items = [public_entry(entry) for entry in entries]
            return page(items, next_cursor)

        return await kit.read(read)
