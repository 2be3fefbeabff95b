"""HTTP of the outreach capability. v1 reads its jobs at `/api/v1/outreach/jobs/{id}` (v2 reads every
job at `/api/v2/jobs/{id}`); dispatch and post-like routes arrive with the outreach issue."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path

from leadwire.platform.auth import Caller, require
from leadwire.platform.envelope import JSONResponse, json_response, ok_item
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs import service
from leadwire.platform.jobs.views import public_job
from leadwire.platform.openapi import errors
from leadwire.platform.schemas import ItemEnvelope, PublicJob, documented
from leadwire.platform.session import Session

router = APIRouter(tags=["outreach"])
OutreachJobReader = Annotated[Caller, Depends(require(None, "poll"))]


@router.get(
    "/api/v1/outreach/jobs/{job_id}",
    responses={**documented(ItemEnvelope[PublicJob]), **errors("task_not_found")},
)
async def get_outreach_job_v1(
    session: Session,
    caller: OutreachJobReader,
    job_id: str = Path(description="job id from a creation response"),
) -> JSONResponse:
    job = await service.get_owned_job(session, caller, job_id)
    if not job.action.startswith("outreach."):  # dispatches and post likes: v1 knows no other job
        raise ApiError("task_not_found")
    return json_response(ok_item(public_job(job)))
