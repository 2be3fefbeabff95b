"""The research capability: public-web search and company contacts (contacts need a paid plan)."""

from __future__ import annotations

from leadwire.platform.capability import PAID_PLANS, Capability, Feature
from leadwire.research import jobs, mcp, routes

CAPABILITY = Capability(
    name="research",
    scopes=("research:read", "research:write"),
    routers=(routes.router,),
    actions=(jobs.PUBLIC_WEB_ACTION, jobs.CONTACTS_ACTION),
    features=(Feature("research"), Feature("contacts", PAID_PLANS)),
    mcp_tools=mcp.register_tools,
)
