"""The credits capability: the account's balance and its ledger."""

from __future__ import annotations

from leadwire.platform.capability import Capability, Feature

CAPABILITY = Capability(
    name="credits",
    scopes=("credits:read",),
    routers=("leadwire.credits.routes",),
    features=(Feature("credits"),),
    mcp_tools="leadwire.credits.mcp",
)
