"""How a worker meets database failures: the back-off between retries of a step, the count of each
job's failed runs (the back-off and the cap of handing it back), and the log line of a failed step."""

from __future__ import annotations

import collections
import logging

from leadwire.platform.db import is_lost_race, is_transient

log = logging.getLogger("leadwire.worker")
RETRY_MAX_SECONDS = 2.0


def next_delay(delay: float) -> float:
    return min(RETRY_MAX_SECONDS, delay * 2)


class FailureCounts:
    """How often each job's run met a database failure on this worker: the back-off and the cap of
    handing it back. Bounded: the oldest jobs are forgotten first (another worker may have them)."""

    LIMIT = 1024

    def __init__(self) -> None:
        self._counts: collections.OrderedDict[str, int] = collections.OrderedDict()

    def count(self, job_id: str) -> int:
        """Record one more failure of `job_id`; how many this worker has now seen."""
        seen = self._counts.pop(job_id, 0) + 1
        self._counts[job_id] = seen
        if len(self._counts) > self.LIMIT:
            self._counts.popitem(last=False)
        return seen


def log_step_failure(step: str, exc: Exception) -> None:
    if is_lost_race(exc):
        log.warning("%s: lost a lock race (deadlock or serialization failure); retrying", step)
    elif is_transient(exc):
        log.warning("%s: database unavailable (%s); retrying", step, type(exc).__name__)
    else:
        log.error("%s failed", step, exc_info=exc)
