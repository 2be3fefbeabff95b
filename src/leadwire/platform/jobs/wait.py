"""`Prefer: wait=N` (RFC 7240): parse the preference and wait for a job to reach a terminal state."""

from __future__ import annotations

import asyncio

from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.states import TERMINAL
from leadwire.platform.notify import JOB_CHANNEL
from leadwire.platform.runtime import Runtime

# A safety net for lost notifications (or a worker in another process on SQLite); waiters are
# normally woken by the notification long before this.
RECHECK_SECONDS = 1.0


def parse_prefer_wait(header: str | None) -> int | None:
    """The `wait` preference in seconds, or None when absent or malformed (which RFC 7240 ignores)."""
    if not header:
        return None
    for preference in header.split(","):
        token = preference.split(";")[0].strip()
        name, sep, value = token.partition("=")
        if name.strip().lower() != "wait" or not sep:
            continue
        value = value.strip().strip('"')
        # ASCII digits only (RFC 7240 delta-seconds): str.isdigit() also accepts "²" or "١", which int()
        # then refuses or reads as another number.
        if value.isascii() and value.isdigit() and len(value) <= 6:
            return int(value)
        return None
    return None


async def _read(runtime: Runtime, job_id: str) -> Job | None:
    async with transaction(runtime.reader) as session:
        return await session.get(Job, job_id)


async def wait_for_terminal(runtime: Runtime, job_id: str, seconds: float) -> Job | None:
    """The job once terminal within `seconds`, else None. Subscribes before reading: no lost wake-up."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    with runtime.notifier.hub.subscribe(JOB_CHANNEL, job_id) as subscription:
        while True:
            job = await _read(runtime, job_id)
            if job is not None and job.status in TERMINAL:
                return job
            remaining = deadline - loop.time()
            if remaining <= 0:
                return None
            await subscription.wait(min(remaining, RECHECK_SECONDS))
