"""Request body size limits per endpoint, enforced while the body streams in (spec section 8)."""

from __future__ import annotations

DEFAULT_BODY_LIMIT = 1 * 1024 * 1024

# Paths with another limit, declared by their capabilities (`Capability.body_limits`).
_LIMITS: dict[str, int] = {}


def register_body_limit(path: str, max_bytes: int) -> None:
    """A capability declares a non-default limit for one of its exact paths."""
    _LIMITS[path.rstrip("/")] = max_bytes


def body_limit_for(path: str) -> int:
    return _LIMITS.get(path.rstrip("/"), DEFAULT_BODY_LIMIT)
