"""The websets capability: prospect lists built from a natural-language query (spec sections 2-4)."""

from __future__ import annotations

from leadwire.platform.capability import Capability, Feature
from leadwire.websets import jobs

CAPABILITY = Capability(
    name="websets",
    scopes=("websets:read", "websets:write"),
    routers=("leadwire.websets.routes",),
    actions=(jobs.PREPARE_ACTION, jobs.DISCOVER_ACTION, jobs.FIND_MORE_ACTION),
    features=(Feature("websets"),),
    mcp_tools="leadwire.websets.mcp",
)
