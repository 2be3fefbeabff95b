"""`Prefer: wait=N` (RFC 7240): parse the preference and wait for a job to reach a terminal state."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

from leadwire.platform.jobs.models import JobLike
from leadwire.platform.jobs.states import TERMINAL
from leadwire.platform.jobs.views import PUBLIC_JOB_READ
from leadwire.platform.notify import JOB_CHANNEL, Subscription
from leadwire.platform.runtime import Runtime
from leadwire.platform.validation import whole_number

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
        return whole_number(value.strip().strip('"'), high=999_999)  # RFC 7240 delta-seconds
    return None


async def _read(runtime: Runtime, job_id: str) -> JobLike | None:
    """The job's public columns, read on the driver (`platform.driver_read`): the waiter's re-read is
    on the path of every `Prefer: wait`."""
    row: JobLike | None = await runtime.driver_reads.first(PUBLIC_JOB_READ, {"job_id": job_id})
    return row


class Waiter:
    """A wait for one job's end whose subscription is already open (`waiting_for`)."""

    def __init__(self, runtime: Runtime, job_id: str, subscription: Subscription) -> None:
        self.runtime = runtime
        self.job_id = job_id
        self._subscription = subscription

    async def terminal(self, seconds: float, *, pending_now: bool = False) -> JobLike | None:
        """The job once terminal within `seconds`, else None. `pending_now`: the caller knows the job
        has not ended yet (it subscribed before committing the job's creation), which saves a read."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        look = not pending_now
        while True:
            if look:
                job = await _read(self.runtime, self.job_id)
                if job is not None and job.status in TERMINAL:
                    return job
            look = True
            remaining = deadline - loop.time()
            if remaining <= 0:
                return None
            await self._subscription.wait(min(remaining, RECHECK_SECONDS))


@contextlib.contextmanager
def waiting_for(runtime: Runtime, job_id: str) -> Iterator[Waiter]:
    """Subscribe to `job_id`'s end; open it before the change that could end the job commits, and no
    wake-up is lost."""
    with runtime.notifier.hub.subscribe(JOB_CHANNEL, job_id) as subscription:
        yield Waiter(runtime, job_id, subscription)


async def wait_for_terminal(runtime: Runtime, job_id: str, seconds: float) -> JobLike | None:
    """The job once terminal within `seconds`, else None. Subscribes before reading: no lost wake-up."""
    with waiting_for(runtime, job_id) as waiter:
        return await waiter.terminal(seconds)
