"""The unified job interface as a capability of its own: read and cancel any job (v2), on every face."""

from __future__ import annotations

from leadwire.platform.capability import Capability
from leadwire.platform.jobs import mcp, routes

CAPABILITY = Capability(name="jobs", routers=(routes.router,), mcp_tools=mcp.register_tools)
