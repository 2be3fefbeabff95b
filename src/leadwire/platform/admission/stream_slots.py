"""Long-lived streams, owned and counted: each open stream holds a slot of its key and of its account,
bounded per key and per account (`events.sse.owned_stream` takes and gives back the slot, and ends the
stream when its key stops authenticating).

The next stream past a bound is refused with 429 before it opens (`api_key_rate_limit_exceeded` for the
key's bound, `api_rate_limit_exceeded` for the account's). The counts are this process's: behind N API
processes an account may hold N times the bound, as a rate limit without Redis would allow.

When the last stream of a burst of at least `trim_after` ends (0, the default: never), the process gives
glibc's free pages back to the system (`platform.heap.trim`, in a thread). Measured after a storm of
1,000 streams it returned 5 MB of the 66 the storm left (docs/benchmarks.md, "Memory after a stream
storm"): what stays is Python's own, so it is off unless an operator's allocator says otherwise.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from leadwire.platform import heap
from leadwire.platform.errors import ApiError

if TYPE_CHECKING:
    from leadwire.platform.callers import Caller

RETRY_SECONDS = 15  # a stream that ends frees its slot: a heartbeat's time is a fair wait


class StreamSlots:
    def __init__(self, per_key: int, per_account: int, *, trim_after: int = 0) -> None:
        self.per_key = per_key
        self.per_account = per_account
        self.by_key: Counter[str] = Counter()
        self.by_account: Counter[str] = Counter()
        self.trim_after = trim_after  # 0: never trim
        self.open = 0
        self.peak = 0  # the most streams open at once since the last trim
        self.trims = 0

    def take(self, caller: Caller) -> None:
        """Hold a slot for a new stream of this caller, or raise the 429 that says which bound it met."""
        retry = {"Retry-After": str(RETRY_SECONDS)}
        if self.by_key[caller.key_id] >= self.per_key:
            raise ApiError(
                "api_key_rate_limit_exceeded",
                detail=f"this key already holds {self.per_key} open streams: close one first",
                headers=retry,
            )
        if self.by_account[caller.user_id] >= self.per_account:
            raise ApiError(
                "api_rate_limit_exceeded",
                detail=f"this account already holds {self.per_account} open streams: close one first",
                headers=retry,
            )
        self.by_key[caller.key_id] += 1
        self.by_account[caller.user_id] += 1
        self.open += 1
        self.peak = max(self.peak, self.open)

    def hold(self, caller: Caller) -> Callable[[], None]:
        """Take a slot (or raise the 429) and return what gives it back: once, however often called."""
        self.take(caller)
        held = True

        def give_back() -> None:
            nonlocal held
            if held:
                held = False
                self.give_back(caller)

        return give_back

    def give_back(self, caller: Caller) -> None:
        for counts, name in ((self.by_key, caller.key_id), (self.by_account, caller.user_id)):
            counts[name] -= 1
            if counts[name] <= 0:
                del counts[name]
        self.open -= 1
        if self.open == 0 and self.trim_after and self.peak >= self.trim_after:
            self.peak = 0
            self.trims += 1
            try:
                asyncio.get_running_loop().run_in_executor(None, heap.trim)
            except RuntimeError:  # no loop (a test's direct call): trim here
                heap.trim()

    def open_streams(self) -> int:
        return self.open
