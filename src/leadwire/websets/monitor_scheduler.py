"""The monitors' scheduler: a worker's background task that starts each due slot's run, once.

Each tick takes the due monitors under a row lock that other schedulers skip (`FOR UPDATE SKIP
LOCKED`; SQLite serialises the whole transaction), and in that one transaction records the slot
(`MonitorRun`, unique per monitor and slot), creates the run's Find More job and moves the monitor to
its next slot. A scheduler killed before the commit leaves the slot due; one killed after it leaves it
done: a slot never runs twice, whatever the number of workers or restarts. Slots missed while no worker
ran are not made up: the latest due one runs, the next is counted from now.

A slot whose run cannot start (the list is still running, the account lacks credits or is at its job
limit) is recorded `skipped` with that code, and the monitor goes on to its next slot.

A run acts with the scopes of the monitor's key. Each tick first pauses the monitors whose key was
revoked or expired (`monitor_keys.pause_orphaned`), and a slot whose key is found dead when it starts
(revoked meanwhile, or its monitor held by another scheduler when the tick paused the rest) is skipped
`api_key_revoked` and its monitor paused: none runs in a dead key's name.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.db import dialect_insert, transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import BackgroundTask
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.platform.users import ApiKey, is_live
from leadwire.websets import monitor_keys, monitors, refresh, service
from leadwire.websets.models import Monitor, MonitorRun
from leadwire.websets.owned import account_caller
from leadwire.websets.schemas import FindMoreRequest

log = logging.getLogger("leadwire.monitors")
TICK_SECONDS = 20.0  # how often due slots are looked for: slots are at least an hour apart
BATCH = 20  # monitors started per transaction


async def run(runtime: Runtime, stopping: asyncio.Event) -> None:
    """The task (`BackgroundTask.run`): a tick, then a pause, until the worker stops."""
    while not stopping.is_set():
        try:
            while await tick(runtime, utcnow()) == BATCH:
                pass  # a full batch: more may be due
        except Exception as exc:  # the database may be away: the next tick tries again
            log.warning("monitor tick failed: %s", exc)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), runtime.settings.monitor_tick_seconds)


async def tick(runtime: Runtime, now: datetime) -> int:
    """Start the runs of the monitors due at `now` (at most `BATCH`); how many were taken."""
    async with transaction(runtime.sessionmaker) as session:
        await monitor_keys.pause_orphaned(session, runtime.notifier, now)
        due = list(
            (
                await session.execute(
                    select(Monitor)
                    .where(Monitor.status == "active", Monitor.next_run_at <= now)
                    .order_by(Monitor.next_run_at)
                    .limit(BATCH)
                    .with_for_update(skip_locked=True)
                )
            ).scalars()
        )
        for monitor in due:
            await _start(session, runtime, monitor, now)
    return len(due)


async def _start(session: AsyncSession, runtime: Runtime, monitor: Monitor, now: datetime) -> None:
    slot = monitor.next_run_at
    # A monitor set before random fields were drawn once keeps its first draw from now on (else a no-op).
    monitor.cron = monitors.resolve_random(monitor.cron)
    monitor.next_run_at = monitors.next_slot(monitor.cron, monitor.timezone, max(now, slot))
    monitor.last_run_at = now
    run_id = new_id("mrun")
    taken = await session.execute(
        dialect_insert(session)(MonitorRun)
        .values(id=run_id, monitor_id=monitor.id, slot_at=slot, created_at=now)
        .on_conflict_do_nothing()
    )
    if not taken.rowcount:  # type: ignore[attr-defined]
        return  # this slot has its run already
    job_id, skipped = None, None
    try:
        async with session.begin_nested():  # a refused start leaves nothing of itself behind
            key = await session.get(ApiKey, monitor.api_key_id)
            if not is_live(key, now):  # revoked, expired or gone since `pause_orphaned` looked
                raise ApiError("api_key_revoked")
            assert key is not None
            caller = monitor_keys.scoped(await account_caller(session, monitor.user_id, key.id), key)
            if monitor.behavior == "refresh":
                job = await refresh.start(session, runtime, caller, monitor.webset_id)
            else:
                body = FindMoreRequest(count=monitor.count)
                job = await service.find_more(session, runtime, caller, body, webset_id=monitor.webset_id)
            job_id = job.id
    except ApiError as refused:
        skipped = refused.code
    if skipped == "api_key_revoked":  # one another scheduler held while this tick paused the rest
        await monitor_keys.pause_dead_key(session, runtime.notifier, monitor, now)
    await session.execute(
        MonitorRun.__table__.update()  # type: ignore[attr-defined]
        .where(MonitorRun.id == run_id)
        .values(job_id=job_id, skipped_code=skipped)
    )


MONITORS_TASK = BackgroundTask("monitors", run)
