"""The placement rules of a sending policy on a fixed clock: windows (with a DST change in the window's
zone), the daily cap by the account's day, the warm-up ramp, and which rule a hold names."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from leadwire.channels.recipient_zone import recipient_timezone
from leadwire.channels.send_times import Ramp, Rules, Window, allowance, place

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri")
NINE_TO_FIVE = Window(WEEKDAYS, time(9), time(17), "America/New_York")


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def rules(
    cap: int = 50, *, window: Window | None = None, ramp: Ramp | None = None, zone: str = "UTC"
) -> Rules:
    return Rules(cap, ramp, date(2026, 11, 2) if ramp else None, window, zone)


def test_inside_the_window_and_under_the_cap_a_send_keeps_its_slot() -> None:
    slot = utc(2026, 11, 24, 15, 0)  # Tuesday 10:00 in New York
    assert place(rules(window=NINE_TO_FIVE), slot, "America/New_York", {}) == (slot, None)


def test_before_opening_a_send_waits_for_the_window() -> None:
    slot = utc(2026, 11, 24, 12, 0)  # Tuesday 07:00 in New York (EST, UTC-5)
    placed = place(rules(window=NINE_TO_FIVE), slot, "America/New_York", {})
    assert placed == (utc(2026, 11, 24, 14, 0), "window")


def test_after_closing_on_friday_a_send_waits_for_monday() -> None:
    slot = utc(2026, 11, 27, 23, 0)  # Friday 18:00 in New York
    placed = place(rules(window=NINE_TO_FIVE), slot, "America/New_York", {})
    assert placed == (utc(2026, 11, 30, 14, 0), "window")


def test_the_window_follows_the_wall_clock_across_a_dst_change() -> None:
    # US clocks went back on Sunday 2026-11-01: Friday's 09:00 is 13:00 UTC (EDT), Monday's 14:00 (EST).
    friday_evening = utc(2026, 10, 30, 22, 0)
    assert place(rules(window=NINE_TO_FIVE), friday_evening, "America/New_York", {}) == (
        utc(2026, 11, 2, 14, 0),
        "window",
    )
    before_spring = utc(2027, 3, 12, 22, 0)  # Friday; clocks go forward on Sunday 2027-03-14
    assert place(rules(window=NINE_TO_FIVE), before_spring, "America/New_York", {}).when == utc(
        2027, 3, 15, 13, 0
    )


def test_a_full_day_moves_the_send_to_the_accounts_next_day_and_says_daily_cap() -> None:
    slot = utc(2026, 11, 24, 21, 30)  # Tuesday 22:30 in Berlin; the account counts Berlin days
    used = {date(2026, 11, 24): 50}
    placed = place(rules(zone="Europe/Berlin"), slot, "Europe/Berlin", used)
    assert placed == (utc(2026, 11, 24, 23, 0), "daily_cap")  # Berlin midnight
    assert place(rules(zone="UTC"), slot, "UTC", used) == (utc(2026, 11, 25, 0, 0), "daily_cap")


def test_a_full_day_then_a_closed_window_names_the_first_rule() -> None:
    slot = utc(2026, 11, 24, 16, 0)  # Tuesday 11:00 in New York
    full = {date(2026, 11, 24): 50}
    placed = place(rules(window=NINE_TO_FIVE, zone="America/New_York"), slot, "America/New_York", full)
    assert placed == (utc(2026, 11, 25, 14, 0), "daily_cap")


def test_the_ramp_climbs_by_its_step_and_stops_at_its_max_and_the_cap() -> None:
    ramp = Ramp(start=10, step_per_day=5, max=40)
    climbing = rules(cap=30, ramp=ramp)
    assert [allowance(climbing, date(2026, 11, d)) for d in (2, 3, 5, 6, 30)] == [
        (10, "ramp"),
        (15, "ramp"),
        (25, "ramp"),
        (30, "daily_cap"),
        (30, "daily_cap"),
    ]
    assert allowance(rules(cap=100, ramp=ramp), date(2026, 12, 31)) == (40, "ramp")
    slot = utc(2026, 11, 3, 12, 0)
    assert place(climbing, slot, "UTC", {date(2026, 11, 3): 15}) == (utc(2026, 11, 4, 0, 0), "ramp")


@pytest.mark.parametrize(
    ("recipient", "expected"),
    [
        ({"phone": "+4915123456789"}, ("Europe/Berlin", "phone")),
        ({"phone": "+12125550123"}, ("America/New_York", "phone")),
        ({"address": "jane@acme.de"}, ("Europe/Berlin", "email_domain")),
        ({"address": "jane@acme.co.uk"}, ("Europe/London", "email_domain")),
        ({"address": "jane@acme.com"}, ("Asia/Tokyo", "account")),  # a generic domain tells nothing
        ({"address": "jane@acme.us"}, ("Asia/Tokyo", "account")),  # a country of several zones neither
        ({"profile_url": "https://www.linkedin.com/in/jane"}, ("Asia/Tokyo", "account")),
    ],
)
def test_the_recipients_zone_comes_from_the_phone_or_the_email_domain(
    recipient: dict[str, str], expected: tuple[str, str]
) -> None:
    assert recipient_timezone(recipient, fallback="Asia/Tokyo") == expected
