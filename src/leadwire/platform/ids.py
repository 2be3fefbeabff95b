"""Prefixed ULID identifiers (`job_01H...`): sortable, unguessable, self-describing."""

from __future__ import annotations

from ulid import ULID

PREFIXES = frozenset(
    {"usr", "key", "acct", "job", "ws", "item", "crit", "req", "led", "idem", "dlv", "evt", "run"}
)


def new_id(prefix: str) -> str:
    if prefix not in PREFIXES:
        raise ValueError(f"unknown id prefix {prefix!r}")
    return f"{prefix}_{str(ULID()).lower()}"
