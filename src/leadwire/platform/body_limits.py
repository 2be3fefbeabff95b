"""Request body size limits per endpoint, enforced while the body streams in (docs/api.md, Limits)."""

from __future__ import annotations

DEFAULT_BODY_LIMIT = 1 * 1024 * 1024

# Paths with another limit, declared by their capabilities (`Capability.body_limits`).
_LIMITS: dict[str, int] = {}


def register_body_limit(path: str, max_bytes: int) -> None:
    """A capability declares a non-default limit for one of its exact paths."""
    _LIMITS[path.rstrip("/")] = max_bytes


def body_limit_for(path: str) -> int:
    return _LIMITS.get(path.rstrip("/"), DEFAULT_BODY_LIMIT)


def size_text(size: int) -> str:
    """A byte count as people read limits: `1 MiB (1048576 bytes)`, `32 KiB (32768 bytes)`."""
    for unit, factor in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit} ({size} bytes)"
    return f"{size} bytes"
