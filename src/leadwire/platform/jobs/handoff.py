"""Direct hand-off: a job created in a process whose own worker has a free slot is created already
claimed by that worker, and the worker starts it the moment the creating transaction commits.

Without it a small job a caller waits for (`Prefer: wait`) costs a notification, the worker's wake-up,
its housekeeping and a claim transaction before any work starts. With it the claim is part of the
creation's own transaction: the row is written `running`, leased to the local worker, attempt 1, so
it stays exactly as durable as a claimed job — a process that dies before or while running it loses
the lease, and the job is rescued by any worker like every other job of a lost worker. The claim is
the worker's move written early, not the creation's: the creation answers the job as created
(`queued`, `NewJob.claim` apart), as it would had the worker claimed it a moment after the commit.

A worker offers its free slots here (`offering`) while it runs; a creation takes one (`take`) only
for a single job due now with no channel (paced outreach keeps its own queue order), of an action the
worker runs. The slot is held until the transaction ends: on commit the job starts (`_on_commit`), on
rollback the slot is given back. Workers are keyed by the engine they write through, so two runtimes
in one process (tests) never hand jobs to each other's worker.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session as SyncSession

from leadwire.platform.jobs import states

_PENDING_KEY = "leadwire_handed_off_jobs"


@dataclass(frozen=True, slots=True)
class ClaimedJob:
    """What a worker reads of a job it runs (`queue.CLAIMED`), for a job claimed at its creation."""

    id: str
    user_id: str
    action: str
    payload: dict[str, Any]
    request_id: str | None
    attempt_count: int
    billing_status: str
    blob_bytes: int
    hold: dict[str, Any] | None = None
    scheduled_at: datetime | None = None


class LocalWorker(Protocol):
    owner: str

    @property
    def lease_seconds(self) -> float: ...

    def reserve_slot(self, action: str) -> bool:
        """A free slot held for a job of `action` about to be created, or False (none free, or the
        worker does not run that action, or it is stopping)."""

    def release_slot(self) -> None:
        """The held slot is not used after all (the creating transaction rolled back)."""

    def start_claimed(self, job: ClaimedJob) -> None:
        """Run `job`, claimed for this worker by its creation, in the held slot."""


_workers: weakref.WeakKeyDictionary[Any, LocalWorker] = weakref.WeakKeyDictionary()


@contextmanager
def offering(engine: Any, worker: LocalWorker) -> Iterator[None]:
    """`worker` takes jobs created through `engine` (the sync engine of the runtime's sessionmaker)
    for as long as the block runs."""
    _workers[engine] = worker
    try:
        yield
    finally:
        if _workers.get(engine) is worker:
            del _workers[engine]


@dataclass(frozen=True, slots=True)
class Taken:
    worker: LocalWorker
    now: datetime

    def claimed_columns(self) -> dict[str, Any]:
        """The job row's columns as a claim by this worker would have left them."""
        expires = self.now + timedelta(seconds=self.worker.lease_seconds)
        return states.claimed(
            now=self.now, owner=self.worker.owner, expires=expires, attempt_count=1, started_at=self.now
        )


def take(session: AsyncSession, action: str, now: datetime) -> Taken | None:
    """A slot of the local worker for one job of `action` created in `session`, or None."""
    bind = session.bind
    worker = _workers.get(getattr(bind, "sync_engine", bind))
    if worker is None or not worker.reserve_slot(action):
        return None
    session.sync_session.info.setdefault(_PENDING_KEY, []).append((worker, None))
    return Taken(worker, now)


def start_on_commit(session: AsyncSession, taken: Taken, job: ClaimedJob) -> None:
    """Once `session` commits, `taken`'s worker runs `job`."""
    pending: list[tuple[LocalWorker, ClaimedJob | None]] = session.sync_session.info[_PENDING_KEY]
    for i, (worker, held) in enumerate(pending):
        if worker is taken.worker and held is None:
            pending[i] = (worker, job)
            return
    raise LookupError("no slot taken for this job")


def _ended(session: SyncSession, run: Callable[[LocalWorker, ClaimedJob], None]) -> None:
    for worker, job in session.info.pop(_PENDING_KEY, ()):
        if job is None:
            worker.release_slot()
        else:
            run(worker, job)


@event.listens_for(SyncSession, "after_commit")
def _on_commit(session: SyncSession) -> None:
    _ended(session, lambda worker, job: worker.start_claimed(job))


@event.listens_for(SyncSession, "after_rollback")
def _on_rollback(session: SyncSession) -> None:
    _ended(session, lambda worker, _job: worker.release_slot())
