"""Prefixed ULID identifiers (`job_01h...`): sortable, unguessable, self-describing.

A ULID is a 48-bit millisecond timestamp and 80 random bits, written as 26 characters of Crockford's
base32 (lower case here). It is encoded here, ten bits at a time, rather than through a ULID object:
every request gets an id, and the object's construction cost twice the encoding.
"""

from __future__ import annotations

import os
import time

PREFIXES = frozenset(
    {"usr", "key", "acct", "job", "ws", "item", "crit", "req", "led", "idem", "dlv", "evt", "run"}
)

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base32, lower case
_PAIRS = tuple(a + b for a in _ALPHABET for b in _ALPHABET)  # every 10-bit value as two characters
_SHIFTS = tuple(range(120, -1, -10))  # 13 pairs: 130 bits, the top two always zero


def ulid() -> str:
    value = (time.time_ns() // 1_000_000) << 80 | int.from_bytes(os.urandom(10), "big")
    return "".join([_PAIRS[(value >> shift) & 1023] for shift in _SHIFTS])


def new_id(prefix: str) -> str:
    if prefix not in PREFIXES:
        raise ValueError(f"unknown id prefix {prefix!r}")
    return f"{prefix}_{ulid()}"
