"""What the jobs endpoints let a caller do: read and cancel the caller's own jobs with any key (the
action's own scope is checked on the job itself), under the polling and the task rate limits."""

from __future__ import annotations

from leadwire.platform.callers import Permission

READ = Permission(None, "poll")
CANCEL = Permission(None, "task")
