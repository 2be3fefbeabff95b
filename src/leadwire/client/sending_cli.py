"""`leadwire sending …`: each connected account's sending policy (daily cap, warm-up ramp, window) and
the queue of sends it shapes, from a terminal, against any Leadwire server (`LEADWIRE_API_URL`,
`LEADWIRE_API_KEY`)."""

from __future__ import annotations

import json
import re
from typing import Any

import typer

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, run_sdk
from leadwire.client.tables import TEXT, Column, show_page

sending_app = typer.Typer(
    no_args_is_help=True,
    help="Sending policies and the outreach queue (LEADWIRE_API_URL, LEADWIRE_API_KEY).",
)

AccountId = typer.Argument(..., help="the connected account's id (acct_…)", show_default=False)
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# "mon-fri 09:00-17:00", "mon,wed,fri 08:30-12:00"
_WINDOW = re.compile(r"^\s*(?P<days>[a-z,\-]+)\s+(?P<start>\d\d:\d\d)-(?P<end>\d\d:\d\d)\s*$")
QUEUE_COLUMNS: list[Column] = [
    ("Job", "job_id", TEXT),
    ("Account", "account_id", TEXT),
    ("Channel", "channel", TEXT),
    ("Slot", "scheduled_at", TEXT),
    ("Held for", "held_for", TEXT),
    ("Zone", "timezone", TEXT),
]


def _days(spec: str) -> list[str]:
    found: list[str] = []
    for part in spec.split(","):
        first, _, last = part.partition("-")
        if first not in DAYS or (last and last not in DAYS):
            raise typer.BadParameter(f"{part!r}: days are mon..sun, as a list or a range (mon-fri)")
        span = DAYS[DAYS.index(first) : DAYS.index(last) + 1] if last else (first,)
        found += [day for day in span if day not in found]
    return found


def parse_window(spec: str, timezone: str) -> dict[str, Any]:
    """`mon-fri 09:00-17:00` as the policy's window, in `timezone` (an IANA name or `recipient`)."""
    match = _WINDOW.match(spec.lower())
    if match is None:
        raise typer.BadParameter(
            f"{spec!r}: write the window as DAYS HH:MM-HH:MM, e.g. 'mon-fri 09:00-17:00'"
        )
    return {"days": _days(match["days"]), "start": match["start"], "end": match["end"], "timezone": timezone}


def parse_ramp(spec: str) -> dict[str, int]:
    """`10,5,40` as `{start: 10, step_per_day: 5, max: 40}`."""
    parts = spec.split(",")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise typer.BadParameter(f"{spec!r}: write the ramp as START,STEP_PER_DAY,MAX, e.g. 10,5,40")
    start, step, top = (int(p) for p in parts)
    return {"start": start, "step_per_day": step, "max": top}


def _print_policy(item: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(item, indent=2, ensure_ascii=False))
        return
    ramp, window, today = item["ramp"], item["window"], item["today"]
    lines = [
        f"{item['account_id']} ({item['channel']}){'  defaults' if item['default'] else ''}",
        f"  daily cap {item['daily_cap']} (days in {item['timezone']})",
        f"  ramp {ramp['start']} +{ramp['step_per_day']}/day to {ramp['max']} since {item['ramp_started_on']}"
        if ramp
        else "  no ramp",
        f"  window {','.join(window['days'])} {window['start']}-{window['end']} ({window['timezone']})"
        if window
        else "  no window",
        f"  one touch per person every {item['person_touch_interval_hours']} h",
        f"  today {today['date']}: {today['scheduled']} of {today['allowance']} placed",
    ]
    typer.echo("\n".join(lines))


@sending_app.command("policy")
def policy(
    account_id: str = AccountId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """An account's sending policy and today's allowance."""
    _print_policy(run_sdk(api_url, api_key, lambda lw: lw.sending_policy(account_id)), as_json)


@sending_app.command("set")
def set_policy(
    account_id: str = AccountId,
    daily_cap: int = typer.Option(..., "--daily-cap", min=1, max=10_000, help="sends a day at most"),
    ramp: str | None = typer.Option(None, "--ramp", help="a warm-up: START,STEP_PER_DAY,MAX (e.g. 10,5,40)"),
    window: str | None = typer.Option(None, "--window", help="sending hours: 'mon-fri 09:00-17:00'"),
    window_timezone: str = typer.Option(
        "recipient", "--window-timezone", help="the window's IANA zone, or recipient"
    ),
    timezone: str | None = typer.Option(None, "--timezone", help="the account's IANA zone (its days)"),
    touch_hours: int | None = typer.Option(
        None, "--person-touch-hours", min=0, max=720, help="hours between touches of one person"
    ),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Replace an account's sending policy (parts not given are unset: no ramp, no window)."""
    ramp_body = parse_ramp(ramp) if ramp else None
    window_body = parse_window(window, window_timezone) if window else None
    item = run_sdk(
        api_url,
        api_key,
        lambda lw: lw.set_sending_policy(
            account_id,
            daily_cap=daily_cap,
            ramp=ramp_body,
            window=window_body,
            timezone=timezone,
            person_touch_interval_hours=touch_hours,
        ),
    )
    _print_policy(item, as_json)


@sending_app.command("queue")
def queue(
    account_id: str | None = typer.Option(None, "--account", help="one account's sends"),
    limit: int = typer.Option(20, "--limit", min=1, max=100, help="sends per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """The sends waiting to go out, in slot order, with why each is held."""
    page = run_sdk(
        api_url, api_key, lambda lw: lw.outreach_queue(account_id=account_id, limit=limit, cursor=cursor)
    )
    rows = [{**send, "held_for": (send.get("hold") or {}).get("reason", "")} for send in page["items"]]
    show_page(page, "Outreach queue", QUEUE_COLUMNS, as_json, rows)


@sending_app.command("resume")
def resume(
    account_id: str = AccountId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """End an account's auto-pause now."""
    item = run_sdk(api_url, api_key, lambda lw: lw.resume_account(account_id))
    if as_json:
        typer.echo(json.dumps(item, indent=2, ensure_ascii=False))
        return
    typer.echo(f"{item['account_id']} {item['status']}")
