"""What the webhooks capability lets a caller do, under its permissions (no job creations)."""

from __future__ import annotations

from leadwire.platform.callers import Permission

READ = Permission("webhooks:read", "read")
WRITE = Permission("webhooks:write", "read")
# Sending a delivery again makes an outbound request to the receiver: counted with the creations.
RETRY = Permission("webhooks:write", "task")
