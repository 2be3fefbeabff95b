"""The outreach queue: the caller's waiting sends, one page at a time (REST and MCP share it)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.channels import connected
from leadwire.channels.queue import QueuedSend, waiting_sends
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.pagination import CursorCodec, binding


async def waiting(
    session: AsyncSession,
    codec: CursorCodec,
    caller: Caller,
    *,
    account_id: str | None,
    limit: int,
    cursor: str | None,
) -> tuple[list[QueuedSend], str | None]:
    if account_id is not None:
        await connected.get_owned_account(session, caller.user_id, account_id)
    bound = binding(user=caller.user_id, account=account_id)
    after = None
    if cursor is not None:
        after = codec.decode(cursor, bound_to=bound).get("job")
        if not isinstance(after, str):
            raise ApiError("invalid_request", param="cursor", detail="not a cursor of this list")
    rows = await waiting_sends(session, caller.user_id, account_id, after=after, limit=limit + 1)
    if len(rows) <= limit:
        return rows, None
    page = rows[:limit]
    return page, codec.encode({"job": page[-1]["job_id"]}, bound_to=bound)
