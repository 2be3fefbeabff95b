"""The research capability: public-web search and company contacts (contacts need a paid plan)."""

from __future__ import annotations

from leadwire.platform.capability import PAID_PLANS, Capability, Feature
from leadwire.research import jobs

CAPABILITY = Capability(
    name="research",
    scopes=("research:read", "research:write"),
    routers=("leadwire.research.routes",),
    actions=(jobs.PUBLIC_WEB_ACTION, jobs.CONTACTS_ACTION),
    features=(Feature("research"), Feature("contacts", PAID_PLANS)),
    mcp_tools="leadwire.research.mcp",
)
