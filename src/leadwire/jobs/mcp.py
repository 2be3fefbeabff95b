"""MCP tools of the unified job interface: read and cancel any job of the account."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.jobs.operations import CANCEL, READ
from leadwire.platform import jobs
from leadwire.platform.errors import ApiError
from leadwire.platform.http import ToolKit, tool_error
from leadwire.platform.jobs import STATUSES, PublicJob, public_job
from leadwire.platform.pagination import CursorCodec, page

ListLimit = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 100})]


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(description="A job by id (research and other jobs of this account).")
    async def get_job(job_id: str) -> PublicJob:
        caller = await kit.allowed(READ)
        return await kit.refusing(jobs.read_job(kit.get_runtime().driver_reads, caller, job_id))

    @kit.server.tool(description="Cancel a queued or scheduled job; a running job cannot be cancelled.")
    async def cancel_job(job_id: str) -> PublicJob:
        caller = await kit.allowed(CANCEL)
        notifier = kit.get_runtime().notifier

        async def cancel(session: AsyncSession) -> PublicJob:
            return public_job(await jobs.cancel_job(session, notifier, caller, job_id))

        return await kit.write(cancel)

    @kit.server.tool(
        description="The account's jobs, newest first, of the capabilities this key may read; status keeps "
        "one status (queued, scheduled, running, succeeded, failed, cancelled)."
    )
    async def list_jobs(
        status: str | None = None, limit: ListLimit = 20, cursor: str | None = None
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        if not 1 <= limit <= 100:
            raise tool_error(ApiError("invalid_request", param="limit"))
        if status is not None and status not in STATUSES:
            raise tool_error(ApiError("invalid_request", param="status"))

        async def read(session: AsyncSession) -> dict[str, Any]:
            codec = CursorCodec.for_instance(kit.get_runtime().settings.resolved_secret_key)
            found, next_cursor = await jobs.list_jobs(
                session, codec, caller, status=status, limit=limit, cursor=cursor
            )
            return page(found, next_cursor)

        return await kit.read(read)
