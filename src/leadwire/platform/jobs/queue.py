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

from sqlalchemy import (
    BigInteger,
    Boolean,
    Integer,
    Row,
    Table,
    bindparam,
    case,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.billing import ledger
from leadwire.platform.billing.prices import Units
from leadwire.platform.jobs import reports, states
from leadwire.platform.jobs.blobs import drop_blobs
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.registry import registry
from leadwire.platform.jobs.states import PENDING, TERMINAL, UNDER_WAY
from leadwire.platform.notify import JOB_CHANNEL, Notifier
from leadwire.platform.time import utcnow

_JOBS = cast(Table, Job.__table__)
# What a worker reads of a job it claims: what the handler and the outcome need, no more.
CLAIMED = tuple(
    _JOBS.c[name]
    for name in (
        "id", "user_id", "action", "payload", "request_id", "attempt_count", "billing_status", "blob_bytes",
        "hold", "scheduled_at",
    )
)  # fmt: skip


async def claim_due(
    session: AsyncSession, *, owner: str, limit: int, lease_seconds: float, actions: list[str] | None = None
) -> list[Row[Any]]:
    """Lease up to `limit` due jobs to `owner`, oldest due first; the claimed jobs' `CLAIMED` columns."""
    now = utcnow()
    params = {
        "c_now": now,
        "c_limit": limit,
        "c_owner": owner,
        "c_expires": now + timedelta(seconds=lease_seconds),
    }
    if actions is None:
        return list((await session.execute(_CLAIM_ANY, params)).all())
    return list((await session.execute(_claim(actions=True), {**params, "c_actions": actions})).all())


def _claim(*, actions: bool) -> Any:
    """The claim, built once: one UPDATE over a `FOR UPDATE SKIP LOCKED` sub-select of due jobs."""
    due = select(_JOBS.c.id).where(_JOBS.c.status.in_(PENDING), _JOBS.c.scheduled_at <= bindparam("c_now"))
    if actions:
        due = due.where(_JOBS.c.action.in_(bindparam("c_actions", expanding=True)))
    due = (
        due.order_by(_JOBS.c.scheduled_at, _JOBS.c.id)
        .limit(bindparam("c_limit", type_=Integer))
        .with_for_update(skip_locked=True)
    )
    return (
        update(_JOBS)
        .where(_JOBS.c.id.in_(due.scalar_subquery()))
        .values(
            **states.claimed(
                now=bindparam("c_now"),
                owner=bindparam("c_owner"),
                expires=bindparam("c_expires"),
                attempt_count=_JOBS.c.attempt_count + 1,
                started_at=func.coalesce(_JOBS.c.started_at, bindparam("c_now")),
            )
        )
        .returning(*CLAIMED)
    )


async def next_due_at(session: AsyncSession) -> datetime | None:
    value = await session.scalar(select(func.min(Job.scheduled_at)).where(Job.status.in_(PENDING)))
    return value


async def heartbeat(session: AsyncSession, *, owner: str, job_ids: list[str], lease_seconds: float) -> None:
    if not job_ids:
        return
    await session.execute(
        update(Job)
        .where(Job.id.in_(job_ids), Job.lease_owner == owner, Job.status.in_(UNDER_WAY))
        .values(lease_expires_at=utcnow() + timedelta(seconds=lease_seconds))
        .execution_options(synchronize_session=False)
    )


@dataclass(frozen=True)
class Outcome:
    """What a handler produced for one job, waiting to be recorded."""

    job_id: str
    user_id: str
    # The claim it answers (the job's `attempt_count` then): a late outcome of an earlier claim of the
    # same job by the same worker (its lease lost, the job rescued and claimed again) counts for nothing.
    attempt: int
    result: dict[str, Any] | None
    error_code: str | None
    units: Units
    needs_settlement: bool
    error_detail: str | None = None  # the failure's human sentence, already capped (`error.detail`)
    has_blobs: bool = False  # its blobs go with its end (`service.drop_blobs`)
    action: str | None = None  # for the domain events its end reports (`reports.py`)


async def finish_many(
    session: AsyncSession, notifier: Notifier, *, owner: str, outcomes: list[Outcome]
) -> None:
    """Record several outcomes in the caller's transaction, in a fixed number of statements whatever
    the batch: the accounts of the jobs to settle locked (in `user_id` order), those jobs locked and
    checked still this worker's, one executemany UPDATE of the jobs, one balance UPDATE per account,
    one INSERT of ledger entries and one notification round trip. A job whose lease was lost (rescued
    elsewhere) is left alone: this worker's outcome no longer counts."""
    billed = [o for o in outcomes if o.needs_settlement]
    settled: dict[str, int] = {}
    if billed:
        settled = await _settle_outcomes(session, owner, billed)
    now = utcnow()
    # In job id order, the order the heartbeat's UPDATE locks rows in: the two never wait in a cycle.
    ordered = sorted(outcomes, key=lambda o: o.job_id)
    await session.execute(_FINISH, [_finish_params(o, owner, now, settled) for o in ordered])
    await _drop_finished_blobs(session, [o.job_id for o in ordered if o.has_blobs])
    await _follow_failures(session, notifier, [o.job_id for o in ordered if o.error_code is not None])
    await reports.report_recorded(session, notifier, ordered, recorded_at=now)
    # A job whose lease was lost is not updated above; waking its waiters anyway only costs a re-read.
    await notifier.publish_many(session, JOB_CHANNEL, [o.job_id for o in outcomes])


async def _drop_finished_blobs(session: AsyncSession, job_ids: list[str]) -> None:
    """The blobs of the jobs recorded over here (not of one whose lease was lost: it runs again)."""
    if not job_ids:
        return
    over = (
        await session.execute(
            select(Job.id).where(Job.id.in_(job_ids), Job.status.in_(("succeeded", "failed")))
        )
    ).scalars()
    await drop_blobs(session, list(over))


async def _follow_failures(session: AsyncSession, notifier: Notifier, job_ids: list[str]) -> None:
    """The `on_fail` of each job recorded failed here (not one whose lease was lost meanwhile)."""
    if not job_ids or not registry.any_on_fail():
        return
    failed = (
        await session.execute(select(Job).where(Job.id.in_(job_ids), Job.status == "failed").order_by(Job.id))
    ).scalars()
    for job in failed:
        spec = registry.find(job.action)
        if spec is not None and spec.on_fail is not None:
            await spec.on_fail(session, notifier, job)


async def _settle_outcomes(session: AsyncSession, owner: str, billed: list[Outcome]) -> dict[str, int]:
    """Settle the billed outcomes' jobs still owned by this worker; their charges by job id."""
    await ledger.lock_accounts(session, [o.user_id for o in billed])
    by_id = {o.job_id: o for o in billed}
    owned = [
        row
        for row in (await session.execute(_OWNED_TO_SETTLE, {"s_ids": sorted(by_id), "s_owner": owner})).all()
        if row.attempt_count == by_id[row.id].attempt
    ]
    settlements = [
        ledger.capped(ledger.Settlement(row.user_id, row.id, row.reserved_credits, _charge(row, by_id)))
        for row in owned
    ]
    await ledger.settle_locked(session, settlements)
    return {s.job_id: s.charge for s in settlements}


def _charge(job: Any, outcomes: dict[str, Outcome]) -> int:
    outcome = outcomes[job.id]
    return registry.charge(job.action, outcome.units, succeeded=outcome.error_code is None)


def _finish_params(outcome: Outcome, owner: str, now: datetime, settled: dict[str, int]) -> dict[str, Any]:
    succeeded = outcome.error_code is None
    charge = settled.get(outcome.job_id)
    return {
        "b_id": outcome.job_id,
        "b_owner": owner,
        "b_attempt": outcome.attempt,
        "b_now": now,
        "b_status": "succeeded" if succeeded else "failed",
        "b_result": outcome.result if succeeded else None,
        "b_error": outcome.error_code,
        "b_detail": None if succeeded else outcome.error_detail,
        # A job not settled here (nothing to settle, or its lease lost) keeps its billing columns.
        "b_settled": charge is not None,
        "b_charged": charge or 0,
    }


_CLAIM_ANY = _claim(actions=False)
# The jobs of a batch still this worker's and still to settle, locked after their accounts (the lock order).
_OWNED_TO_SETTLE = (
    select(_JOBS.c.id, _JOBS.c.user_id, _JOBS.c.action, _JOBS.c.reserved_credits, _JOBS.c.attempt_count)
    .where(
        _JOBS.c.id.in_(bindparam("s_ids", expanding=True)),
        _JOBS.c.lease_owner == bindparam("s_owner"),
        _JOBS.c.status.in_(UNDER_WAY),
        _JOBS.c.billing_status == "pending",
    )
    .order_by(_JOBS.c.id)
    .with_for_update()
)
_SETTLED = bindparam("b_settled", type_=Boolean)
# Core UPDATE: executemany, not the ORM's bulk form; every condition spelled out, since an expanding IN
# parameter cannot be used with executemany.
_FINISH = (
    update(_JOBS)
    .where(
        _JOBS.c.id == bindparam("b_id"),
        _JOBS.c.lease_owner == bindparam("b_owner"),
        _JOBS.c.attempt_count == bindparam("b_attempt"),
        _JOBS.c.status == UNDER_WAY[0],
    )
    .values(
        status=bindparam("b_status"),
        progress_stage=bindparam("b_status"),
        progress_percent=case((bindparam("b_status") == "succeeded", 100.0), else_=_JOBS.c.progress_percent),
        result=bindparam("b_result"),
        error_code=bindparam("b_error"),
        error_detail=bindparam("b_detail"),
        pending_units=0.0,
        finished_at=bindparam("b_now"),
        updated_at=bindparam("b_now"),
        lease_owner=None,
        lease_expires_at=None,
        billing_status=case((_SETTLED, "settled"), else_=_JOBS.c.billing_status),
        charged_credits=case(
            (_SETTLED, bindparam("b_charged", type_=BigInteger)), else_=_JOBS.c.charged_credits
        ),
    )
)


async def report_progress(
    session: AsyncSession, *, job_id: str, owner: str, stage: str, percent: float, pending_units: float
) -> None:
    await session.execute(
        update(Job)
        .where(Job.id == job_id, Job.lease_owner == owner, Job.status.in_(UNDER_WAY))
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
    expired_now = (Job.status.in_(UNDER_WAY), Job.lease_expires_at < now)
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
            await states.end(session, notifier, job, "failed", error_code="attempts_exhausted")
        else:
            for column, value in states.requeued(now).items():
                setattr(job, column, value)
        rescued.append(job.id)
    return rescued


async def release(session: AsyncSession, *, owner: str, job_ids: list[str], started: bool = True) -> None:
    """Hand jobs this worker could not finish back to the queue (graceful shutdown). A job claimed but
    never started (`started=False`) gets its claim's attempt back: restarts do not use up its attempts."""
    if not job_ids:
        return
    await session.execute(
        update(Job)
        .where(Job.id.in_(job_ids), Job.lease_owner == owner, Job.status.in_(UNDER_WAY))
        .values(
            # Given back unstarted: its claim's attempt, and the start time its first claim set.
            **states.requeued(utcnow(), attempt_back=not started),
            **({} if started else {"started_at": states.unstarted_start(Job.started_at)}),
        )
        .execution_options(synchronize_session=False)
    )


async def retry_later(session: AsyncSession, *, owner: str, job_id: str, attempt: int, delay: float) -> bool:
    """Put back a job whose run met a database that was unavailable (a cut connection, a restart):
    queued again, due after `delay`, with its claim's attempt given back (the database failed, not the
    job: `job_max_attempts` is for lost workers). False when it is no longer this claim's."""
    now = utcnow()
    result = await session.execute(
        update(Job)
        .where(
            Job.id == job_id,
            Job.lease_owner == owner,
            Job.attempt_count == attempt,
            Job.status.in_(UNDER_WAY),
        )
        .values(**states.requeued(now, due_at=now + timedelta(seconds=delay), attempt_back=True))
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def hold_back(
    session: AsyncSession,
    *,
    owner: str,
    job_id: str,
    attempt: int,
    until: datetime,
    hold: dict[str, Any] | None,
) -> bool:
    """Put back a job its handler held (`JobHeld`): queued again, due at `until`, showing `hold`, with its
    claim's attempt given back and, on a first claim, no start time (it did not run). False when it is no
    longer this claim's."""
    result = await session.execute(
        update(Job)
        .where(
            Job.id == job_id,
            Job.lease_owner == owner,
            Job.attempt_count == attempt,
            Job.status.in_(UNDER_WAY),
        )
        .values(
            **states.requeued(utcnow(), due_at=until, attempt_back=True),
            hold=hold,
            started_at=states.unstarted_start(Job.started_at),
        )
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def prune_terminal(session: AsyncSession, *, older_than: timedelta) -> int:
    cutoff = utcnow() - older_than
    result = await session.execute(
        delete(Job)
        .where(Job.status.in_(TERMINAL), Job.finished_at < cutoff)
        .execution_options(synchronize_session=False)
    )
    return int(result.rowcount or 0)  # type: ignore[attr-defined]
