"""The credits capability: the account's balance."""

from __future__ import annotations

from leadwire.credits import mcp, routes
from leadwire.platform.capability import Capability, Feature

CAPABILITY = Capability(
    name="credits",
    scopes=("credits:read",),
    routers=(routes.router,),
    features=(Feature("credits"),),
    mcp_tools=mcp.register_tools,
)
