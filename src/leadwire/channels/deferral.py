"""Why a send through a connected account must wait past its slot without taking a place in the queue
yet: its account is paused, or the person was reached on another channel too recently. Such a send is
scheduled for when the reason ends, and placed (pacing, then the account's policy) only when it comes
due (`pausing.await_turn`): a wait of hours never holds up the channel's other sends."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.channels import sending_policy, touches
from leadwire.channels.connected import ConnectAccount
from leadwire.channels.pause_rules import paused_now
from leadwire.platform.time import iso

# Holds whose job is placed again when it comes due (not yet counted on a day, not yet in the pacing).
DEFERRED = ("paused", "person_touched")


@dataclass(frozen=True)
class Deferral:
    reason: str
    until: datetime

    def hold(self) -> dict[str, Any]:
        return {"reason": self.reason, "until": iso(self.until)}


async def deferral(
    session: AsyncSession,
    account: ConnectAccount,
    recipient: dict[str, Any] | None,
    channel: str,
    slot: datetime,
    *,
    before_job: str | None = None,
) -> Deferral | None:
    """`{reason, until}` when the send must wait past `slot` for its account's pause or for the person's
    last touch on another channel; None when it may be placed now. `before_job`: only touches of sends
    created before that job count (a send yields to older ones only, so two never wait for each other)."""
    if paused_now(account, slot) and account.resume_at is not None:
        return Deferral("paused", account.resume_at)
    keys = touches.person_keys(recipient)
    if not keys:
        return None
    hours = await sending_policy.touch_interval_hours(session, account.id)
    if hours <= 0:
        return None
    interval = timedelta(hours=hours)
    last = await touches.last_touch_elsewhere(
        session, account.user_id, keys, channel, slot - interval, before_job=before_job
    )
    if last is None or last + interval <= slot:
        return None
    return Deferral("person_touched", last + interval)
