"""What a job handler sees: its payload, progress reporting, metered units and the runtime."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.platform.db import is_transient, transaction
from leadwire.platform.jobs import queue
from leadwire.platform.runtime import Runtime

log = logging.getLogger("leadwire.worker")


class JobFailure(Exception):
    """Raised by a handler to fail its job with a stable `error.code`."""

    def __init__(self, code: str, detail: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


@dataclass
class JobContext:
    runtime: Runtime
    job_id: str
    action: str
    user_id: str
    attempt: int
    owner: str
    units: float = field(default=0.0)

    @property
    def sessionmaker(self) -> async_sessionmaker[AsyncSession]:
        return self.runtime.sessionmaker

    def service(self, name: str) -> Any:
        return self.runtime.services[name]

    def bill(self, units: float) -> None:
        """Count billable units produced so far; charged once at settlement."""
        self.units += units

    async def progress(self, stage: str, percent: float) -> None:
        """Best effort: a database that fails for a moment delays the report, never fails the job."""
        try:
            async with transaction(self.sessionmaker) as session:
                await queue.report_progress(
                    session,
                    job_id=self.job_id,
                    owner=self.owner,
                    stage=stage,
                    percent=percent,
                    pending_units=self.units,
                )
        except Exception as exc:
            if not is_transient(exc):
                raise
            log.warning(
                "progress of job %s not recorded: database unavailable (%s)", self.job_id, type(exc).__name__
            )
