"""The rules of an account's pause (`pausing.py` says how sending waits for it): is it paused now, what
the accounts list shows, how long the next pause lasts."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from leadwire.platform.time import utcnow


class ConnectAccount(Protocol):
    """What a pause reads and writes of a connected account (`connected.ConnectAccount`)."""

    status: str
    paused_reason: str | None
    resume_at: datetime | None
    pause_count: int
    updated_at: datetime


SHORTEST_PAUSE = timedelta(minutes=15)
LONGEST_BACKOFF = timedelta(hours=24)
# A pause more than this after the last one ended starts a new streak (back-off from the start).
STREAK_RESET = timedelta(hours=24)


def paused_now(account: ConnectAccount, now: datetime) -> bool:
    return account.status == "paused" and account.resume_at is not None and account.resume_at > now


def shown_status(account: ConnectAccount, now: datetime) -> str:
    """`connected` once a pause is over (the row keeps `paused` until something writes it)."""
    if account.status == "paused" and not paused_now(account, now):
        return "connected"
    return account.status


def backoff(hint_seconds: float, pauses_in_a_row: int) -> timedelta:
    first = max(SHORTEST_PAUSE, timedelta(seconds=hint_seconds))
    doubled = first * 2 ** max(0, pauses_in_a_row - 1)
    return max(first, min(doubled, LONGEST_BACKOFF))


def pause(account: ConnectAccount, *, reason: str, hint_seconds: float) -> None:
    """Pause the account (a pause already running is lengthened, never shortened)."""
    now = utcnow()
    if account.resume_at is None or now - account.resume_at > STREAK_RESET:
        account.pause_count = 0
    account.pause_count += 1
    until = now + backoff(hint_seconds, account.pause_count)
    if paused_now(account, now) and account.resume_at is not None:
        until = max(until, account.resume_at)
    account.status, account.paused_reason, account.resume_at = "paused", reason[:500], until
    account.updated_at = now
