"""The unified job interface as a capability of its own: read and cancel any job (v2), on every face."""

from __future__ import annotations

from leadwire.platform.capability import Capability

CAPABILITY = Capability(name="jobs", routers=("leadwire.jobs.routes",), mcp_tools="leadwire.jobs.mcp")
