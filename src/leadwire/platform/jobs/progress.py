"""A running job's progress as the database sees it: written in the background, never in the job's
first `QUIET_SECONDS` and at most once per `INTERVAL_SECONDS`, always the latest report.

A small job (a customs section, a search) reports "searching, 10 %" and ends a few milliseconds later:
writing that report would be a write transaction — on SQLite the single writer's lock — that nobody
reads, on the path of a caller waiting for the result. A long job's readers still see its progress
move four times a second. The job's outcome overwrites whatever progress was written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from leadwire.platform.db import is_transient

log = logging.getLogger("leadwire.worker")

QUIET_SECONDS = 0.25
INTERVAL_SECONDS = 0.25

Write = Callable[[str, float, float], Awaitable[None]]


class ProgressWriter:
    """One job's reports, coalesced: `report` returns at once; the latest report is written later."""

    def __init__(self, job_id: str, write: Write, *, quiet: float = QUIET_SECONDS) -> None:
        self.job_id = job_id
        self._write = write
        self._started = asyncio.get_running_loop().time()
        self._quiet = quiet
        self._latest: tuple[str, float, float] | None = None
        self._task: asyncio.Task[None] | None = None

    async def report(self, stage: str, percent: float, pending_units: float) -> None:
        self._latest = (stage, percent, pending_units)
        if self._task is None:
            self._task = asyncio.create_task(self._flush(), name=f"progress-{self.job_id}")

    async def close(self) -> None:
        """The job is over: what was not written yet never will be."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        delay = self._started + self._quiet - loop.time()
        while True:
            await asyncio.sleep(max(0.0, delay))
            latest, self._latest = self._latest, None
            if latest is None:
                self._task = None
                return
            try:
                await self._write(*latest)
            except Exception as exc:  # best effort: a missed report delays progress, never fails the job
                level = logging.WARNING if is_transient(exc) else logging.ERROR
                log.log(level, "progress of job %s not recorded (%s)", self.job_id, type(exc).__name__)
            delay = INTERVAL_SECONDS
