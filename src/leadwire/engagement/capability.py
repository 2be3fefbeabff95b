"""The engagement capability: liking a relevant recent LinkedIn post of a prospect (v1, v2, MCP).
Spec section 8 limits its request bodies to 32 KB."""

from __future__ import annotations

from leadwire.engagement import jobs
from leadwire.platform.capability import Capability, Feature

POST_LIKE_BODY_LIMIT = 32 * 1024

CAPABILITY = Capability(
    name="engagement",
    scopes=("engagement:read", "engagement:write"),
    routers=("leadwire.engagement.routes",),
    actions=(jobs.POST_LIKE_ACTION,),
    features=(Feature("engagement"),),
    body_limits={
        "/api/v1/outreach/linkedin/post-likes": POST_LIKE_BODY_LIMIT,
        "/api/v2/outreach/linkedin/post-likes": POST_LIKE_BODY_LIMIT,
    },
    mcp_tools="leadwire.engagement.mcp",
)
