"""Creating, reading and cancelling jobs: the rules every capability shares.

Creation runs in the request's transaction: the concurrency check, the credit reservation and the job
row commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Integer, Table, and_, bindparam, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.billing import ledger
from leadwire.platform.billing.prices import as_units
from leadwire.platform.callers import Caller, scope_missing
from leadwire.platform.db import insert_rows
from leadwire.platform.driver_read import DriverReads
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import handoff, states
from leadwire.platform.jobs.blobs import store_blobs
from leadwire.platform.jobs.models import Job, NewJob
from leadwire.platform.jobs.registry import ActionSpec, registry
from leadwire.platform.jobs.schemas import PublicJob
from leadwire.platform.jobs.states import PENDING, TERMINAL, UNDER_WAY
from leadwire.platform.jobs.views import PUBLIC_JOB_READ, JobLike, public_job
from leadwire.platform.notify import NEW_JOB_CHANNEL, Notifier
from leadwire.platform.pagination import CursorCodec, binding, newest_first
from leadwire.platform.request_context import request_id_var
from leadwire.platform.time import utcnow


async def create_job(
    session: AsyncSession,
    notifier: Notifier,
    caller: Caller,
    *,
    action: str,
    payload: dict[str, Any],
    channel: str | None = None,
    scheduled_at: datetime | None = None,
    status: str = "queued",
    resource: tuple[str, str] | None = None,
    draining: bool = False,
    blobs: Mapping[str, bytes] | None = None,
    queued_bytes_limit: int | None = None,
    hold: dict[str, Any] | None = None,
) -> NewJob:
    """One job, created in the caller's transaction (see `create_jobs`). ``blobs`` are large binary parts
    of its payload, stored apart under the ids the payload names (read back with `JobContext.blob`,
    deleted when the job is over); with them, the account's blobs of jobs not yet over may hold at most
    ``queued_bytes_limit`` bytes (429 `queued_bytes_limit_exceeded`)."""
    jobs = await create_jobs(
        session,
        notifier,
        caller,
        action=action,
        payloads=[payload],
        channel=channel,
        scheduled_at=scheduled_at,
        status=status,
        resource=resource,
        draining=draining,
        blob_bytes=sum(len(content) for content in (blobs or {}).values()),
        hold=hold,
    )
    if blobs:
        await store_blobs(session, caller, jobs[0], blobs, queued_bytes_limit)
    return jobs[0]


async def create_jobs(
    session: AsyncSession,
    notifier: Notifier,
    caller: Caller,
    *,
    action: str,
    payloads: list[dict[str, Any]],
    channel: str | None = None,
    scheduled_at: datetime | None = None,
    status: str = "queued",
    resource: tuple[str, str] | None = None,
    draining: bool = False,
    blob_bytes: int = 0,
    hold: dict[str, Any] | None = None,
) -> list[NewJob]:
    """Jobs of one action for one account, all or none: one account lock, one concurrency check,
    one reservation per job (one balance UPDATE, one INSERT of entries), one multi-row INSERT of jobs
    and one wake-up for the workers."""
    if draining:
        raise ApiError("task_unavailable", headers={"Retry-After": "5"})
    spec = registry.get(action)
    balance = await ledger.lock_account(session, caller.user_id)
    await _check_concurrency(session, caller, adding=len(payloads))
    now = utcnow()
    # The request being served; in the worker, the one that created the running job; None from the CLI.
    request_id = request_id_var.get()
    holds = [(new_id("job"), _reservation(spec, payload)) for payload in payloads]
    await ledger.reserve_all(session, caller.user_id, holds, locked=balance)
    # One job due now, no pacing channel: this process's own worker may take it at once (`handoff`).
    direct = None
    if len(payloads) == 1 and status == "queued" and scheduled_at is None and channel is None:
        direct = handoff.take(session, action, now)
    common: dict[str, Any] = {
        "user_id": caller.user_id,
        "api_key_id": caller.key_id,
        "request_id": request_id,
        "action": action,
        "status": status,
        "channel": channel,
        "progress_stage": status,
        "progress_percent": 0.0,
        "resource_type": resource[0] if resource else spec.resource_type,
        "resource_id": resource[1] if resource else None,
        "scheduled_at": scheduled_at or now,
        "attempt_count": 0,
        "billing_status": spec.price.billing,
        "charged_credits": 0,
        "pending_units": 0.0,
        "created_at": now,
        "updated_at": now,
        "blob_bytes": blob_bytes,
        "hold": hold,
    }
    # Written with the row, kept apart from the job as created, which is what the creation answers.
    claim = direct.claimed_columns() if direct is not None else None
    jobs = [
        NewJob(
            id=job_id,
            payload=payload,
            reserved_credits=reserved,
            job_metadata=payload.get("metadata"),
            claim=claim,
            **common,
        )
        for payload, (job_id, reserved) in zip(payloads, holds, strict=True)
    ]
    await insert_rows(session, _JOB_TABLE, [job.row() for job in jobs])
    if direct is not None and claim is not None:
        handoff.start_on_commit(session, direct, _claimed(jobs[0], claim))
    else:
        await notifier.publish(session, NEW_JOB_CHANNEL, action)
    return jobs


def _claimed(job: NewJob, claim: Mapping[str, Any]) -> handoff.ClaimedJob:
    return handoff.ClaimedJob(
        id=job.id,
        user_id=job.user_id,
        action=job.action,
        payload=job.payload,
        request_id=job.request_id,
        attempt_count=claim["attempt_count"],
        billing_status=job.billing_status,
        blob_bytes=job.blob_bytes,
    )


def _reservation(spec: ActionSpec, payload: dict[str, Any]) -> int:
    if spec.price.billing != "pending" or spec.max_units is None:
        return 0
    return spec.price.credits(as_units(spec.max_units(payload)))


async def _check_concurrency(session: AsyncSession, caller: Caller, *, adding: int = 1) -> None:
    """The active-job limit counts work under way or due now. A job waiting for a later slot (paced
    outreach: already one interval apart per channel) is not concurrent work, so a paced batch of sends
    does not use up the account's concurrency."""
    limit = caller.plan.max_active_jobs
    active = await session.scalar(
        _COUNT_ACTIVE, {"a_user": caller.user_id, "a_now": utcnow(), "a_limit": limit}
    )
    if (active or 0) + adding > limit:
        raise ApiError(
            "api_rate_limit_exceeded",
            detail=f"active job limit reached: the {caller.plan.name} plan has at most {limit} jobs "
            "queued or running",
            headers={"Retry-After": "5"},
        )


async def get_owned_job(
    session: AsyncSession,
    caller: Caller,
    job_id: str,
    *,
    write: bool = False,
    actions: Callable[[str], bool] | None = None,
) -> Job:
    """The caller's job, or 404 `task_not_found` (also for a job outside `actions`, where a route
    serves only some actions); 403 when the key lacks the capability's scope."""
    job = await session.get(Job, job_id) if len(job_id) <= 64 else None
    _check_owned(job, caller, write=write, actions=actions)
    assert job is not None
    return job


async def read_job(
    reads: DriverReads, caller: Caller, job_id: str, *, actions: Callable[[str], bool] | None = None
) -> PublicJob:
    """The public view of the caller's job, refused as `get_owned_job` refuses.

    The hottest read of the API (clients poll it): one SELECT by primary key, built once and run on the
    driver (`platform.driver_read`), outside any session: no ORM identity map, object loading or
    statement execution machinery, which together cost more than the round trip."""
    row = None
    if len(job_id) <= 64:
        row = await reads.first(PUBLIC_JOB_READ, {"job_id": job_id})
    _check_owned(row, caller, write=False, actions=actions)
    assert row is not None
    return public_job(row)


_JOB_TABLE = cast(Table, Job.__table__)
# An account's jobs under way or due now, counted up to the plan's limit: the cost stays bounded however
# long its backlog is. Built once (a creation's hottest read).
_ACTIVE_ROWS = (
    select(_JOB_TABLE.c.id)
    .where(
        _JOB_TABLE.c.user_id == bindparam("a_user"),
        or_(
            _JOB_TABLE.c.status.in_(UNDER_WAY),
            and_(_JOB_TABLE.c.status.in_(PENDING), _JOB_TABLE.c.scheduled_at <= bindparam("a_now")),
        ),
    )
    .limit(bindparam("a_limit", type_=Integer))
    .subquery()
)
_COUNT_ACTIVE = select(func.count()).select_from(_ACTIVE_ROWS)


def _check_owned(
    job: JobLike | None, caller: Caller, *, write: bool, actions: Callable[[str], bool] | None
) -> None:
    if job is None or job.user_id != caller.user_id or (actions is not None and not actions(job.action)):
        raise ApiError("task_not_found")
    scope = registry.scope(job.action, write=write)
    if not caller.can(scope):
        raise scope_missing(scope)


async def cancel_job(session: AsyncSession, notifier: Notifier, caller: Caller, job_id: str) -> Job:
    """Queued/scheduled → cancelled in one conditional UPDATE; running → 409; terminal → unchanged."""
    job = await get_owned_job(session, caller, job_id, write=True)
    if job.billing_status == "pending":
        await ledger.lock_account(session, job.user_id)  # the lock order: balance row before job row
    now = utcnow()
    result = await session.execute(
        update(Job)
        .where(Job.id == job.id, Job.status.in_(PENDING))
        .values(**states.cancelled(now))
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 1:  # type: ignore[attr-defined]
        await session.refresh(job)
        await states.follow_end(session, notifier, job, units={})
        return job
    await session.refresh(job)
    if job.status in TERMINAL:
        return job
    raise ApiError("job_already_running")


async def release_held(
    session: AsyncSession, notifier: Notifier, job_ids: Sequence[str], *, action: str
) -> int:
    """Jobs of `action` created `scheduled` to wait for other work (an enrichment waiting for its list's
    run) become due now, and the workers are told. The number released."""
    if not job_ids:
        return 0
    now = utcnow()
    result = await session.execute(
        update(Job)
        .where(Job.id.in_(list(job_ids)), Job.status == "scheduled", Job.scheduled_at > now)
        .values(scheduled_at=now, updated_at=now)
        .execution_options(synchronize_session=False)
    )
    released = int(result.rowcount)  # type: ignore[attr-defined]
    if released:
        await notifier.publish(session, NEW_JOB_CHANNEL, action)
    return released


async def hand_over(
    session: AsyncSession,
    notifier: Notifier,
    parent_id: str,
    *,
    action: str,
    payload: dict[str, Any],
    resource: tuple[str, str] | None = None,
) -> Job:
    """A job that continues a running one's work, created from its handler: same owner, and the
    parent's credit reservation moves to it (released from the parent, reserved for the child, in one
    transaction), so what the creation request reserved is what the continuation is charged from. The
    parent then settles with nothing reserved. No concurrency check: the work was admitted already."""
    parent = await session.get(Job, parent_id)
    if parent is None:
        raise LookupError(parent_id)
    await ledger.lock_account(session, parent.user_id)  # the lock order: balance row before job rows
    await session.refresh(parent, with_for_update=True)
    now = utcnow()
    spec = registry.get(action)
    child = Job(
        id=new_id("job"),
        user_id=parent.user_id,
        api_key_id=parent.api_key_id,
        request_id=parent.request_id,
        action=action,
        status="queued",
        channel=None,
        payload=payload,
        progress_stage="queued",
        progress_percent=0.0,
        resource_type=resource[0] if resource else spec.resource_type,
        resource_id=resource[1] if resource else None,
        scheduled_at=now,
        attempt_count=0,
        billing_status=spec.price.billing,
        reserved_credits=0,
        charged_credits=0,
        pending_units=0.0,
        created_at=now,
        updated_at=now,
    )
    if spec.price.billing == "pending" and parent.reserved_credits > 0:
        child.reserved_credits = await ledger.move_reservation(
            session, parent.user_id, from_job=parent.id, to_job=child.id, amount=parent.reserved_credits
        )
        parent.reserved_credits = 0
    session.add(child)
    await session.flush()
    await notifier.publish(session, NEW_JOB_CHANNEL, action)
    return child


async def list_jobs(
    session: AsyncSession,
    codec: CursorCodec,
    caller: Caller,
    *,
    status: str | None,
    limit: int,
    cursor: str | None,
) -> tuple[list[PublicJob], str | None]:
    """The account's jobs, newest first, of the actions whose capability the key may read (as each job's
    own read requires); `status` keeps one status."""
    readable = [spec.action for spec in registry.specs() if caller.can(f"{spec.scopes}:read")]
    if not readable:  # the door of the list: a read scope of at least one capability that has jobs
        raise scope_missing(" or ".join(sorted({f"{spec.scopes}:read" for spec in registry.specs()})))
    statement = select(Job).where(Job.user_id == caller.user_id, Job.action.in_(readable))
    if status is not None:
        statement = statement.where(Job.status == status)
    rows, next_cursor = await newest_first(
        session,
        codec,
        statement,
        Job.id,
        limit=limit,
        cursor=cursor,
        bound_to=binding(user=caller.user_id, status=status),
    )
    return [public_job(row) for row in rows], next_cursor
