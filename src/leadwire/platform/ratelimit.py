"""Account-wide and per-key request rate limits per request class, in memory or in Redis.

Both limits are fixed windows from the `limits` library: the per-key window is keyed by the key id, the
per-account window by the user id, so every key of an account, v1, v2 and MCP share the account budget.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import Storage
from limits.aio.strategies import FixedWindowRateLimiter
from limits.storage import storage_from_string

from leadwire.platform.errors import ApiError
from leadwire.platform.plans import Plan


@dataclass(frozen=True)
class RateDecision:
    headers: dict[str, str]


def _item(amount: int, window_seconds: int) -> RateLimitItem:
    return RateLimitItemPerSecond(amount, window_seconds)


class RateLimiter:
    def __init__(self, redis_url: str | None) -> None:
        uri = ("async+" + redis_url) if redis_url else "async+memory://"
        storage = storage_from_string(uri, key_prefix="leadwire") if redis_url else storage_from_string(uri)
        assert isinstance(storage, Storage)
        self.storage = storage
        self.limiter = FixedWindowRateLimiter(storage)

    async def check(self, *, plan: Plan, request_class: str, key_id: str, user_id: str) -> RateDecision:
        limit = plan.rate_limits[request_class]
        key_item = _item(limit.per_key, limit.window_seconds)
        account_item = _item(limit.per_account, limit.window_seconds)
        key_ok = await self.limiter.hit(key_item, request_class, "key", key_id)
        key_stats = await self.limiter.get_window_stats(key_item, request_class, "key", key_id)
        account_ok = key_ok and await self.limiter.hit(account_item, request_class, "user", user_id)
        account_stats = await self.limiter.get_window_stats(account_item, request_class, "user", user_id)
        reset_in = max(0, math.ceil(min(key_stats.reset_time, account_stats.reset_time) - time.time()))
        headers = {
            "X-RateLimit-Limit": str(limit.per_key),
            "X-RateLimit-Remaining": str(key_stats.remaining),
            "X-RateLimit-Window-Ms": str(limit.window_seconds * 1000),
            "X-User-RateLimit-Limit": str(limit.per_account),
            "X-User-RateLimit-Remaining": str(account_stats.remaining),
            "RateLimit-Policy": f'"{request_class}";q={limit.per_key};w={limit.window_seconds}',
            "RateLimit": f'"{request_class}";r={min(key_stats.remaining, account_stats.remaining)};'
            f"t={reset_in}",
        }
        if not key_ok:
            retry = max(1, math.ceil(key_stats.reset_time - time.time()))
            raise ApiError("api_key_rate_limit_exceeded", headers={**headers, "Retry-After": str(retry)})
        if not account_ok:
            retry = max(1, math.ceil(account_stats.reset_time - time.time()))
            raise ApiError("api_rate_limit_exceeded", headers={**headers, "Retry-After": str(retry)})
        return RateDecision(headers=headers)
