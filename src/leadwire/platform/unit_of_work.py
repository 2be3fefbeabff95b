"""A request's unit of work: the one module that decides when what a request wrote becomes durable.

A request runs in one database session (`request_session`, reached by routes as `Session`). The key
lookup is not part of it (it reads on the read engine, `platform.auth`), so a write request's session
holds no transaction while its idempotency claim, which runs on a connection of its own, is made:
otherwise concurrent requests could each hold a pooled connection while waiting for a second (a pool
deadlock), and on SQLite hold the write lock the claim needs. It commits at these points and nowhere
else:

1. `commit_with_response` — a creation's job row, its credit reservation and its stored idempotent
   response commit together, before the response is sent: a replay never sees a job without its
   response, nor a response without its job.
2. `commit_rewrite` — after `Prefer: wait`, the stored response becomes the 200 actually sent.
3. the end of the request (`request_session`) — whatever else the handler wrote (a cancel, a non-job
   POST and its stored response), before the response is sent so a failed commit is reported; any
   error rolls everything back.

Outside requests (worker steps, CLI commands) the unit is `platform.db.transaction`: commit on success.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.platform import idempotency


async def request_session(
    maker: async_sessionmaker[AsyncSession], *, read_only: bool = False
) -> AsyncIterator[AsyncSession]:
    """The request's session; commit point 3 when the handler returns, rollback when it raises.

    A read-only request (a GET, on the read engine) has nothing to commit: its session is closed."""
    async with maker() as session:
        try:
            yield session
            if not read_only and session.in_transaction():
                await session.commit()
        except BaseException:
            await session.rollback()
            raise


async def store_response(
    session: AsyncSession, claim: idempotency.Claim | None, *, status: int, body: dict[str, Any]
) -> None:
    """A response stored for its key in the session's transaction (a non-job POST's commits at the end
    of the request, point 3)."""
    if claim is not None:
        await idempotency.complete(session, claim, status=status, body=body)


async def commit_with_response(
    session: AsyncSession, claim: idempotency.Claim | None, *, status: int, body: dict[str, Any]
) -> None:
    """Commit point 1: the job (and whatever created it) with the response stored for its key."""
    await store_response(session, claim, status=status, body=body)
    await session.commit()


async def commit_rewrite(
    session: AsyncSession, claim: idempotency.Claim | None, *, status: int, body: dict[str, Any]
) -> None:
    """Commit point 2: after `Prefer: wait`, store the response actually sent."""
    if claim is not None:
        await idempotency.rewrite(session, claim, status=status, body=body)
        await session.commit()


async def discard(session: AsyncSession) -> None:
    """A refused action shown as a page rather than raised (the console): what it wrote before the
    refusal is rolled back, so the page's reads and the request's end commit nothing half-done."""
    await session.rollback()
