"""Monitors: a prospect list kept fresh on a schedule. A monitor holds a cron expression read in a time
zone (at most hourly) and the time of its next slot; when a slot is due, the scheduler
(`monitor_scheduler.py`) starts the run: a Find More of `count` items with the list's criteria and
exclusions, billed and cancellable like any Find More. Every slot is a `MonitorRun` row, once.

Every function here runs in its caller's transaction and knows nothing of HTTP.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import CroniterError, croniter
from croniter.croniter import HashExpander
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import Job
from leadwire.platform.pagination import CursorCodec, binding, newest_first
from leadwire.platform.time import iso, utcnow
from leadwire.platform.users import lock_account_counts
from leadwire.websets import data_use, monitor_keys, service
from leadwire.websets.models import Monitor, MonitorRun
from leadwire.websets.monitor_schemas import (
    MAX_MONITORS_PER_ACCOUNT,
    MAX_MONITORS_PER_WEBSET,
    Cadence,
    MonitorCreate,
    MonitorOut,
    MonitorRunOut,
    MonitorUpdate,
)
from leadwire.websets.owned import get_owned as owned_webset

# Where the check that an expression fires starts, in the cadence's zone: the same answer each time.
CHECKED_FROM = datetime(2026, 1, 1)
RANDOM_DRAWS = 10  # draws of an expression's random fields before it is refused as one that never fires


def _refused(param: str, detail: str) -> ApiError:
    return ApiError("invalid_monitor_cadence", param=f"cadence.{param}", detail=detail)


def _random_fields(cron: str) -> list[int]:
    return [index for index, field in enumerate(cron.split()) if field[:1] in "rR"]


def resolve_random(cron: str) -> str:
    """`cron` with each random field (`R`, `R(a-b)`, `R/n`, `R(a-b)/n`) drawn once, as croniter would
    draw it, and every other field as written: "R 9 * * 1" becomes, say, "17 9 * * 1". croniter draws a
    random field anew each time it reads an expression, so a monitor keeps the drawn one and its slots
    stay where they are (`R * * * *` would otherwise run at a new minute each hour)."""
    fields, expander = cron.split(), HashExpander(croniter)
    for index in _random_fields(cron):  # `croniter.is_valid` has checked each one's form and range
        fields[index] = expander.expand(cron.lower(), index, fields[index].lower())
    return " ".join(fields)


def _fires(cron: str, zone: ZoneInfo) -> bool:
    """Whether any date matches `cron`: croniter raises CroniterBadDateError for a day its months do not
    have (31 February), having looked some years ahead."""
    try:
        croniter(cron, CHECKED_FROM.replace(tzinfo=zone)).get_next(datetime)
    except CroniterError:
        return False
    return True


def _minutes_an_hour(cron: str) -> int:
    """How many minutes of an hour `cron` fires at, as croniter expands its minute field ("*" is all 60)."""
    minutes = croniter.expand(cron)[0][0]
    return 60 if "*" in minutes else len(minutes)


def check_cadence(cadence: Cadence) -> str:
    """The cron expression a monitor keeps for `cadence` (its random fields drawn once: `resolve_random`);
    400 `invalid_monitor_cadence` (naming the field) for an unknown zone, an expression that is not five
    valid fields, one that never fires (31 February), or one whose slots come less than an hour apart.

    Slots come less than an hour apart exactly when the minute field holds two minutes or more: an hour
    that fires fires at each of them, and slots at one minute of distinct hours are an hour apart at
    least. That is read from the expression, not from a sample of its slots (200 of them took 40-80 ms
    of the event loop for an ordinary expression and 0.8 s for a rare one such as `0 0 29 2 1#5`)."""
    try:
        zone = ZoneInfo(cadence.timezone)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a directory of zones, e.g. "America"
        raise _refused("timezone", "not an IANA time zone") from None
    if len(cadence.cron.split()) != 5 or not croniter.is_valid(cadence.cron):
        raise _refused("cron", "five cron fields, e.g. 0 9 * * 1")
    # A random field may draw a day its month lacks ("0 0 R 2 *" drawing 30): drawn again, a few times.
    for _ in range(RANDOM_DRAWS if _random_fields(cadence.cron) else 1):
        cron = resolve_random(cadence.cron)
        if _fires(cron, zone):
            break
    else:
        raise _refused("cron", "the expression never fires, e.g. 0 0 31 2 *")
    if _minutes_an_hour(cron) > 1:
        raise _refused("cron", "a monitor runs at most hourly: one minute of the hour, e.g. 0 * * * *")
    return cron


def next_slot(cron: str, zone: str, after: datetime) -> datetime:
    """The first slot of `cron` (an expression `check_cadence` kept) in `zone` strictly after `after`,
    in UTC."""
    slot: datetime = croniter(cron, after.astimezone(ZoneInfo(zone))).get_next(datetime)
    return slot.astimezone(UTC)


async def create(session: AsyncSession, caller: Caller, body: MonitorCreate) -> MonitorOut:
    cron = check_cadence(body.cadence)
    service.check_count(caller, body.count)
    webset = await owned_webset(session, caller, body.webset_id, lock=True)
    await data_use.check_webset(session, caller, webset)  # each slot's run reads what the list reads
    await lock_account_counts(session, caller.user_id)  # two creations cannot both pass the account's bound
    of_webset = await _count(session, Monitor.webset_id == webset.id)
    of_account = await _count(session, Monitor.user_id == caller.user_id)
    if of_webset >= MAX_MONITORS_PER_WEBSET or of_account >= MAX_MONITORS_PER_ACCOUNT:
        raise ApiError(
            "monitor_limit_exceeded",
            detail=f"at most {MAX_MONITORS_PER_WEBSET} a list, {MAX_MONITORS_PER_ACCOUNT} an account",
        )
    now = utcnow()
    monitor = Monitor(
        id=new_id("mon"),
        user_id=caller.user_id,
        api_key_id=caller.key_id,
        webset_id=webset.id,
        cron=cron,
        timezone=body.cadence.timezone,
        behavior=body.behavior,
        count=body.count,
        status="active",
        metadata_=dict(body.metadata),
        next_run_at=next_slot(cron, body.cadence.timezone, now),
        last_run_at=None,
        created_at=now,
        updated_at=now,
    )
    session.add(monitor)
    await session.flush()
    return view(monitor)


async def _count(session: AsyncSession, where: object) -> int:
    return int(await session.scalar(select(func.count()).select_from(Monitor).where(where)) or 0)  # type: ignore[arg-type]


async def get_owned(session: AsyncSession, caller: Caller, monitor_id: str, *, lock: bool = False) -> Monitor:
    statement = select(Monitor).where(Monitor.id == monitor_id[:64], Monitor.user_id == caller.user_id)
    monitor = (await session.execute(statement.with_for_update() if lock else statement)).scalar_one_or_none()
    if monitor is None:
        raise ApiError("monitor_not_found")
    return monitor


async def update(session: AsyncSession, caller: Caller, monitor_id: str, body: MonitorUpdate) -> MonitorOut:
    """A new cadence or a resumed monitor counts its next slot from now; a paused one keeps none due."""
    monitor = await get_owned(session, caller, monitor_id, lock=True)
    now = utcnow()
    if body.cadence is not None:
        monitor.cron, monitor.timezone = check_cadence(body.cadence), body.cadence.timezone
    if body.count is not None:
        service.check_count(caller, body.count)
        monitor.count = body.count
    if body.metadata is not None:
        monitor.metadata_ = dict(body.metadata)
    if body.status is not None:
        if body.status == "active":  # one its key's revocation paused needs a key managing keys
            await monitor_keys.resume(session, monitor, caller)
        monitor.status = body.status
    if body.cadence is not None or body.status == "active":
        monitor.next_run_at = next_slot(monitor.cron, monitor.timezone, now)
    monitor.updated_at = now
    return view(monitor)


async def delete(session: AsyncSession, caller: Caller, monitor_id: str) -> None:
    """The monitor and its runs' records; runs already started go on (they are Find More jobs)."""
    await session.delete(await get_owned(session, caller, monitor_id, lock=True))


async def list_monitors(
    session: AsyncSession,
    codec: CursorCodec,
    caller: Caller,
    *,
    webset_id: str | None,
    limit: int,
    cursor: str | None,
) -> tuple[list[MonitorOut], str | None]:
    statement = select(Monitor).where(Monitor.user_id == caller.user_id)
    if webset_id is not None:
        statement = statement.where(Monitor.webset_id == webset_id)
    rows, next_cursor = await newest_first(
        session,
        codec,
        statement,
        Monitor.id,
        limit=limit,
        cursor=cursor,
        bound_to=binding(kind="monitors", webset=webset_id),
    )
    return [view(m) for m in rows], next_cursor


async def runs(
    session: AsyncSession,
    codec: CursorCodec,
    caller: Caller,
    monitor_id: str,
    *,
    limit: int,
    cursor: str | None,
) -> tuple[list[MonitorRunOut], str | None]:
    """The monitor's runs, newest first, each with its job's status."""
    monitor = await get_owned(session, caller, monitor_id)
    statement = select(MonitorRun).where(MonitorRun.monitor_id == monitor.id)
    rows, next_cursor = await newest_first(
        session,
        codec,
        statement,
        MonitorRun.id,
        limit=limit,
        cursor=cursor,
        bound_to=binding(kind="monitor_runs", monitor=monitor.id),
    )
    job_ids = [r.job_id for r in rows if r.job_id]
    found = await session.execute(select(Job.id, Job.status).where(Job.id.in_(job_ids or [""])))
    statuses: dict[str, str] = {job_id: status for job_id, status in found.all()}
    return [run_view(r, statuses.get(r.job_id or "")) for r in rows], next_cursor


def view(monitor: Monitor) -> MonitorOut:
    return {
        "id": monitor.id,
        "object": "monitor",
        "webset_id": monitor.webset_id,
        "status": monitor.status,
        "pause_reason": monitor.pause_reason if monitor.status == "paused" else None,
        "behavior": monitor.behavior,
        "cadence": {"cron": monitor.cron, "timezone": monitor.timezone},
        "count": monitor.count,
        "metadata": dict(monitor.metadata_),
        "next_run_at": iso(monitor.next_run_at) if monitor.status == "active" else None,
        "last_run_at": iso(monitor.last_run_at),
        "created_at": iso(monitor.created_at),
        "updated_at": iso(monitor.updated_at),
    }


def run_view(run: MonitorRun, job_status: str | None) -> MonitorRunOut:
    return {
        "id": run.id,
        "monitor_id": run.monitor_id,
        "slot_at": iso(run.slot_at),
        "status": "skipped" if run.job_id is None else (job_status or "unknown"),
        "job_id": run.job_id,
        "skipped_code": run.skipped_code,
        "created_at": iso(run.created_at),
    }
