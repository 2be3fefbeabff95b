"""What the accounts capability lets a caller do: read, under its permission (no creations)."""

from __future__ import annotations

from leadwire.platform.callers import Permission

READ = Permission("accounts:read", "read")
