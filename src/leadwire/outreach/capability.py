"""The outreach capability: one-off sends through connected accounts, and LinkedIn post likes
(engagement). Spec section 8 sets their request body limits."""

from __future__ import annotations

from leadwire.outreach import jobs, mcp, routes
from leadwire.outreach.schemas import DISPATCH_BODY_LIMIT
from leadwire.platform.capability import Capability, Feature

POST_LIKE_BODY_LIMIT = 32 * 1024

CAPABILITY = Capability(
    name="outreach",
    scopes=("outreach:read", "outreach:write", "engagement:read", "engagement:write"),
    routers=(routes.router,),
    actions=(jobs.DISPATCH_ACTION,),
    mcp_tools=mcp.register_tools,
    features=(Feature("outreach"), Feature("engagement")),
    body_limits={
        "/api/v1/outreach/dispatches": DISPATCH_BODY_LIMIT,
        "/api/v2/outreach/dispatches": DISPATCH_BODY_LIMIT,
        "/api/v1/outreach/linkedin/post-likes": POST_LIKE_BODY_LIMIT,
        "/api/v2/outreach/linkedin/post-likes": POST_LIKE_BODY_LIMIT,
    },
)
