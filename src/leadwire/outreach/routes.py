"""HTTP of the outreach capability: dispatches (v1 and v2, one operation: same body and reduced item),
and v1's read of its jobs at `/api/v1/outreach/jobs/{id}` (v2 reads every job at `/api/v2/jobs/{id}`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path

from leadwire.outreach.operations import DISPATCH, DISPATCH_V1, READ_JOB
from leadwire.platform.callers import Caller
from leadwire.platform.http import (
    ItemEnvelope,
    JSONResponse,
    add_creation_route,
    documented,
    errors,
    flat_get,
    json_response,
    ok_item,
    require,
)
from leadwire.platform.jobs import PublicJob, read_job
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(tags=["outreach"])
OutreachJobReader = Annotated[Caller, Depends(require(READ_JOB))]
add_creation_route(router, "/api/v1/outreach/dispatches", DISPATCH_V1, version="v1")
add_creation_route(router, "/api/v2/outreach/dispatches", DISPATCH, version="v2")


@flat_get(
    router,
    "/api/v1/outreach/jobs/{job_id}",
    responses={**documented(ItemEnvelope[PublicJob]), **errors("task_not_found")},
    summary="Read an outreach job (v1)",
)
async def get_outreach_job_v1(
    caller: OutreachJobReader,
    job_id: str = Path(description="job id from a creation response"),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    """The v1 read of a dispatch or post-like job, in the same shape as `GET /api/v2/jobs/{id}`; any
    other job is 404 `task_not_found`. Free; polled under the job-polling rate limit."""
    # Dispatches and post likes: v1 knows no other job, so another one is not found (before any scope).
    job = await read_job(runtime.driver_reads, caller, job_id, actions=lambda a: a.startswith("outreach."))
    return json_response(ok_item(job))
