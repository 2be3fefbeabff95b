"""The domain events a job's end reports (`platform/events/domain.py`), in the transaction that records
it: `job.succeeded`, `job.failed` or `job.cancelled` with the public job item for every job, and the
action's own outcome event (`ActionSpec.outcome_events`, a sent message's `outreach.delivered`).

The item is readable under the scope that reads the job (`GET /api/v2/jobs/{id}`): a receiver whose key
lacks it is told the job's id, action, status and billing alone (`brief`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.events import DomainEvent, brief_of, emit
from leadwire.platform.events.domain import DataBuilder, has_sinks
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.registry import registry
from leadwire.platform.jobs.views import public_job
from leadwire.platform.notify import Notifier


class Recorded(Protocol):
    """What a recorded outcome (`queue.Outcome`) tells of the job's end."""

    @property
    def job_id(self) -> str: ...
    @property
    def user_id(self) -> str: ...
    @property
    def error_code(self) -> str | None: ...
    @property
    def action(self) -> str | None: ...
    @property
    def attempt(self) -> int: ...


def event_types(action: str | None, status: str) -> list[str]:
    """The types a job of `action` ending `status` reports."""
    types = [f"job.{status}"]
    spec = registry.find(action) if action else None
    if spec is not None and spec.outcome_events is not None and status in ("succeeded", "failed"):
        types.append(spec.outcome_events[0 if status == "succeeded" else 1])
    return types


# What a receiver that may not read the job is told of it.
brief = brief_of("id", "action", "status", "billing")


def job_events(user_id: str, action: str | None, status: str, data: DataBuilder) -> list[DomainEvent]:
    """The events of a job of `action` ending `status`, each with the item `data` builds, readable under
    the job's own read scope."""
    scope = registry.scope(action) if action else None
    return [DomainEvent(user_id, t, data, scope=scope, brief=brief) for t in event_types(action, status)]


async def report_ended(session: AsyncSession, notifier: Notifier, job: Job) -> None:
    """A loaded job that just ended (failed after its attempts, cancelled, ...)."""
    if not has_sinks():
        return

    async def item(_session: AsyncSession) -> dict[str, Any]:
        return dict(public_job(job))

    await emit(session, notifier, job_events(job.user_id, job.action, job.status, item))


async def report_recorded(
    session: AsyncSession, notifier: Notifier, outcomes: Sequence[Recorded], *, recorded_at: datetime
) -> None:
    """The outcomes a worker just recorded in one statement (`queue.finish_many`). An outcome this
    worker lost to another (its lease gone) wrote nothing: its job's `updated_at` is not `recorded_at`,
    and its events are dropped when their data is built."""
    if not has_sinks():
        return
    events: list[DomainEvent] = []
    for outcome in outcomes:
        status = "succeeded" if outcome.error_code is None else "failed"
        data = _recorded_item(outcome.job_id, outcome.attempt, status, recorded_at)
        events.extend(job_events(outcome.user_id, outcome.action, status, data))
    await emit(session, notifier, events)


def _recorded_item(job_id: str, attempt: int, status: str, recorded_at: datetime) -> DataBuilder:
    """The job item if this outcome (this claim's: `attempt`) is the one recorded."""
    cached: list[dict[str, Any] | None] = []

    async def item(session: AsyncSession) -> dict[str, Any] | None:
        if not cached:  # the job and its outcome event share one read
            job = (
                await session.execute(
                    select(Job)
                    .where(
                        Job.id == job_id,
                        Job.status == status,
                        Job.attempt_count == attempt,
                        Job.updated_at == recorded_at,
                    )
                    .execution_options(populate_existing=True)
                )
            ).scalar_one_or_none()
            cached.append(None if job is None else dict(public_job(job)))
        return cached[0]

    return item
