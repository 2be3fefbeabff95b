"""Auto-pause: a provider's "slow down" pauses the account's sending, and the jobs wait.

A send refused with a pause hint (`ChannelError.pause_seconds`: HTTP 429 from Unipile or the Graph API,
WhatsApp 130429, 131056, 80007, 4 or 131048, SMTP 421 or 4.7.x) fails its own job
`provider_rate_limited` and pauses the account: `status: paused`, `paused_reason`, and `resume_at`
after a back-off that doubles with each pause in a row (from the hint, at least 15 minutes, at most a
day unless the hint asks more). While paused, a job that comes due goes back to the queue until
`resume_at` with `hold: {reason: paused}`, and a new send is placed after it. When the pause is over, a
job that waited for it is placed again through the channel's pacing and the account's policy before
it sends, so a pause never ends in a burst.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.channels import pacing, sending_policy, touches
from leadwire.channels.connected import ConnectAccount
from leadwire.channels.deferral import DEFERRED, deferral
from leadwire.channels.pause_rules import paused_now
from leadwire.platform.db import transaction
from leadwire.platform.jobs import PENDING, Job, JobContext, JobHeld
from leadwire.platform.time import utcnow

# A job placed again this close to now sends at once rather than going back to the queue.
GRACE = timedelta(seconds=1)
# A v2 send this late (the workers were down, the machine asleep) is placed again before it goes: its
# window may have closed and its day passed, and a backlog must not go out at once.
OVERDUE = timedelta(minutes=15)


async def resume(session: AsyncSession, account: ConnectAccount) -> None:
    """End the pause now: the sends that waited for it (v1 and v2) come due, and each is placed again as
    it does. One set-based UPDATE, however many wait; a send held for a window or a cap keeps its time."""
    now = utcnow()
    if account.status == "paused":
        account.status, account.paused_reason = "connected", None
        account.resume_at = min(account.resume_at or now, now)
        account.updated_at = now
    released = await session.execute(
        update(Job)
        .where(
            Job.user_id == account.user_id,
            Job.channel == account.channel,
            Job.status.in_(PENDING),
            Job.payload["account_id"].as_string() == account.id,
            Job.hold["reason"].as_string() == "paused",
            Job.scheduled_at > now,
        )
        .values(scheduled_at=now)
        .execution_options(synchronize_session=False)
    )
    if released.rowcount:  # type: ignore[attr-defined]
        await pacing.rewind(session, account.user_id, account.channel)


async def await_turn(
    ctx: JobContext,
    account: ConnectAccount,
    *,
    channel: str,
    interval_seconds: int,
    recipient: dict[str, Any] | None,
    under_policy: bool,
) -> None:
    """Before a job acts through `account`, raise `JobHeld` when it must wait:

    - the account is paused: until it resumes (a job that was counted on a day gives its count back);
    - it waited without a place (`deferral.DEFERRED`): placed now, through pacing and, under the policy
      (v2), the account's policy; it sends when its new slot is now;
    - a v2 dispatch whose person was reached on another channel by an older send since it was placed (two
      dispatches to one person accepted at once): deferred, its count given back;
    - a v2 send more than `OVERDUE` late: its count given back and placed again, so a backlog after an
      outage keeps its spacing, its windows and its caps.
    Each decision is written with the job's new time and hold in one transaction, so a worker lost after
    it never counts or places the job twice."""
    now = utcnow()
    deferred = (ctx.hold or {}).get("reason") in DEFERRED  # waited without a slot or a day's count
    overdue = under_policy and ctx.scheduled_at is not None and now - ctx.scheduled_at > OVERDUE
    keys = touches.person_keys(recipient) if under_policy else []
    if not paused_now(account, now) and not deferred and not overdue and not keys:
        return
    until: datetime
    hold: dict[str, Any] | None
    async with transaction(ctx.sessionmaker) as session:
        waits = await deferral(
            session, account, recipient if under_policy else None, channel, now, before_job=ctx.job_id
        )
        if waits is not None:
            if under_policy and not deferred:
                await sending_policy.uncount(session, account, ctx.job_id)
            await _reschedule(session, ctx.job_id, waits.until, waits.hold())
            await touches.move(session, ctx.job_id, waits.until)
            until, hold = waits.until, waits.hold()
        elif deferred or overdue:
            if overdue and not deferred:
                await sending_policy.uncount(session, account, ctx.job_id)
            until, hold = await pacing.place_again(
                session,
                ctx.user_id,
                channel,
                interval_seconds,
                account if under_policy else None,
                recipient,
                job_id=ctx.job_id,
            )
        else:
            return
    if waits is not None or until > now + GRACE:
        raise JobHeld(until, hold)


async def _reschedule(
    session: AsyncSession, job_id: str, until: datetime, hold: dict[str, Any] | None
) -> None:
    await session.execute(update(Job).where(Job.id == job_id).values(scheduled_at=until, hold=hold))
