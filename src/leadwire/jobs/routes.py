"""HTTP: read and cancel jobs (v2 unified; v1 reads outreach jobs through the outreach slice)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from leadwire.jobs.operations import CANCEL, READ
from leadwire.platform import jobs
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.http import (
    Idempotency,
    ItemEnvelope,
    JSONResponse,
    PageEnvelope,
    Session,
    documented,
    errors,
    flat_get,
    idempotent,
    json_response,
    ok_item,
    ok_page,
    require,
    respond,
)
from leadwire.platform.jobs import STATUSES, PublicJob, public_job
from leadwire.platform.pagination import CursorCodec, int_query
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(tags=["jobs"])
# Any job of the account; the job's own capability scope is checked once the job is read.
JobReader = Annotated[Caller, Depends(require(READ))]
JobCanceller = Annotated[Caller, Depends(require(CANCEL))]
JobId = Path(description="job id from a creation response")


# The read clients poll: served without FastAPI's dependency solver (`platform.flat_route`).
@flat_get(
    router,
    "/api/v2/jobs/{job_id}",
    responses={**documented(ItemEnvelope[PublicJob]), **errors("task_not_found")},
    summary="Read a job",
    description=(
        "Any job of the caller's account: status (`queued`, `scheduled`, `running`, then "
        "`succeeded`, `failed` or `cancelled`), progress, `result` (typed by `action`; set when "
        "succeeded), `error` (`{code, detail?}` when failed) and `billing` (`charged_credits` is final "
        "once the job is terminal). Needs the read scope of the job's capability; another account's "
        "or an unknown id is 404 `task_not_found`. Poll every 2-5 s; free."
    ),
)
async def get_job(
    caller: JobReader, job_id: str = JobId, runtime: Runtime = Depends(get_runtime)
) -> JSONResponse:
    return json_response(ok_item(await jobs.read_job(runtime.driver_reads, caller, job_id)))


@router.post(
    "/api/v2/jobs/{job_id}/cancel",
    responses={**documented(ItemEnvelope[PublicJob]), **errors("task_not_found", "job_already_running")},
    summary="Cancel a job",
    description=(
        "A `queued` or `scheduled` job becomes `cancelled` and its reservation is released (a webset "
        "job's list is cancelled with it); a `running` job is 409 `job_already_running`; a terminal "
        "job is returned unchanged, so a retry is safe. Needs the write scope of the job's capability."
    ),
)
async def cancel_job(
    session: Session,
    caller: JobCanceller,
    job_id: str = JobId,
    idem: Idempotency = Depends(idempotent()),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    job = await jobs.cancel_job(session, runtime.notifier, caller, job_id)
    return await respond(session, idem, ok_item(public_job(job)))


@router.get(
    "/api/v2/jobs",
    responses={**documented(PageEnvelope[PublicJob]), **errors("invalid_request", "permission_denied")},
    summary="List jobs",
    description=(
        "The account's jobs, newest first, of every capability the key may read (the same scope a job's "
        "own read needs; a key that reads none is 403 `permission_denied`); `status` keeps one status "
        "(`queued`, `scheduled`, `running`, `succeeded`, `failed`, `cancelled`). `limit` 1-100 (default "
        "20); pass `next_cursor` as `cursor` while `has_more`. Free."
    ),
)
async def list_jobs(
    session: Session,
    caller: JobReader,
    runtime: Runtime = Depends(get_runtime),
    status: str | None = Query(default=None, description="one status"),
    limit: str | None = Query(default=None, description="1-100, default 20"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    if status is not None and status not in STATUSES:
        raise ApiError("invalid_request", param="status", detail="one of " + ", ".join(STATUSES))
    rows, next_cursor = await jobs.list_jobs(
        session,
        CursorCodec.for_instance(runtime.settings.resolved_secret_key),
        caller,
        status=status,
        limit=int_query(limit, "limit", 20, 1, 100),
        cursor=cursor,
    )
    return json_response(ok_page(rows, next_cursor))
