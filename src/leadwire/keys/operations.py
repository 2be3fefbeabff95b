"""What the keys capability lets a caller do, under its permissions (no job creations): read the
account's keys, and create or revoke them, counted as reads by the rate limits (no work follows)."""

from __future__ import annotations

from leadwire.platform.callers import Permission

READ = Permission("keys:read", "read")
WRITE = Permission("keys:write", "read")
