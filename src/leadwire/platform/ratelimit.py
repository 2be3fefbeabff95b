"""Account-wide and per-key request rate limits per request class, in memory or in Redis.

Fixed windows aligned to the clock (`window_index = now // window`), counted with one INCR per limit on
a `limits` storage (memory in one process, Redis when scaled out): the per-key counter is keyed by the
key id, the per-account counter by the user id, so every key of an account, v1, v2 and MCP share the
account budget. Aligned windows need no expiry lookup to know when a window resets.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from limits.aio.storage import Storage
from limits.storage import storage_from_string

from leadwire.platform.errors import ApiError
from leadwire.platform.plans import Plan


@dataclass(frozen=True)
class RateDecision:
    headers: dict[str, str]


class RateLimiter:
    def __init__(self, redis_url: str | None) -> None:
        if redis_url:
            storage = storage_from_string("async+" + redis_url, key_prefix="leadwire")
        else:
            storage = storage_from_string("async+memory://")
        assert isinstance(storage, Storage)
        self.storage = storage

    async def _count(self, name: str, window: int, index: int) -> int:
        # The counter outlives its window by a second so a late INCR cannot recreate it without expiry.
        return int(await self.storage.incr(f"rl:{name}:{window}:{index}", window + 1))

    async def _peek(self, name: str, window: int, index: int) -> int:
        return int(await self.storage.get(f"rl:{name}:{window}:{index}"))

    async def check(self, *, plan: Plan, request_class: str, key_id: str, user_id: str) -> RateDecision:
        limit = plan.rate_limits[request_class]
        window = limit.window_seconds
        now = time.time()
        index = int(now // window)
        reset_in = max(1, math.ceil((index + 1) * window - now))
        key_used = await self._count(f"{request_class}:key:{key_id}", window, index)
        key_remaining = max(0, limit.per_key - key_used)
        account_name = f"{request_class}:user:{user_id}"
        if key_used > limit.per_key:
            # A refused request does not spend the account's budget: read it for the headers only.
            account_used = await self._peek(account_name, window, index)
        else:
            account_used = await self._count(account_name, window, index)
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
