"""Per (user, channel) spacing of outreach jobs, shared by outreach dispatches and post likes; and, for a
job sent through a connected account under its sending policy, the move to the policy's next allowed
instant (`sending_policy.place_send`) under the same row lock.

The queue of a channel stays first in, first out: a job held for a window or a cap moves the slot with
it, so the jobs after it keep their spacing and their order (docs/api.md, Sending policy)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ForeignKey, String, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.channels import sending_policy, touches
from leadwire.channels.connected import ConnectAccount
from leadwire.channels.deferral import DEFERRED, deferral
from leadwire.channels.queue import record_send
from leadwire.platform.callers import Caller
from leadwire.platform.db import Base, UtcDateTime, dialect_insert
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs import PENDING, Job, JobFailure, NewJob, create_job
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow

MIN_INTERVAL_SECONDS = 60
MAX_INTERVAL_SECONDS = 86400
DEFAULT_INTERVAL_SECONDS = 60


class PacingSlot(Base):
    __tablename__ = "pacing_slots"

    user_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    channel: Mapped[str] = mapped_column(String(16), primary_key=True)
    last_scheduled_at: Mapped[datetime] = mapped_column(UtcDateTime())
    # The hold of the last job placed (None when it was not held): a job queued right behind a held one
    # waits for the same reason, and says so.
    hold_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)


async def next_slot(session: AsyncSession, *, user_id: str, channel: str, interval_seconds: int) -> datetime:
    """Reserve the next send time on this channel: `max(now, last + interval)`, under a row lock.

    A cancelled job keeps its slot (docs/api.md, Pacing of outreach), so the slot only ever moves forward.
    """
    when, slot = await _reserve(session, user_id=user_id, channel=channel, interval_seconds=interval_seconds)
    if slot is not None:
        await session.flush()
    return when


async def _reserve(
    session: AsyncSession, *, user_id: str, channel: str, interval_seconds: int
) -> tuple[datetime, PacingSlot | None]:
    """The next slot and the locked row, moved to it but not flushed (None: the row was just created at
    the slot)."""
    now = utcnow()
    # The row may not exist yet and two first jobs may race to create it: insert-if-absent, then lock.
    created = await session.execute(
        dialect_insert(session)(PacingSlot)
        .values(user_id=user_id, channel=channel, last_scheduled_at=now)
        .on_conflict_do_nothing()
        .returning(PacingSlot.user_id)
    )
    if created.scalar_one_or_none() is not None:
        return now, None
    slot = (
        await session.execute(
            select(PacingSlot)
            .where(PacingSlot.user_id == user_id, PacingSlot.channel == channel)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).scalar_one()
    when = max(now, slot.last_scheduled_at + timedelta(seconds=interval_seconds))
    slot.last_scheduled_at = when
    return when, slot


async def create_paced_job(
    session: AsyncSession,
    runtime: Runtime,
    caller: Caller,
    *,
    action: str,
    payload: dict[str, Any],
    channel: str,
    interval_seconds: int,
    status: str,
    blobs: Mapping[str, bytes] | None = None,
    sender: ConnectAccount | None = None,
    recipient: dict[str, Any] | None = None,
) -> NewJob:
    """A job that acts on a channel, created at the channel's next slot in the request's transaction
    (a refused creation gives the slot back with everything else); `blobs` as in `create_job`, under the
    account's cap on queued bytes. With a `sender`, its sending policy may hold the job past the slot
    (the job's `hold` says why and until when) and the send is listed in the account's queue."""
    plan, hold = None, None
    waits = await deferral(session, sender, recipient, channel, utcnow()) if sender is not None else None
    if waits is not None:  # no slot yet: placed when it comes due, so it holds up nothing meanwhile
        when, hold = waits.until, waits.hold()
    elif sender is None:
        when = await next_slot(
            session, user_id=caller.user_id, channel=channel, interval_seconds=interval_seconds
        )
    else:
        plan = await _under_policy(session, caller.user_id, channel, interval_seconds, sender, recipient)
        when, hold = plan.when, dict(plan.hold) if plan.hold is not None else None
    job = await create_job(
        session,
        runtime.notifier,
        caller,
        action=action,
        payload=payload,
        channel=channel,
        scheduled_at=when,
        status=status,
        draining=runtime.draining,
        blobs=blobs,
        queued_bytes_limit=runtime.settings.queued_bytes_per_account,
        hold=hold,
    )
    if sender is not None:
        zone = (plan.timezone, plan.timezone_source) if plan is not None else (None, None)
        await record_send(session, job, sender.id, *zone)
        keys = touches.person_keys(recipient)
        if keys:
            await touches.record(
                session, user_id=caller.user_id, job_id=job.id, channel=channel, keys=keys, at=when
            )
    return job


async def place_again(
    session: AsyncSession,
    user_id: str,
    channel: str,
    interval_seconds: int,
    sender: ConnectAccount | None,
    recipient: dict[str, Any] | None,
    *,
    job_id: str,
) -> tuple[datetime, dict[str, Any] | None]:
    """A slot for a job that waited without one (a pause, a person touched elsewhere), as if it were
    created now: the channel's next slot, then the sender's policy (none for a v1 job). The job's time
    and hold are written here, in the transaction that takes the slot and the day's count."""
    try:
        return await _place_again(session, user_id, channel, interval_seconds, sender, recipient, job_id)
    except ApiError as refused:  # past the horizon: the job cannot be placed (`sending_queue_full`)
        raise JobFailure(refused.code, refused.detail) from None


async def _place_again(
    session: AsyncSession,
    user_id: str,
    channel: str,
    interval_seconds: int,
    sender: ConnectAccount | None,
    recipient: dict[str, Any] | None,
    job_id: str,
) -> tuple[datetime, dict[str, Any] | None]:
    if sender is None:
        when, hold = (
            await next_slot(session, user_id=user_id, channel=channel, interval_seconds=interval_seconds),
            None,
        )
    else:
        plan = await _under_policy(session, user_id, channel, interval_seconds, sender, recipient)
        when, hold = plan.when, dict(plan.hold) if plan.hold is not None else None
    await session.execute(update(Job).where(Job.id == job_id).values(scheduled_at=when, hold=hold))
    await touches.move(session, job_id, when)
    return when, hold


async def _under_policy(
    session: AsyncSession,
    user_id: str,
    channel: str,
    interval_seconds: int,
    sender: ConnectAccount,
    recipient: dict[str, Any] | None,
) -> sending_policy.SendPlan:
    """The channel's next slot, then the first instant after it the sender's policy allows; the slot row
    (still locked) moves to it, with the hold it had (a job right behind a held one waits for the same
    reason)."""
    slot_time, row = await _reserve(
        session, user_id=user_id, channel=channel, interval_seconds=interval_seconds
    )
    behind = row.hold_reason if row is not None and slot_time > utcnow() else None
    plan = await sending_policy.place_send(session, sender, recipient, slot_time, queued_behind=behind)
    reason = plan.hold["reason"] if plan.hold else None
    if row is not None:
        row.last_scheduled_at, row.hold_reason = plan.when, reason
    elif plan.when != slot_time or reason is not None:
        await _move_slot(session, user_id, channel, plan.when, plan.hold)
    await session.flush()  # the slot and the day's count, in one go
    return plan


async def rewind(session: AsyncSession, user_id: str, channel: str) -> None:
    """Take the channel's slot back from the sends that waited for a pause (placed again as they come
    due): to the latest job still waiting with a place or, with none, the last one started in the past
    day, so the spacing from what was really sent holds. Under the slot's lock."""
    await session.execute(
        select(PacingSlot.user_id)
        .where(PacingSlot.user_id == user_id, PacingSlot.channel == channel)
        .with_for_update()
    )
    mine = (Job.user_id == user_id, Job.channel == channel)
    placed = func.coalesce(Job.hold["reason"].as_string(), "").not_in(DEFERRED)
    latest = await session.scalar(
        select(func.max(Job.scheduled_at)).where(*mine, Job.status.in_(PENDING), placed)
    )
    if latest is None:
        since = utcnow() - timedelta(days=1)
        latest = await session.scalar(select(func.max(Job.started_at)).where(*mine, Job.started_at > since))
    await session.execute(
        update(PacingSlot)
        .where(PacingSlot.user_id == user_id, PacingSlot.channel == channel)
        .values(last_scheduled_at=latest or utcnow() - timedelta(days=1), hold_reason=None)
    )


async def _move_slot(
    session: AsyncSession, user_id: str, channel: str, when: datetime, hold: Mapping[str, Any] | None
) -> None:
    await session.execute(
        update(PacingSlot)
        .where(PacingSlot.user_id == user_id, PacingSlot.channel == channel)
        .values(last_scheduled_at=when, hold_reason=hold["reason"] if hold else None)
    )
