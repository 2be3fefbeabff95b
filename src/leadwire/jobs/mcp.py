"""MCP tools of the unified job interface: read and cancel any job of the account."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.jobs.operations import CANCEL, READ
from leadwire.platform import jobs
from leadwire.platform.http import ToolKit
from leadwire.platform.jobs import PublicJob, public_job


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
