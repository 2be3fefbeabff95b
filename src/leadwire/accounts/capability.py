"""The connected-accounts capability: listing the accounts outreach sends through."""

from __future__ import annotations

from leadwire.platform.capability import Capability, Feature

CAPABILITY = Capability(
    name="accounts",
    scopes=("accounts:read",),
    routers=("leadwire.accounts.routes",),
    features=(Feature("accounts"),),
    mcp_tools="leadwire.accounts.mcp",
)
