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

from datetime import timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.channels import pacing, touches
from leadwire.channels.connected import ConnectAccount
from leadwire.channels.deferral import DEFERRED, deferral
from leadwire.channels.pause_rules import paused_now
from leadwire.channels.queue import ScheduledSend
from leadwire.platform.db import transaction
from leadwire.platform.jobs import PENDING, Job, JobContext, JobHeld
from leadwire.platform.time import iso, utcnow

# A job placed again this close to now sends at once rather than going back to the queue.
GRACE = timedelta(seconds=1)


async def resume(session: AsyncSession, account: ConnectAccount) -> None:
    """End the pause now: the jobs that waited for it come due, and each is placed again as it does."""
    now = utcnow()
    if account.status == "paused":
        account.status, account.paused_reason = "connected", None
        account.resume_at = min(account.resume_at or now, now)
        account.updated_at = now
    held = (
        await session.execute(
            select(Job.id, Job.hold)
            .join(ScheduledSend, ScheduledSend.job_id == Job.id)
            .where(ScheduledSend.account_id == account.id, Job.status.in_(PENDING), Job.scheduled_at > now)
        )
    ).all()
    # Only the ones held for the pause; a job held for a window or a cap keeps its time.
    for_the_pause = [job_id for job_id, hold in held if hold and hold.get("reason") == "paused"]
    if for_the_pause:
        await session.execute(
            update(Job)
            .where(Job.id.in_(for_the_pause), Job.status.in_(PENDING))
            .values(scheduled_at=now)
            .execution_options(synchronize_session=False)
        )
        await pacing.rewind(session, account.user_id, account.channel, leaving=for_the_pause)


async def await_turn(
    ctx: JobContext,
    account: ConnectAccount,
    *,
    channel: str,
    interval_seconds: int,
    recipient: dict[str, Any],
) -> None:
    """Before a job acts through `account`: while it is paused, back to the queue until it resumes. A job
    that waited without a place (`deferral.DEFERRED`: a pause, a person touched elsewhere) is placed
    now (pacing and policy) and goes back to the queue unless its new slot is now."""
    now = utcnow()
    if paused_now(account, now):
        assert account.resume_at is not None
        raise JobHeld(account.resume_at, {"reason": "paused", "until": iso(account.resume_at)})
    if not ctx.hold or ctx.hold.get("reason") not in DEFERRED or ctx.hold.get("placed"):
        return
    async with transaction(ctx.sessionmaker) as session:
        waits = await deferral(session, account, recipient, channel, now)
        if waits is not None:  # the person was reached elsewhere since: wait again
            await touches.move(session, ctx.job_id, waits.until)
        else:
            when, hold = await pacing.place_again(
                session, ctx.user_id, channel, interval_seconds, account, recipient, job_id=ctx.job_id
            )
    if waits is not None:
        raise JobHeld(waits.until, waits.hold())
    if when > now + GRACE:
        # Marked as placed: when it comes due again it sends, rather than being placed once more.
        waited = {"reason": ctx.hold["reason"], "until": iso(when)}
        raise JobHeld(when, {**(hold or waited), "placed": True})
