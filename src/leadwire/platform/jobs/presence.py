"""Which workers are alive, as the database knows it, and what happens to the jobs of one that died.

Every worker writes a `worker_presence` row when it starts and beats it every `BEAT_SECONDS`; a clean
stop deletes it. A worker is counted alive while its last beat is younger than `STALE_AFTER_BEATS`
beats. An API process cannot see workers on other machines, so `/readyz` (degraded with no worker
alive) and the `leadwire_workers_alive` gauge read these rows.

A supervisor that saw a worker process die (`leadwire cluster`) calls `release_dead_process`: the
leases of that process's jobs expire at once, so the next rescue sweep of any worker (within its poll
tick) runs them again, with their attempts counted as for any lost worker, instead of after a full
lease. Without a supervisor a dead worker's jobs are rescued when their lease expires.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.db import dialect_insert
from leadwire.platform.ids import new_id
from leadwire.platform.jobs.models import Job, WorkerPresence
from leadwire.platform.jobs.states import UNDER_WAY
from leadwire.platform.time import utcnow

BEAT_SECONDS = 5.0
STALE_AFTER_BEATS = 3
# Dead rows (a worker killed with no supervisor to clean up) are dropped after this.
FORGET_AFTER = timedelta(days=1)
# The owner id is stored in 64 characters: the host part is cut so a long pod name still fits.
_HOST_CHARS = 40


def owner_prefix(pid: int, host: str | None = None) -> str:
    """What every lease owner id of process `pid` on `host` (this machine by default) starts with."""
    return f"{(host or socket.gethostname())[:_HOST_CHARS]}:{pid}:"


def new_owner() -> str:
    """A lease owner id for a worker of this process: its host and pid, and a part of its own."""
    return owner_prefix(os.getpid()) + new_id("job")[-8:]


@dataclass(frozen=True, slots=True)
class Alive:
    workers: int
    last_beat_at: datetime | None


async def beat(session: AsyncSession, *, owner: str, concurrency: int, running: int) -> None:
    """This worker is alive now, running `running` jobs of `concurrency`."""
    now = utcnow()
    host, pid, _ = owner.split(":", 2)
    insert = dialect_insert(session)(WorkerPresence).values(
        owner=owner,
        host=host,
        pid=int(pid),
        concurrency=concurrency,
        running=running,
        started_at=now,
        beat_at=now,
    )
    await session.execute(
        insert.on_conflict_do_update(
            index_elements=[WorkerPresence.owner], set_={"running": running, "beat_at": now}
        )
    )


async def leave(session: AsyncSession, *, owner: str) -> None:
    """This worker stops: it is no longer counted."""
    await session.execute(delete(WorkerPresence).where(WorkerPresence.owner == owner))


async def alive(session: AsyncSession, *, beat_seconds: float = BEAT_SECONDS) -> Alive:
    """The workers whose last beat is recent enough to count as alive."""
    cutoff = utcnow() - timedelta(seconds=beat_seconds * STALE_AFTER_BEATS)
    count, last = (
        await session.execute(
            select(func.count(), func.max(WorkerPresence.beat_at)).where(WorkerPresence.beat_at >= cutoff)
        )
    ).one()
    return Alive(workers=int(count), last_beat_at=last)


async def forget_stale(session: AsyncSession) -> int:
    """Drop the rows of workers that stopped beating long ago (killed with no one to clean up)."""
    result = await session.execute(
        delete(WorkerPresence).where(WorkerPresence.beat_at < utcnow() - FORGET_AFTER)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


async def release_dead_process(session: AsyncSession, *, pid: int, host: str | None = None) -> int:
    """Process `pid` died (its supervisor saw it exit): its jobs' leases expire now and its presence
    rows go. The number of jobs whose lease was cut short."""
    prefix = owner_prefix(pid, host)
    now = utcnow()
    result = await session.execute(
        update(Job)
        .where(
            Job.status.in_(UNDER_WAY),
            Job.lease_owner.startswith(prefix, autoescape=True),
            Job.lease_expires_at > now,
        )
        .values(lease_expires_at=now - timedelta(seconds=1))
        .execution_options(synchronize_session=False)
    )
    await session.execute(
        delete(WorkerPresence).where(WorkerPresence.owner.startswith(prefix, autoescape=True))
    )
    return int(result.rowcount)  # type: ignore[attr-defined]
