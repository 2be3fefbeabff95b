"""A connected account's sending policy (daily cap, warm-up ramp, window) and the sends placed under it.

A v2 dispatch or post like is not refused for being over the day's allowance or outside the window: it
is placed at the next instant the policy allows (`place_send`), under the pacing slot's row lock
(`pacing.create_paced_job`), so concurrent creations count one after another and never pass a cap.
Each placed send adds one to its day's row (`SendingDay`); a cancelled job keeps its count, as it keeps
its pacing slot. An account without a policy row follows its channel's defaults (`DEFAULTS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, cast

from sqlalchemy import Date, ForeignKey, Index, Integer, String, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.channels.connected import ConnectAccount
from leadwire.channels.recipient_zone import recipient_timezone
from leadwire.channels.send_times import Ramp, Rules, Window, allowance, local_day, place
from leadwire.channels.sending_schemas import Hold, SendingPolicyIn, SendingPolicyOut
from leadwire.platform.db import Base, JsonType, UtcDateTime
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs import Job
from leadwire.platform.time import iso, utcnow

# What an experienced sender would set for a new account (docs/api.md, Sending policy, gives sources):
# 50 cold emails a day per mailbox, 80 LinkedIn actions (restrictions start past roughly 80-100
# invitations a day on a paid account), 250 WhatsApp conversations (Meta's first messaging limit).
DEFAULT_CAPS = {"email": 50, "linkedin": 80, "whatsapp": 250}
DEFAULT_TOUCH_INTERVAL_HOURS = 24
# A send is never placed further out than this: past it the queue is full (409 `sending_queue_full`).
HORIZON_DAYS = 365


class SendingPolicy(Base):
    __tablename__ = "sending_policies"
    __table_args__ = (Index("ix_sending_policies_user", "user_id"),)

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("connect_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    daily_cap: Mapped[int] = mapped_column(Integer)
    ramp: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    ramp_started_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    window: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    timezone: Mapped[str] = mapped_column(String(64))
    person_touch_interval_hours: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class SendingDay(Base):
    """Sends placed on one of an account's days (in the policy's timezone), held ones included."""

    __tablename__ = "sending_days"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("connect_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    scheduled: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True)
class SendPlan:
    """Where a send went and why it waits; `timezone` and `timezone_source` say whose window applied."""

    when: datetime
    hold: Hold | None
    timezone: str | None
    timezone_source: str | None


def _rules(row: SendingPolicy | None, channel: str) -> Rules:
    if row is None:
        return Rules(DEFAULT_CAPS[channel], None, None, None, "UTC")
    window = None
    if row.window is not None:
        w = row.window
        window = Window(
            tuple(w["days"]), time.fromisoformat(w["start"]), time.fromisoformat(w["end"]), w["timezone"]
        )
    return Rules(
        row.daily_cap,
        Ramp(**row.ramp) if row.ramp is not None else None,
        row.ramp_started_on,
        window,
        row.timezone,
    )


async def _row(session: AsyncSession, account_id: str) -> SendingPolicy | None:
    return await session.get(SendingPolicy, account_id)


async def _used(session: AsyncSession, account_id: str, since: date) -> dict[date, SendingDay]:
    """The account's day rows from `since` on (loaded as objects: the one counted on is then at hand)."""
    rows = await session.scalars(
        select(SendingDay).where(SendingDay.account_id == account_id, SendingDay.day >= since)
    )
    return {row.day: row for row in rows}


async def touch_interval_hours(session: AsyncSession, account_id: str) -> int:
    row = await _row(session, account_id)
    return DEFAULT_TOUCH_INTERVAL_HOURS if row is None else row.person_touch_interval_hours


async def place_send(
    session: AsyncSession,
    account: ConnectAccount,
    recipient: dict[str, Any] | None,
    earliest: datetime,
    *,
    queued_behind: str | None = None,
) -> SendPlan:
    """The first instant at or after `earliest` (the pacing slot) the account's policy allows, counted
    on its day. Call under the pacing slot's lock: the count read here is written back here. A send
    queued right behind a held one (`queued_behind`: that one's reason) is held for the same reason."""
    row = await _row(session, account.id)
    rules = _rules(row, account.channel)
    zone, source = rules.timezone, None
    if rules.window is not None:
        if rules.window.timezone == "recipient":
            zone, source = recipient_timezone(recipient or {}, fallback=rules.timezone)
        else:
            zone, source = rules.window.timezone, "policy"
    days = await _used(session, account.id, local_day(earliest, rules.timezone))
    placed = place(rules, earliest, zone, {day: row.scheduled for day, row in days.items()})
    if placed.when > utcnow() + timedelta(days=HORIZON_DAYS):
        raise ApiError(
            "sending_queue_full", detail=f"the account's next free slot is over {HORIZON_DAYS} days away"
        )
    day = local_day(placed.when, rules.timezone)
    counted = days.get(day)
    if counted is None:
        session.add(SendingDay(account_id=account.id, day=day, scheduled=1))
    else:
        counted.scheduled += 1
    reason = placed.reason or queued_behind
    hold = Hold(reason=cast(Any, reason), until=iso(placed.when)) if reason else None
    return SendPlan(placed.when, hold, zone if source else None, source)


async def uncount(session: AsyncSession, account: ConnectAccount, job_id: str) -> None:
    """Give back the day's count of a placed send that will not go then (deferred when it came due)."""
    scheduled_at = await session.scalar(select(Job.scheduled_at).where(Job.id == job_id))
    if scheduled_at is None:
        return
    rules = _rules(await _row(session, account.id), account.channel)
    day = await session.get(SendingDay, (account.id, local_day(scheduled_at, rules.timezone)))
    if day is not None and day.scheduled > 0:
        day.scheduled -= 1
        await session.flush()


async def policy_view(session: AsyncSession, account: ConnectAccount) -> SendingPolicyOut:
    row = await _row(session, account.id)
    rules = _rules(row, account.channel)
    today = local_day(utcnow(), rules.timezone)
    row_today = (await _used(session, account.id, today)).get(today)
    scheduled = row_today.scheduled if row_today is not None else 0
    return SendingPolicyOut(
        account_id=account.id,
        channel=account.channel,
        daily_cap=rules.daily_cap,
        ramp=cast(Any, row.ramp) if row is not None else None,
        ramp_started_on=rules.ramp_started_on.isoformat() if rules.ramp_started_on else None,
        window=cast(Any, row.window) if row is not None else None,
        timezone=rules.timezone,
        person_touch_interval_hours=(
            row.person_touch_interval_hours if row is not None else DEFAULT_TOUCH_INTERVAL_HOURS
        ),
        default=row is None,
        today={"date": today.isoformat(), "allowance": allowance(rules, today)[0], "scheduled": scheduled},
    )


async def set_policy(session: AsyncSession, account: ConnectAccount, body: SendingPolicyIn) -> None:
    """Replace the account's policy. A ramp starts counting on the day it is first set or changed (in
    the policy's timezone); sends already placed keep their times."""
    row = await _row(session, account.id)
    ramp = body.ramp.model_dump() if body.ramp is not None else None
    window = body.window.model_dump() if body.window is not None else None
    today = local_day(utcnow(), body.timezone)
    if row is None:
        row = SendingPolicy(account_id=account.id, user_id=account.user_id)
        session.add(row)
        ramp_started_on = today if ramp is not None else None
    else:
        ramp_started_on = row.ramp_started_on if ramp is not None and ramp == row.ramp else None
        if ramp is not None and ramp_started_on is None:
            ramp_started_on = today
    row.daily_cap, row.ramp, row.ramp_started_on = body.daily_cap, ramp, ramp_started_on
    row.window, row.timezone = window, body.timezone
    row.person_touch_interval_hours = body.person_touch_interval_hours
    row.updated_at = utcnow()
    await session.flush()
