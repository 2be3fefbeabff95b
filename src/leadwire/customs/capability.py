"""The customs capability: trade data from customs records, for paid plans (DESIGN section 8: not on
`free`) — company-name candidates, company search, four company sections and the trade report."""

from __future__ import annotations

from leadwire.customs import jobs
from leadwire.platform.capability import PAID_PLANS, Capability, Feature

CAPABILITY = Capability(
    name="customs",
    scopes=("customs:read", "customs:write"),
    routers=("leadwire.customs.routes",),
    actions=jobs.ACTIONS,
    features=(Feature("customs", PAID_PLANS),),
    mcp_tools="leadwire.customs.mcp",
)
