"""HTTP of the engagement capability: LinkedIn post likes, v2 and v1 (docs/api.md, LinkedIn post
like)."""

from __future__ import annotations

from fastapi import APIRouter

from leadwire.engagement.operations import POST_LIKE, POST_LIKE_V1
from leadwire.platform.http import add_creation_route

router = APIRouter(tags=["engagement"])
add_creation_route(router, "/api/v2/outreach/linkedin/post-likes", POST_LIKE)
add_creation_route(router, "/api/v1/outreach/linkedin/post-likes", POST_LIKE_V1, version="v1")
