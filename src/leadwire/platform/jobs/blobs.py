"""A job's blobs: the large binary parts of its payload (a dispatch's attachments), stored apart from
the job row so that reading the job never reads them, and dropped as soon as the job is over."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from sqlalchemy import Table, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller
from leadwire.platform.db import insert_rows
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs.models import Job, JobBlob, NewJob
from leadwire.platform.time import utcnow

# Counted as queued: a job not yet over (pending or running).
_NOT_OVER = ("queued", "scheduled", "running")


async def store_blobs(
    session: AsyncSession, caller: Caller, job: NewJob, blobs: Mapping[str, bytes], limit: int | None
) -> None:
    """The job's blobs, after the account's queued bytes are checked (the account row is locked by the
    job's creation, so two creations cannot both slip under the cap)."""
    if limit is not None:
        queued = await session.scalar(
            select(func.coalesce(func.sum(Job.blob_bytes), 0)).where(
                Job.user_id == caller.user_id, Job.status.in_(_NOT_OVER), Job.blob_bytes > 0
            )
        )
        if int(queued or 0) > limit:
            raise ApiError(
                "queued_bytes_limit_exceeded",
                detail=f"this account's jobs not yet done already carry over {limit:,} bytes of "
                "attachments: wait until some are delivered",
                headers={"Retry-After": "60"},
            )
    now = utcnow()
    await insert_rows(
        session,
        _BLOB_TABLE,
        [
            {"id": blob_id, "job_id": job.id, "size": len(content), "content": content, "created_at": now}
            for blob_id, content in blobs.items()
        ],
    )


async def drop_blobs(session: AsyncSession, job_ids: Sequence[str]) -> None:
    """The blobs of jobs that are over (delivered, failed or cancelled): nothing keeps them."""
    if job_ids:
        await session.execute(
            delete(JobBlob)
            .where(JobBlob.job_id.in_(list(job_ids)))
            .execution_options(synchronize_session=False)
        )
        await session.execute(
            update(Job)
            .where(Job.id.in_(list(job_ids)), Job.blob_bytes > 0)
            .values(blob_bytes=0)
            .execution_options(synchronize_session=False)
        )


_BLOB_TABLE = cast(Table, JobBlob.__table__)
