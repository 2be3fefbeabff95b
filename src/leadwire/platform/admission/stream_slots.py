"""Long-lived streams, owned and counted: each open stream holds a slot of its key and of its account,
bounded per key and per account (`events.sse.owned_stream` takes and gives back the slot, and ends the
stream when its key stops authenticating).

The next stream past a bound is refused with 429 before it opens (`api_key_rate_limit_exceeded` for the
key's bound, `api_rate_limit_exceeded` for the account's). The counts are this process's: behind N API
processes an account may hold N times the bound, as a rate limit without Redis would allow.

When the last stream of a burst of at least `trim_after` ends (0, the default: never), the process
collects the burst's garbage a second later and gives glibc's free pages back to the system
(`platform.heap.trim`, in a thread). After a storm of 1,000 streams (docs/benchmarks.md, "Memory after a
stream storm") the storm's own objects are all freed; what stays is the allocators' high-water mark.
With Python's own allocator (the default) most of it sits in pymalloc arenas that one surviving small
object keeps, which no trim reaches (10 of 66 MB given back); with `PYTHONMALLOC=malloc` the trim
gives back ~57 of them. Off by default: the mark does not grow storm over storm.
"""

from __future__ import annotations

import asyncio
import gc
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from leadwire.platform import heap
from leadwire.platform.errors import ApiError

if TYPE_CHECKING:
    from leadwire.platform.callers import Caller

RETRY_SECONDS = 15  # a stream that ends frees its slot: a heartbeat's time is a fair wait
TRIM_DELAY_SECONDS = 1.0  # after a burst's last stream, the time its connections take to be freed


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
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop (a test's direct call): trim here
                heap.collect_and_trim()
                return
            # Later, not now: the last streams' own objects are still alive while they give back
            # their slots. The collection runs in the loop's thread, the trim in the executor.
            loop.call_later(TRIM_DELAY_SECONDS, _collect_then_trim, loop)

    def open_streams(self) -> int:
        return self.open


def _collect_then_trim(loop: asyncio.AbstractEventLoop) -> None:
    gc.collect()
    loop.run_in_executor(None, heap.trim)
