"""The wire shape of a sending policy (docs/api.md, Sending policy): what `PUT` takes and `GET` answers."""

from __future__ import annotations

from datetime import time
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, field_validator, model_validator
from typing_extensions import TypedDict

from leadwire.channels.send_times import DAYS
from leadwire.platform.validation import RequestModel, with_examples

MAX_DAILY_CAP = 10_000
Day = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
HoldReason = Literal["daily_cap", "ramp", "window", "paused", "person_touched"]


def _zone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a directory of zones, e.g. "America"
        raise ValueError(f"{name!r} is not an IANA timezone name (such as Europe/Berlin)") from None
    return name


def _clock(value: str) -> str:
    try:
        time.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a time of day as HH:MM") from None
    if len(value) != 5:
        raise ValueError(f"{value!r} is not a time of day as HH:MM")
    return value


class RampIn(BaseModel):
    start: int = Field(ge=1, le=MAX_DAILY_CAP, description="sends allowed on the ramp's first day")
    step_per_day: int = Field(ge=0, le=MAX_DAILY_CAP, description="sends added each day after")
    max: int = Field(ge=1, le=MAX_DAILY_CAP, description="the ramp's ceiling (the daily cap still applies)")

    @model_validator(mode="after")
    def _ordered(self) -> RampIn:
        if self.max < self.start:
            raise ValueError("ramp.max must be at least ramp.start")
        return self


class WindowIn(BaseModel):
    days: list[Day] = Field(min_length=1, max_length=7, description="the days sends may go out")
    start: str = Field(description="opening time, HH:MM, inclusive")
    end: str = Field(description="closing time, HH:MM, exclusive; after `start` (no window across midnight)")
    timezone: str = Field(
        default="recipient",
        description="an IANA name, or `recipient`: the recipient's own where it can be told from the "
        "phone's country or the email domain's country, else the policy's `timezone`",
    )

    @field_validator("start", "end")
    @classmethod
    def _times(cls, value: str) -> str:
        return _clock(value)

    @field_validator("timezone")
    @classmethod
    def _window_zone(cls, value: str) -> str:
        return value if value == "recipient" else _zone(value)

    @field_validator("days")
    @classmethod
    def _unique_days(cls, value: list[str]) -> list[str]:
        return [day for day in DAYS if day in value]

    @model_validator(mode="after")
    def _ordered(self) -> WindowIn:
        if self.end <= self.start:
            raise ValueError("window.end must be after window.start (a window cannot cross midnight)")
        return self


class SendingPolicyIn(RequestModel):
    model_config = with_examples(
        {
            "daily_cap": 40,
            "ramp": {"start": 10, "step_per_day": 5, "max": 40},
            "window": {"days": ["mon", "tue", "wed", "thu", "fri"], "start": "09:00", "end": "17:00"},
            "timezone": "Europe/Berlin",
        },
        {"daily_cap": 80, "ramp": None, "window": None},
    )
    invalid_codes = {
        "daily_cap": "invalid_sending_policy",
        "ramp": "invalid_sending_policy",
        "window": "invalid_sending_policy",
        "timezone": "invalid_sending_policy",
        "person_touch_interval_hours": "invalid_sending_policy",
    }
    missing_codes = {"daily_cap": "invalid_sending_policy"}

    daily_cap: int = Field(ge=1, le=MAX_DAILY_CAP, description="sends per day at most, per the account's day")
    ramp: RampIn | None = Field(default=None, description="a warm-up, counted from the day it is set")
    window: WindowIn | None = Field(default=None, description="sending hours; none: any time")
    timezone: str = Field(default="UTC", description="the account's IANA timezone: its days for the cap")
    person_touch_interval_hours: int = Field(
        default=24,
        ge=0,
        le=24 * 30,
        description="a send to a person reached on another channel less than this many hours before "
        "waits (0: never)",
    )

    @field_validator("timezone")
    @classmethod
    def _account_zone(cls, value: str) -> str:
        return _zone(value)


class RampOut(TypedDict):
    start: int
    step_per_day: int
    max: int


class WindowOut(TypedDict):
    days: list[Day]
    start: str
    end: str
    timezone: str


class SendingToday(TypedDict):
    date: str  # the account's day, YYYY-MM-DD
    allowance: int  # sends that day allows (the ramp's figure while it climbs)
    scheduled: int  # sends placed on it so far (held ones included)


class SendingPolicyOut(TypedDict):
    account_id: str
    channel: str
    daily_cap: int
    ramp: RampOut | None
    ramp_started_on: str | None
    window: WindowOut | None
    timezone: str
    person_touch_interval_hours: int
    default: bool  # true until a PUT: the channel's defaults (docs/api.md, Sending policy)
    today: SendingToday


class Hold(TypedDict):
    reason: HoldReason
    until: str
