"""Account-wide and per-key request rate limits per request class, in memory or in Redis.

Fixed windows aligned to the clock (`window_index = now // window`), counted with one INCR per limit on
a `limits` storage (memory in one process, Redis when scaled out): the per-key counter is keyed by the
key id, the per-account counter by the user id, so every key of an account, v1, v2 and MCP share the
account budget. Aligned windows need no expiry lookup to know when a window resets.

A Redis outage never fails a request: every Redis call is bounded by `redis_timeout_seconds`, and when
one fails the limits are counted in this process's memory (each process then enforces the limits on its
own) for `redis_retry_seconds` before Redis is tried again. The outage is logged once, counted in
`leadwire_ratelimit_fallback_total`, and `/readyz` reports `degraded` while it lasts.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from limits.aio.storage import Storage
from limits.storage import storage_from_string
from prometheus_client import Counter, Gauge

from leadwire.platform.errors import ApiError
from leadwire.platform.plans import Plan

if TYPE_CHECKING:
    from leadwire.config import Settings

log = logging.getLogger("leadwire.ratelimit")

FALLBACKS = Counter(
    "leadwire_ratelimit_fallback_total", "Rate-limit checks counted in process memory because Redis failed"
)
SHARED_UP = Gauge("leadwire_ratelimit_shared_store_up", "1 while the shared (Redis) rate-limit store answers")


@dataclass(frozen=True)
class RateDecision:
    headers: dict[str, str]


class Counters(Protocol):
    """What the limiter asks of a counter store: `limits`' Redis storage, or `ProcessCounters`."""

    async def incr(self, key: str, expiry: int) -> int: ...

    async def get(self, key: str) -> int: ...


class ProcessCounters:
    """Counters in this process's memory, each living `expiry` seconds from its first increment.

    A plain dict: single-threaded asyncio needs no lock, and a sweep every `SWEEP_SECONDS` drops the
    counters of ended windows. (`limits`' memory storage, used before, took a lock and kept expiry
    bookkeeping per call: the largest share of the job poll's limiter time.)"""

    SWEEP_SECONDS = 10.0

    def __init__(self) -> None:
        self._counts: dict[str, tuple[float, int]] = {}
        self._next_sweep = 0.0

    async def incr(self, key: str, expiry: int) -> int:
        now = time.monotonic()
        if now >= self._next_sweep:
            self._counts = {k: entry for k, entry in self._counts.items() if entry[0] > now}
            self._next_sweep = now + self.SWEEP_SECONDS
        expires, count = self._counts.get(key, (0.0, 0))
        if expires <= now:
            expires, count = now + expiry, 0
        self._counts[key] = (expires, count + 1)
        return count + 1

    async def get(self, key: str) -> int:
        expires, count = self._counts.get(key, (0.0, 0))
        return count if expires > time.monotonic() else 0

    def __len__(self) -> int:
        return len(self._counts)


class RateLimiter:
    def __init__(self, redis_url: str | None, *, timeout: float = 0.5, retry_seconds: float = 5.0) -> None:
        self.local = ProcessCounters()
        self.shared: Storage | None = None
        if redis_url:
            shared = storage_from_string(
                "async+" + redis_url,
                key_prefix="leadwire",
                implementation="redispy",
                wrap_exceptions=True,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
            )
            assert isinstance(shared, Storage)
            self.shared = shared
            SHARED_UP.set(1)
        self.timeout = timeout
        self.retry_seconds = retry_seconds
        self._shared_down_until: float | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> RateLimiter:
        return cls(
            settings.redis_url,
            timeout=settings.redis_timeout_seconds,
            retry_seconds=settings.redis_retry_seconds,
        )

    @property
    def degraded(self) -> bool:
        """True while the shared store is configured but failing (limits are per process meanwhile)."""
        return self._shared_down_until is not None

    async def ping(self) -> bool:
        """Whether the shared store answers now (True when there is none); for `/readyz`."""
        if self.shared is None:
            return True
        try:
            async with asyncio.timeout(self.timeout):
                up = bool(await self.shared.check())
        except Exception:
            up = False
        if up:
            self._recovered()
        else:
            self._failed("ping")
        return up

    def _failed(self, reason: str) -> None:
        if self._shared_down_until is None:
            log.warning(
                "redis unavailable (%s): rate limits are counted per process until it answers", reason
            )
            SHARED_UP.set(0)
        self._shared_down_until = time.monotonic() + self.retry_seconds

    def _recovered(self) -> None:
        if self._shared_down_until is not None:
            log.warning("redis answers again: rate limits are shared across processes again")
            SHARED_UP.set(1)
        self._shared_down_until = None

    async def _counts(
        self, storage: Counters, names: tuple[str, str], window: int, index: int, per_key: int
    ) -> tuple[int, int]:
        key_used = await self._count(storage, names[0], window, index)
        if key_used > per_key:
            # A refused request does not spend the account's budget: read it for the headers only.
            return key_used, int(await storage.get(f"rl:{names[1]}:{window}:{index}"))
        return key_used, await self._count(storage, names[1], window, index)

    @staticmethod
    async def _count(storage: Counters, name: str, window: int, index: int) -> int:
        # The counter outlives its window by a second so a late INCR cannot recreate it without expiry.
        return int(await storage.incr(f"rl:{name}:{window}:{index}", window + 1))

    async def _counted(
        self, names: tuple[str, str], window: int, index: int, per_key: int
    ) -> tuple[int, int]:
        shared = self.shared
        retry_due = self._shared_down_until is None or time.monotonic() >= self._shared_down_until
        if shared is not None and retry_due:
            try:
                async with asyncio.timeout(self.timeout):
                    counts = await self._counts(shared, names, window, index, per_key)
            except Exception as exc:  # StorageError, timeouts, refused connections: never fail the request
                self._failed(type(exc).__name__)
            else:
                self._recovered()
                return counts
        if shared is not None:
            FALLBACKS.inc()
        return await self._counts(self.local, names, window, index, per_key)

    async def check(self, *, plan: Plan, request_class: str, key_id: str, user_id: str) -> RateDecision:
        limit = plan.rate_limits[request_class]
        window = limit.window_seconds
        now = time.time()
        index = int(now // window)
        reset_in = max(1, math.ceil((index + 1) * window - now))
        names = (f"{request_class}:key:{key_id}", f"{request_class}:user:{user_id}")
        key_used, account_used = await self._counted(names, window, index, limit.per_key)
        key_remaining = max(0, limit.per_key - key_used)
        account_remaining = max(0, limit.per_account - account_used)
        headers = {
            "X-RateLimit-Limit": str(limit.per_key),
            "X-RateLimit-Remaining": str(key_remaining),
            "X-RateLimit-Window-Ms": str(window * 1000),
            "X-User-RateLimit-Limit": str(limit.per_account),
            "X-User-RateLimit-Remaining": str(account_remaining),
            "RateLimit-Policy": f'"{request_class}";q={limit.per_key};w={window}',
            "RateLimit": f'"{request_class}";r={min(key_remaining, account_remaining)};t={reset_in}',
        }
        if key_used > limit.per_key:
            raise ApiError("api_key_rate_limit_exceeded", headers={**headers, "Retry-After": str(reset_in)})
        if account_used > limit.per_account:
            raise ApiError("api_rate_limit_exceeded", headers={**headers, "Retry-After": str(reset_in)})
        return RateDecision(headers=headers)
