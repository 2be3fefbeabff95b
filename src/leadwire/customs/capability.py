"""The customs capability: trade data for paid plans. Its endpoints and actions arrive with the customs
issue; the plan rule (DESIGN section 8: not on `free`) is declared here already, where it belongs."""

from __future__ import annotations

from leadwire.platform.capability import PAID_PLANS, Capability, Feature

CAPABILITY = Capability(
    name="customs", scopes=("customs:read", "customs:write"), features=(Feature("customs", PAID_PLANS),)
)
