"""Prefixed ULID identifiers (`job_01h...`): sortable, unguessable, self-describing.

A ULID is a 48-bit millisecond timestamp and 80 random bits, written as 26 characters of Crockford's
base32 (lower case here). It is encoded here, ten bits at a time, rather than through a ULID object:
every request gets an id, and the object's construction cost twice the encoding.
"""

from __future__ import annotations

import os
import threading
import time

PREFIXES = frozenset(
    {
        "usr",
        "key",
        "acct",
        "job",
        "ws",
        "item",
        "crit",
        "req",
        "led",
        "idem",
        "dlv",
        "evt",
        "run",
        "blob",
        "wh",
        "whd",
        "imp",
        "enr",
        "mon",
        "mrun",
        "sup",
        "supi",
    }
)

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base32, lower case
_PAIRS = tuple(a + b for a in _ALPHABET for b in _ALPHABET)  # every 10-bit value as two characters
_SHIFTS = tuple(range(120, -1, -10))  # 13 pairs: 130 bits, the top two always zero


# The random bits come from the OS's CSPRNG a few hundred ids at a time: `os.urandom` releases the GIL,
# and where another thread holds it (SQLite's connection thread) the event loop then waits for it back
# on every request. A child process starts with an empty pool, so no two processes share bits.
_POOL_BYTES = 4000
_pool = b""
_taken = 0
_pool_lock = threading.Lock()


def _random_80_bits() -> int:
    global _pool, _taken
    with _pool_lock:
        if _taken + 10 > len(_pool):
            _pool, _taken = os.urandom(_POOL_BYTES), 0
        start, _taken = _taken, _taken + 10
        return int.from_bytes(_pool[start:_taken], "big")


def _forget_pool() -> None:
    # A fork while another thread held the lock (it is held across `os.urandom`) would leave the
    # child's copy locked forever: the child gets a new one.
    global _pool, _taken, _pool_lock
    _pool, _taken, _pool_lock = b"", 0, threading.Lock()


os.register_at_fork(after_in_child=_forget_pool)


def ulid() -> str:
    value = (time.time_ns() // 1_000_000) << 80 | _random_80_bits()
    return "".join([_PAIRS[(value >> shift) & 1023] for shift in _SHIFTS])


def new_id(prefix: str) -> str:
    if prefix not in PREFIXES:
        raise ValueError(f"unknown id prefix {prefix!r}")
    return f"{prefix}_{ulid()}"
