"""The public shape of a job (docs/api.md, Jobs and their statuses), and the creation item: the whole
job, or the reduced item its action declares (outreach's)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Table, bindparam, select

from leadwire.platform.jobs.models import Job, JobLike
from leadwire.platform.jobs.registry import registry
from leadwire.platform.jobs.schemas import (
    Channel,
    JobBilling,
    JobError,
    JobHold,
    JobResource,
    JobStatus,
    PublicJob,
    ReducedJob,
)
from leadwire.platform.time import iso

_JOB_TABLE = cast(Table, Job.__table__)
_PENDING = ("queued", "scheduled")  # states.PENDING (which imports this module through reports)
# What the public job and the ownership check read, and nothing else: every column costs its decoding.
PUBLIC_COLUMNS = (
    "id", "user_id", "action", "status", "channel", "job_metadata", "progress_stage", "progress_percent",
    "resource_type", "resource_id", "scheduled_at", "started_at", "finished_at", "attempt_count",
    "result", "error_code", "error_detail", "billing_status", "charged_credits", "pending_units", "hold",
)  # fmt: skip
PUBLIC_JOB_READ = select(*(_JOB_TABLE.c[name] for name in PUBLIC_COLUMNS)).where(
    _JOB_TABLE.c.id == bindparam("job_id")
)


def public_job(job: JobLike) -> PublicJob:
    item = PublicJob(
        id=job.id,
        action=job.action,
        status=cast(JobStatus, job.status),
        progress={"stage": job.progress_stage, "percent": round(job.progress_percent, 2)},
        resource=_resource(job),
        scheduled_at=iso(job.scheduled_at),
        started_at=iso(job.started_at),
        finished_at=iso(job.finished_at),
        attempt_count=job.attempt_count,
        result=job.result if job.status == "succeeded" else None,
        error=_error(job),
        billing=JobBilling(
            status=cast(Any, job.billing_status),
            charged_credits=job.charged_credits,
            pending_units=job.pending_units,
        ),
    )
    if job.channel is not None:  # outreach jobs only: the only ones created with a channel
        item["channel"] = cast(Channel, job.channel)
    if job.job_metadata is not None:
        item["metadata"] = job.job_metadata
    if job.hold is not None and job.status in _PENDING:
        item["hold"] = _hold(job.hold)
    return item


def _hold(hold: Mapping[str, Any]) -> JobHold:
    return JobHold(reason=hold["reason"], until=hold["until"])


def _resource(job: JobLike) -> JobResource:
    """What the job is about; a job about nothing else (a research query, a customs section) names
    itself, so every job carries an object here."""
    if job.resource_type and job.resource_id:
        return {"type": job.resource_type, "id": job.resource_id}
    return {"type": "job", "id": job.id}


def _error(job: JobLike) -> JobError | None:
    """`{code}` of a failed job, with `detail` only when the failure gave one."""
    if job.status != "failed" or not job.error_code:
        return None
    error = JobError(code=job.error_code)
    if job.error_detail:
        error["detail"] = job.error_detail
    return error


def reduced_job(job: JobLike) -> ReducedJob:
    """`{id, status, action, channel, scheduled_at}`: the creation item of actions that declare it."""
    item = ReducedJob(
        id=job.id,
        status=cast(JobStatus, job.status),
        action=job.action,
        channel=cast(Channel, job.channel),
        scheduled_at=iso(job.scheduled_at),
    )
    if job.hold is not None and job.status in _PENDING:
        item["hold"] = _hold(job.hold)
    return item


def creation_item(job: JobLike) -> Mapping[str, Any]:
    """What a creation response carries: the action's reduced item when it declares one, else the job."""
    spec = registry.find(job.action)
    if spec is not None and spec.creation_item is not None:
        return spec.creation_item(job)
    return public_job(job)
