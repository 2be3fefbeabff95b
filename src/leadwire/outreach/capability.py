"""The outreach capability: one-off sends through connected accounts (LinkedIn post likes are the
engagement capability's). Spec section 8 sets the dispatch body limit."""

from __future__ import annotations

from leadwire.outreach import jobs
from leadwire.platform.capability import Capability, Feature

DISPATCH_BODY_LIMIT = 12 * 1024 * 1024

CAPABILITY = Capability(
    name="outreach",
    scopes=("outreach:read", "outreach:write"),
    routers=("leadwire.outreach.routes",),
    actions=(jobs.DISPATCH_ACTION,),
    mcp_tools="leadwire.outreach.mcp",
    features=(Feature("outreach"),),
    body_limits={
        "/api/v1/outreach/dispatches": DISPATCH_BODY_LIMIT,
        "/api/v2/outreach/dispatches": DISPATCH_BODY_LIMIT,
    },
)
