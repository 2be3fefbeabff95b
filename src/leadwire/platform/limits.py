"""Request body size limits per endpoint, enforced while the body streams in (spec section 8)."""

from __future__ import annotations

DEFAULT_BODY_LIMIT = 1 * 1024 * 1024
DISPATCH_BODY_LIMIT = 12 * 1024 * 1024
POST_LIKE_BODY_LIMIT = 32 * 1024

# The limits spec section 8 names; capabilities may register more for their own paths.
_LIMITS: dict[str, int] = {
    "/api/v1/outreach/dispatches": DISPATCH_BODY_LIMIT,
    "/api/v2/outreach/dispatches": DISPATCH_BODY_LIMIT,
    "/api/v1/outreach/linkedin/post-likes": POST_LIKE_BODY_LIMIT,
    "/api/v2/outreach/linkedin/post-likes": POST_LIKE_BODY_LIMIT,
}


def register_body_limit(path: str, max_bytes: int) -> None:
    """A capability declares a non-default limit for one of its exact paths."""
    _LIMITS[path.rstrip("/")] = max_bytes


def body_limit_for(path: str) -> int:
    return _LIMITS.get(path.rstrip("/"), DEFAULT_BODY_LIMIT)
