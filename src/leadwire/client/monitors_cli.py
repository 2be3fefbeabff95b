"""`leadwire monitors …`: keep a prospect list fresh on a schedule (a Find More at each slot of a cron
cadence), and list, read, change, delete monitors and read their runs, against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`)."""

from __future__ import annotations

import json
from typing import Any

import typer

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, run_sdk
from leadwire.client.tables import TEXT, Column, show_page

monitors_app = typer.Typer(
    no_args_is_help=True,
    help="Monitors: prospect lists kept fresh on a schedule (LEADWIRE_API_URL, LEADWIRE_API_KEY).",
)

MonitorId = typer.Argument(..., help="the monitor's id (mon_…)", show_default=False)
COLUMNS: list[Column] = [
    ("Id", "id", TEXT),
    ("List", "webset_id", TEXT),
    ("Status", "status", TEXT),
    ("Cron", "cron", TEXT),
    ("Next run", "next_run_at", TEXT),
]
RUN_COLUMNS: list[Column] = [
    ("Slot", "slot_at", TEXT),
    ("Status", "status", TEXT),
    ("Job", "job_id", TEXT),
    ("Skipped", "skipped_code", TEXT),
]


def _print(item: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(item, indent=2, ensure_ascii=False))
        return
    cadence = item["cadence"]
    when = f"{cadence['cron']} ({cadence['timezone']})"
    status = item["status"] + (f" ({item['pause_reason']})" if item.get("pause_reason") else "")
    typer.echo(
        f"monitor {item['id']}  {status}  {item['webset_id']}  {when}"
        f"  count {item['count']}  next {item['next_run_at'] or '-'}"
    )


@monitors_app.command("create")
def create(
    webset_id: str = typer.Argument(..., help="the prospect list's id (ws_…)", show_default=False),
    cron: str = typer.Option(..., "--cron", help='five cron fields, at most hourly, e.g. "0 9 * * 1"'),
    timezone: str = typer.Option("UTC", "--timezone", help="IANA time zone the cron is read in"),
    count: int = typer.Option(25, "--count", help="new items each run looks for (25, 100, 500, 1000)"),
    refresh: bool = typer.Option(False, "--refresh", help="re-verify the items instead of searching"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Keep a prospect list fresh: a Find More of --count items (or, with --refresh, a re-verification
    of its items and its enrichments) at each slot of --cron."""
    behavior = "refresh" if refresh else "search"
    item = run_sdk(
        api_url,
        api_key,
        lambda lw: lw.create_monitor(webset_id, cron, timezone=timezone, behavior=behavior, count=count),
    )
    _print(item, as_json)


@monitors_app.command("list")
def list_(
    webset_id: str | None = typer.Option(None, "--webset", help="only this list's monitors"),
    limit: int = typer.Option(20, "--limit", min=1, max=100, help="monitors per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """The account's monitors, newest first."""
    page = run_sdk(
        api_url, api_key, lambda lw: lw.list_monitors(webset_id=webset_id, limit=limit, cursor=cursor)
    )
    rows = [{**m, "cron": m["cadence"]["cron"]} for m in page["items"]]
    show_page(page, "Monitors", COLUMNS, as_json, rows=rows)


@monitors_app.command("get")
def get(
    monitor_id: str = MonitorId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """A monitor: its cadence, status and next slot."""
    _print(run_sdk(api_url, api_key, lambda lw: lw.get_monitor(monitor_id)), as_json)


@monitors_app.command("update")
def update(
    monitor_id: str = MonitorId,
    cron: str | None = typer.Option(None, "--cron", help="a new cadence (with --timezone)"),
    timezone: str | None = typer.Option(None, "--timezone", help="the new cadence's zone (UTC)"),
    pause: bool = typer.Option(False, "--pause", help="no more slots until resumed"),
    resume: bool = typer.Option(False, "--resume", help="slots again, counted from now"),
    count: int | None = typer.Option(None, "--count", help="new items each run looks for"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Change a monitor's cadence or count, or pause or resume it."""
    status = "paused" if pause else "active" if resume else None
    item = run_sdk(
        api_url,
        api_key,
        lambda lw: lw.update_monitor(monitor_id, cron=cron, timezone=timezone, status=status, count=count),
    )
    _print(item, as_json)


@monitors_app.command("delete")
def delete(monitor_id: str = MonitorId, api_url: str = ApiUrl, api_key: str = ApiKey) -> None:
    """Delete a monitor; a run already started goes on."""
    run_sdk(api_url, api_key, lambda lw: lw.delete_monitor(monitor_id))
    typer.echo(f"deleted {monitor_id}")


@monitors_app.command("runs")
def runs(
    monitor_id: str = MonitorId,
    limit: int = typer.Option(20, "--limit", min=1, max=100, help="runs per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """A monitor's runs, newest first: each slot's Find More job, or why it was skipped."""
    page = run_sdk(api_url, api_key, lambda lw: lw.monitor_runs(monitor_id, limit=limit, cursor=cursor))
    show_page(page, "Runs", RUN_COLUMNS, as_json)
