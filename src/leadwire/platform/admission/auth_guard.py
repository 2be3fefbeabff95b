"""What keeps failed authentication cheap and limited: keys known not to exist, and failures counted per
client address.

A request with an unknown key costs a database read; a flood of random well-formed keys would cost one
each. The guard remembers the digests that found no key (a key issued later is a new random digest
nobody could have tried), and counts each address's failed attempts in a one-minute window: past the
limit, that address's requests with keys this process does not already hold are refused with 429 before
any read. Both live in the process (each API process counts its own share) and are bounded in entries.
"""

from __future__ import annotations

import math
import time

_ENTRIES = 10_000  # per table: a flood of distinct keys or addresses clears it, never grows it


class AuthGuard:
    def __init__(self, failures_per_minute: int, miss_seconds: float) -> None:
        self.failures_per_minute = failures_per_minute
        self.miss_seconds = miss_seconds
        self._misses: dict[str, float] = {}  # digest -> monotonic time it stops counting as a miss
        self._windows: dict[str, tuple[float, int]] = {}  # address -> (window start, failures in it)

    def known_miss(self, digest: str) -> bool:
        until = self._misses.get(digest)
        return until is not None and time.monotonic() < until

    def remember_miss(self, digest: str) -> None:
        if self.miss_seconds <= 0:
            return
        if len(self._misses) >= _ENTRIES:
            self._misses.clear()
        self._misses[digest] = time.monotonic() + self.miss_seconds

    def failed(self, address: str | None) -> None:
        if not address or self.failures_per_minute <= 0:
            return
        now = time.monotonic()
        start, count = self._windows.get(address, (now, 0))
        if now - start >= 60.0:
            start, count = now, 0
        if address not in self._windows and len(self._windows) >= _ENTRIES:
            self._windows.clear()
        self._windows[address] = (start, count + 1)

    def retry_after(self, address: str | None) -> int | None:
        """Seconds until this address may try again, or None when it is within its limit."""
        if not address or self.failures_per_minute <= 0:
            return None
        start, count = self._windows.get(address, (0.0, 0))
        left = 60.0 - (time.monotonic() - start)
        if count < self.failures_per_minute or left <= 0:
            return None
        return max(1, math.ceil(left))
