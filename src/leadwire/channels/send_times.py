"""When an account may send: the rules of a sending policy as pure functions of time.

A send is placed at the first instant, at or after the channel's pacing slot, that is inside the
policy's window (in the window's timezone) and on a day (in the account's timezone) whose allowance is
not used up. The allowance is the daily cap, or less while a warm-up ramp is climbing. Everything here
is arithmetic on aware datetimes, so a DST change moves a window's opening with the wall clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# Far enough for any window and cap to be met (a window opens at least once a week; a day's allowance
# is at least one); more steps means a rule that can never be met, which validation forbids.
_MAX_STEPS = 1000


@dataclass(frozen=True)
class Ramp:
    """A warm-up: `start` sends on the first day, `step_per_day` more each day after, never over `max`."""

    start: int
    step_per_day: int
    max: int


@dataclass(frozen=True)
class Window:
    """Sending hours: on `days`, from `start` (inclusive) to `end` (exclusive), in `timezone` (an IANA
    name, or `recipient`: the recipient's own, when it can be told)."""

    days: tuple[str, ...]
    start: time
    end: time
    timezone: str


@dataclass(frozen=True)
class Rules:
    """What the placement needs of a policy: the cap and ramp count days in `timezone` (the account's)."""

    daily_cap: int
    ramp: Ramp | None
    ramp_started_on: date | None
    window: Window | None
    timezone: str


class Placement(NamedTuple):
    """Where a send goes: `when`, and why it waits past its pacing slot (`reason`, None when it does not)."""

    when: datetime
    reason: str | None


def allowance(rules: Rules, day: date) -> tuple[int, str]:
    """How many sends `day` allows, and which rule sets it (`ramp` while the ramp is below the cap)."""
    if rules.ramp is None or rules.ramp_started_on is None:
        return rules.daily_cap, "daily_cap"
    climbed = max(0, (day - rules.ramp_started_on).days)
    ramped = min(rules.ramp.max, rules.ramp.start + rules.ramp.step_per_day * climbed)
    return (ramped, "ramp") if ramped < rules.daily_cap else (rules.daily_cap, "daily_cap")


def local_day(moment: datetime, timezone: str) -> date:
    return moment.astimezone(ZoneInfo(timezone)).date()


def next_day_start(moment: datetime, timezone: str) -> datetime:
    """Midnight after `moment` in `timezone`, as UTC."""
    zone = ZoneInfo(timezone)
    tomorrow = moment.astimezone(zone).date() + timedelta(days=1)
    return datetime.combine(tomorrow, time(0), tzinfo=zone).astimezone(UTC)


def window_opening(moment: datetime, window: Window, timezone: str) -> datetime:
    """`moment` when the window is open then, else the window's next opening (UTC)."""
    zone = ZoneInfo(timezone)
    local = moment.astimezone(zone)
    for ahead in range(8):
        day = local.date() + timedelta(days=ahead)
        if DAYS[day.weekday()] not in window.days:
            continue
        opens = datetime.combine(day, window.start, tzinfo=zone)
        closes = datetime.combine(day, window.end, tzinfo=zone)
        if ahead == 0 and opens <= local < closes:
            return moment
        if local < opens:
            return opens.astimezone(UTC)
    raise ValueError("a window with no day")  # validation requires at least one day


def place(rules: Rules, earliest: datetime, window_timezone: str, used: Mapping[date, int]) -> Placement:
    """The first instant at or after `earliest` the rules allow, given the sends already placed per day
    (`used`, by the account's local day). The reason is the first rule that moved it."""
    when, reason = earliest, None
    for _ in range(_MAX_STEPS):
        if rules.window is not None:
            opening = window_opening(when, rules.window, window_timezone)
            if opening != when:
                when, reason = opening, reason or "window"
        day = local_day(when, rules.timezone)
        limit, rule = allowance(rules, day)
        if used.get(day, 0) < limit:
            return Placement(when, reason)
        when, reason = next_day_start(when, rules.timezone), reason or rule
    raise ValueError("no allowed time found")
