"""The job state machine in one place: the statuses, the moves allowed between them, and each move as
the values or the function that makes it. The queue (worker side) and the service (request side) call
these; nothing else writes a job's status.

    queued ──claim──▶ running ──outcome──▶ succeeded | failed
    scheduled ─(due)─┘   │  ▲
       │                 │  └── released (shutdown), rescued (lease lost), handed back (database failed)
       └── cancel ──▶ cancelled        (a queued job too; a running one cannot be cancelled)

A job that ends settles its billing, drops the blobs it carried and lets its capability follow (a
webset's run ends with its job) in the same transaction (`end`); the batched worker path does the same
in a fixed number of statements (`queue.finish_many`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import case
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.billing import ledger
from leadwire.platform.billing.prices import Units
from leadwire.platform.jobs import reports
from leadwire.platform.jobs.blobs import drop_blobs
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.registry import registry
from leadwire.platform.notify import JOB_CHANNEL, Notifier
from leadwire.platform.time import utcnow

PENDING = ("queued", "scheduled")
UNDER_WAY = ("running",)
ACTIVE = (*PENDING, *UNDER_WAY)
TERMINAL = ("succeeded", "failed", "cancelled")
STATUSES = (*ACTIVE, *TERMINAL)

MOVES: Mapping[str, frozenset[str]] = {
    "queued": frozenset({"running", "cancelled"}),
    "scheduled": frozenset({"running", "cancelled"}),
    # Back to queued: released at shutdown, rescued after its lease, handed back after a database fault.
    "running": frozenset({"queued", "succeeded", "failed"}),
    "succeeded": frozenset(),
    "failed": frozenset(),
    "cancelled": frozenset(),
}


def can_move(current: str, target: str) -> bool:
    return target in MOVES.get(current, frozenset())


def claimed(now: Any, owner: Any, expires: Any, attempt_count: Any, started_at: Any) -> dict[str, Any]:
    """The values of a claim (pending → running): leased to `owner` until `expires`, one more attempt."""
    return {
        "status": "running",
        "progress_stage": "running",
        "lease_owner": owner,
        "lease_expires_at": expires,
        "started_at": started_at,
        "attempt_count": attempt_count,
        "updated_at": now,
    }


def requeued(now: datetime, *, due_at: datetime | None = None, attempt_back: bool = False) -> dict[str, Any]:
    """The values of running → queued: the lease dropped; due at `due_at` when given. `attempt_back`:
    the claim's attempt is given back (the job did not fail: it never started, or the database did),
    and an unstarted first claim's start time with it."""
    values: dict[str, Any] = {
        "status": "queued",
        "progress_stage": "queued",
        "lease_owner": None,
        "lease_expires_at": None,
        "updated_at": now,
    }
    if due_at is not None:
        values["scheduled_at"] = due_at
    if attempt_back:
        values["attempt_count"] = Job.attempt_count - 1
    return values


def unstarted_start(job_started_at: Any) -> Any:
    """The start time a job given back unstarted keeps: none when its first claim set it."""
    return case((Job.attempt_count == 1, None), else_=job_started_at)


def mark_terminal(
    job: Job,
    status: str,
    *,
    result: dict[str, Any] | None = None,
    error_code: str | None = None,
    error_detail: str | None = None,
) -> None:
    """A loaded job's move to `status` (succeeded, failed or cancelled), lease and all."""
    if not can_move(job.status, status):
        raise ValueError(f"job {job.id}: {job.status} cannot become {status}")
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


def cancelled(now: datetime) -> dict[str, Any]:
    """The values of pending → cancelled, written by one conditional UPDATE (a claim may race it)."""
    return {"status": "cancelled", "progress_stage": "cancelled", "finished_at": now, "updated_at": now}


async def end(
    session: AsyncSession,
    notifier: Notifier,
    job: Job,
    status: str,
    *,
    error_code: str | None = None,
    units: Units | None = None,
) -> None:
    """End a loaded job (failed after its attempts, say): its status, then what follows every end."""
    mark_terminal(job, status, error_code=error_code)
    await follow_end(session, notifier, job, units=units or {})


async def follow_end(session: AsyncSession, notifier: Notifier, job: Job, *, units: Units) -> None:
    """What follows a job's end, in its transaction: billing settled on `units`, blobs dropped, its
    capability told (`on_cancel` / `on_fail`), its domain events reported, its waiters woken."""
    await settle_billing(session, job, units=units)
    if job.blob_bytes:
        await drop_blobs(session, [job.id])
    spec = registry.find(job.action)
    follow = None if spec is None else spec.on_cancel if job.status == "cancelled" else spec.on_fail
    if follow is not None and job.status != "succeeded":
        await follow(session, notifier, job)
    await reports.report_ended(session, notifier, job)
    await notifier.publish(session, JOB_CHANNEL, job.id)


async def settle_billing(session: AsyncSession, job: Job, *, units: Units) -> None:
    """Charge the units actually produced, all kinds summed and rounded up once, and release the rest
    of the reservation (`ledger.settle`). An action no longer registered is charged nothing."""
    if job.billing_status != "pending":
        job.pending_units = 0.0
        return
    charge = registry.charge(job.action, units, succeeded=job.status == "succeeded")
    job.charged_credits = await ledger.settle(
        session, job.user_id, job.id, reserved=job.reserved_credits, charge=charge
    )
    job.billing_status = "settled"
    job.pending_units = 0.0
