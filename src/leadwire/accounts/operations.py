"""What the accounts capability lets a caller do: read the accounts and their sending policies; change
a policy (no creations)."""

from __future__ import annotations

from leadwire.platform.callers import Permission

READ = Permission("accounts:read", "read")
WRITE = Permission("accounts:write", "read")
