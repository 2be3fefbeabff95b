"""The worker side of the jobs table: claim with a lease, heartbeat, finish, rescue, release, prune.

Claims are one UPDATE over a `FOR UPDATE SKIP LOCKED` sub-select on PostgreSQL; on SQLite the whole
transaction already holds the write lock (BEGIN IMMEDIATE), which serialises claims.

Lock order (PostgreSQL): credit balance rows in `user_id` order, then job rows. Every transaction that
settles jobs of several accounts takes the balance locks first (`ledger.lock_accounts`), so two workers
settling batches that share accounts queue behind each other instead of deadlocking.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.billing import ledger
from leadwire.platform.billing.prices import Units
from leadwire.platform.jobs.models import PENDING, TERMINAL, Job
from leadwire.platform.jobs.service import settle_billing
from leadwire.platform.notify import JOB_CHANNEL, Notifier
from leadwire.platform.time import utcnow

RUNNING = ("running", "settling")


async def claim_due(
    session: AsyncSession, *, owner: str, limit: int, lease_seconds: float, actions: list[str] | None = None
) -> list[Job]:
    now = utcnow()
    due = select(Job.id).where(Job.status.in_(PENDING), Job.scheduled_at <= now)
    if actions is not None:
        due = due.where(Job.action.in_(actions))
    due = due.order_by(Job.scheduled_at, Job.id).limit(limit).with_for_update(skip_locked=True)
    result = await session.execute(
        update(Job)
        .where(Job.id.in_(due.scalar_subquery()))
        .values(
            status="running",
            progress_stage="running",
            lease_owner=owner,
            lease_expires_at=now + timedelta(seconds=lease_seconds),
            started_at=func.coalesce(Job.started_at, now),
            attempt_count=Job.attempt_count + 1,
            updated_at=now,
        )
        .returning(Job)
        .execution_options(synchronize_session=False)
    )
    return list(result.scalars().all())


async def next_due_at(session: AsyncSession) -> datetime | None:
    value = await session.scalar(select(func.min(Job.scheduled_at)).where(Job.status.in_(PENDING)))
    return value


async def heartbeat(session: AsyncSession, *, owner: str, job_ids: list[str], lease_seconds: float) -> None:
    if not job_ids:
        return
    await session.execute(
        update(Job)
        .where(Job.id.in_(job_ids), Job.lease_owner == owner, Job.status.in_(RUNNING))
        .values(lease_expires_at=utcnow() + timedelta(seconds=lease_seconds))
        .execution_options(synchronize_session=False)
    )


async def _owned_running(session: AsyncSession, job_id: str, owner: str) -> Job | None:
    job = (await session.execute(select(Job).where(Job.id == job_id).with_for_update())).scalar_one_or_none()
    if job is None or job.lease_owner != owner or job.status not in RUNNING:
        return None  # the lease was lost (rescued elsewhere): this worker's outcome no longer counts
    return job


async def finish(
    session: AsyncSession,
    notifier: Notifier,
    *,
    job_id: str,
    owner: str,
    result: dict[str, Any] | None = None,
    error_code: str | None = None,
    error_detail: str | None = None,
    units: Units | None = None,
) -> Job | None:
    """Record a terminal outcome and settle billing in one transaction; None when the lease was lost."""
    job = await _owned_running(session, job_id, owner)
    if job is None:
        return None
    _mark_terminal(
        job,
        "succeeded" if error_code is None else "failed",
        result=result,
        error_code=error_code,
        error_detail=error_detail,
    )
    await settle_billing(session, job, units=units or {})
    await notifier.publish(session, JOB_CHANNEL, job.id)
    return job


@dataclass(frozen=True)
class Outcome:
    """What a handler produced for one job, waiting to be recorded."""

    job_id: str
    user_id: str
    result: dict[str, Any] | None
    error_code: str | None
    units: Units
    needs_settlement: bool
    error_detail: str | None = None  # the failure's human sentence, already capped (`error.detail`)


async def finish_many(
    session: AsyncSession, notifier: Notifier, *, owner: str, outcomes: list[Outcome]
) -> None:
    """Record several outcomes in the caller's transaction: one executemany UPDATE for the jobs with
    nothing to settle, the full settlement path for the others, one notification round trip."""
    unbilled = [o for o in outcomes if not o.needs_settlement]
    billed = sorted((o for o in outcomes if o.needs_settlement), key=lambda o: (o.user_id, o.job_id))
    await ledger.lock_accounts(session, [o.user_id for o in billed])
    for outcome in billed:
        await finish(
            session,
            notifier,
            job_id=outcome.job_id,
            owner=owner,
            result=outcome.result,
            error_code=outcome.error_code,
            error_detail=outcome.error_detail,
            units=outcome.units,
        )
    if not unbilled:
        return
    now = utcnow()
    table = cast(Table, Job.__table__)  # Core UPDATE: executemany, not the ORM's bulk form
    statement = (
        update(table)
        # Spelled out: an expanding IN parameter cannot be used with executemany.
        .where(
            table.c.id == bindparam("b_id"),
            table.c.lease_owner == owner,
            or_(table.c.status == RUNNING[0], table.c.status == RUNNING[1]),
        )
        .values(
            status=bindparam("b_status"),
            progress_stage=bindparam("b_status"),
            progress_percent=bindparam("b_percent"),
            result=bindparam("b_result"),
            error_code=bindparam("b_error"),
            error_detail=bindparam("b_detail"),
            finished_at=now,
            updated_at=now,
            lease_owner=None,
            lease_expires_at=None,
            pending_units=0.0,
        )
    )
    await session.execute(
        statement,
        [
            {
                "b_id": o.job_id,
                "b_status": "succeeded" if o.error_code is None else "failed",
                "b_percent": 100.0 if o.error_code is None else 0.0,
                "b_result": o.result if o.error_code is None else None,
                "b_error": o.error_code,
                "b_detail": o.error_detail if o.error_code is not None else None,
            }
            for o in unbilled
        ],
    )
    # A job whose lease was lost is not updated above; waking its waiters anyway only costs a re-read.
    await notifier.publish_many(session, JOB_CHANNEL, [o.job_id for o in unbilled])


def _mark_terminal(
    job: Job,
    status: str,
    *,
    result: dict[str, Any] | None,
    error_code: str | None,
    error_detail: str | None = None,
) -> None:
    now = utcnow()
    job.status = status
    job.progress_stage = status
    if status == "succeeded":
        job.progress_percent = 100.0
    job.result = result if status == "succeeded" else None
    job.error_code = error_code if status == "failed" else None
    job.error_detail = error_detail if status == "failed" else None
    job.finished_at = now
    job.updated_at = now
    job.lease_owner = None
    job.lease_expires_at = None


async def report_progress(
    session: AsyncSession, *, job_id: str, owner: str, stage: str, percent: float, pending_units: float
) -> None:
    await session.execute(
        update(Job)
        .where(Job.id == job_id, Job.lease_owner == owner, Job.status.in_(RUNNING))
        .values(
            progress_stage=stage,
            progress_percent=max(0.0, min(100.0, percent)),
            pending_units=pending_units,
            updated_at=utcnow(),
        )
        .execution_options(synchronize_session=False)
    )


async def rescue_expired(session: AsyncSession, notifier: Notifier, *, max_attempts: int) -> list[str]:
    """Requeue jobs whose worker vanished; past `max_attempts` fail them with `attempts_exhausted`.

    The accounts of jobs that will be settled are locked first (the lock order); a job whose account was
    not locked because it changed in between waits for the next round.
    """
    now = utcnow()
    expired_now = (Job.status.in_(RUNNING), Job.lease_expires_at < now)
    candidates = (
        await session.execute(
            select(Job.id, Job.user_id, Job.attempt_count, Job.billing_status)
            .where(*expired_now)
            .order_by(Job.lease_expires_at)
            .limit(100)
        )
    ).all()
    if not candidates:
        return []
    settling = sorted(
        {c.user_id for c in candidates if c.attempt_count >= max_attempts and c.billing_status == "pending"}
    )
    await ledger.lock_accounts(session, settling)
    expired = (
        (
            await session.execute(
                select(Job)
                .where(Job.id.in_([c.id for c in candidates]), *expired_now)
                .order_by(Job.id)
                .with_for_update(skip_locked=True)
            )
        )
        .scalars()
        .all()
    )
    rescued = []
    for job in expired:
        if job.attempt_count >= max_attempts:
            if job.billing_status == "pending" and job.user_id not in settling:
                continue
            _mark_terminal(job, "failed", result=None, error_code="attempts_exhausted")
            await settle_billing(session, job, units={})
            await notifier.publish(session, JOB_CHANNEL, job.id)
        else:
            job.status = "queued"
            job.progress_stage = "queued"
            job.lease_owner = None
            job.lease_expires_at = None
            job.updated_at = now
        rescued.append(job.id)
    return rescued


async def release(session: AsyncSession, *, owner: str, job_ids: list[str]) -> None:
    """Hand jobs this worker could not finish back to the queue (graceful shutdown)."""
    if not job_ids:
        return
    await session.execute(
        update(Job)
        .where(Job.id.in_(job_ids), Job.lease_owner == owner, Job.status.in_(RUNNING))
        .values(
            status="queued",
            progress_stage="queued",
            lease_owner=None,
            lease_expires_at=None,
            updated_at=utcnow(),
        )
        .execution_options(synchronize_session=False)
    )


async def prune_terminal(session: AsyncSession, *, older_than: timedelta) -> int:
    cutoff = utcnow() - older_than
    result = await session.execute(
        delete(Job)
        .where(Job.status.in_(TERMINAL), Job.finished_at < cutoff)
        .execution_options(synchronize_session=False)
    )
    return int(result.rowcount or 0)  # type: ignore[attr-defined]
