"""The connected-accounts capability: listing the accounts outreach sends through."""

from __future__ import annotations

from leadwire.accounts import mcp, routes
from leadwire.platform.capability import Capability, Feature

CAPABILITY = Capability(
    name="accounts",
    scopes=("accounts:read",),
    routers=(routes.router,),
    features=(Feature("accounts"),),
    mcp_tools=mcp.register_tools,
)
