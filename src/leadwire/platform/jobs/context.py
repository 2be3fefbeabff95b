"""What a job handler sees: its payload, progress reporting, metered units and the runtime.

The runner gives the context how to record progress (`report`), so this module knows nothing of the
queue."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.platform.billing.prices import DEFAULT_KIND
from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import JobBlob
from leadwire.platform.runtime import Runtime

ProgressReport = Callable[[str, float, float], Awaitable[None]]


class JobFailure(Exception):
    """Raised by a handler to fail its job with a stable `error.code`."""

    def __init__(self, code: str, detail: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


class JobHeld(Exception):
    """Raised by a handler that must not act yet (its sending account is paused): the job goes back to
    the queue, due at `until`, with `hold` (`{reason, until}`, or None: it only waits its turn) shown on
    it, and its attempt given back."""

    def __init__(self, until: datetime, hold: dict[str, Any] | None) -> None:
        super().__init__((hold or {}).get("reason", "queued"))
        self.until = until
        self.hold = hold


@dataclass
class JobContext:
    runtime: Runtime
    job_id: str
    action: str
    user_id: str
    attempt: int
    owner: str
    # Takes (stage, percent, pending units) for this job (`progress.ProgressWriter.report`).
    report: ProgressReport | None = None
    # The job's `hold` as it was claimed: why it waited last time (a paused account), or None.
    hold: dict[str, Any] | None = None
    # When the job was due: a send far past it (the workers were down) is placed again (`pausing`).
    scheduled_at: datetime | None = None
    units_by_kind: dict[str, float] = field(default_factory=dict)

    @property
    def sessionmaker(self) -> async_sessionmaker[AsyncSession]:
        return self.runtime.sessionmaker

    def adapter(self, name: str) -> Any:
        return self.runtime.adapters[name]

    async def blob(self, blob_id: str) -> bytes:
        """A blob this job was created with (`service.create_job(blobs=...)`); the job's own only."""
        async with transaction(self.sessionmaker) as session:
            content = await session.scalar(
                select(JobBlob.content).where(JobBlob.id == blob_id, JobBlob.job_id == self.job_id)
            )
        if content is None:
            raise JobFailure("handler_error", f"blob {blob_id} of job {self.job_id} is gone")
        return bytes(content)

    def bill(self, units: float, kind: str = DEFAULT_KIND) -> None:
        """Count billable units of a kind produced so far; charged once, all kinds together, at the end."""
        self.units_by_kind[kind] = self.units_by_kind.get(kind, 0.0) + units

    @property
    def units(self) -> float:
        """All units billed so far, whatever their kind (the job's `billing.pending_units`)."""
        return sum(self.units_by_kind.values())

    async def progress(self, stage: str, percent: float) -> None:
        """Returns at once: the runner's `ProgressWriter` writes the latest report later, and a failed
        write never fails the job."""
        if self.report is not None:
            await self.report(stage, percent, self.units)
