"""Account-wide and per-key request rate limits per request class, in memory or in Redis.

Fixed windows aligned to the clock (`window_index = now // window`), counted with one INCR per limit
(in this process's memory, or in Redis when scaled out): the per-key counter is keyed by the key id, the
per-account counter by the user id, so every key of an account, v1, v2 and MCP share the account
budget. Aligned windows need no expiry lookup to know when a window resets. In Redis both counters of a
request are counted by one script, in one round trip (two INCRs and their EXPIREs were two to four, and
a job poll's largest cost when scaled out).

A Redis outage never fails a request: every Redis call is bounded by `redis_timeout_seconds`, and when
one fails the limits are counted in this process's memory (each process then enforces the limits on its
own) for `redis_retry_seconds` before Redis is tried again. The outage is logged once, counted in
`leadwire_ratelimit_fallback_total`, and `/readyz` reports `degraded` while it lasts.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
    # The two counters this request was counted in (the key's, the account's), and whether in this
    # process's memory: what `RateLimiter.give_back` takes back.
    counters: tuple[str, str] = ("", "")
    local: bool = True


class ProcessCounters:
    """Counters in this process's memory, each living `expiry` seconds from its first increment.

    A plain dict: single-threaded asyncio needs no lock, and a sweep every `SWEEP_SECONDS` drops the
    counters of ended windows. (`limits`' memory storage, used before, took a lock and kept expiry
    bookkeeping per call: the largest share of the job poll's limiter time.)"""

    SWEEP_SECONDS = 10.0

    def __init__(self) -> None:
        self._counts: dict[str, tuple[float, int]] = {}
        self._next_sweep = 0.0

    def _incr(self, key: str, expiry: int) -> int:
        now = time.monotonic()
        if now >= self._next_sweep:
            self._counts = {k: entry for k, entry in self._counts.items() if entry[0] > now}
            self._next_sweep = now + self.SWEEP_SECONDS
        expires, count = self._counts.get(key, (0.0, 0))
        if expires <= now:
            expires, count = now + expiry, 0
        self._counts[key] = (expires, count + 1)
        return count + 1

    def _get(self, key: str) -> int:
        expires, count = self._counts.get(key, (0.0, 0))
        return count if expires > time.monotonic() else 0

    def count(self, key: str, account: str, expiry: int, per_key: int) -> tuple[int, int]:
        """Both counters of a request after it, as `RedisCounters.count` (synchronous: nothing waits)."""
        key_used = self._incr(key, expiry)
        if key_used > per_key:
            return key_used, self._get(account)
        return key_used, self._incr(account, expiry)

    def uncount(self, *keys: str) -> None:
        """Take one back from each counter that still holds one (its window not ended)."""
        now = time.monotonic()
        for key in keys:
            expires, count = self._counts.get(key, (0.0, 0))
            if expires > now and count > 0:
                self._counts[key] = (expires, count - 1)

    def __len__(self) -> int:
        return len(self._counts)


# KEYS: the key's and the account's counters; ARGV: expiry seconds, the per-key limit.
_COUNT_SCRIPT = """
local key_used = redis.call('INCR', KEYS[1])
if key_used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
if key_used > tonumber(ARGV[2]) then
  return {key_used, tonumber(redis.call('GET', KEYS[2]) or '0')}
end
local account_used = redis.call('INCR', KEYS[2])
if account_used == 1 then redis.call('EXPIRE', KEYS[2], ARGV[1]) end
return {key_used, account_used}
"""


# KEYS: counters to take one back from, each only while it exists and is above zero.
_UNCOUNT_SCRIPT = """
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 0
"""


# A count waiting for its round trip: the script's keys and arguments, and the caller's future.
_Pending = tuple[list[str], list[int], asyncio.Future[tuple[int, int]]]


class RedisCounters:
    """The counters in Redis, under `leadwire:`; both of a request in one script, sent by its digest.

    Requests share round trips: counts wait in a batch while a pipeline is out, and the batch goes as
    one pipeline of scripts (no transaction: each script is atomic by itself) when it is back, or at
    the end of the loop turn when none is out. Under load that is one send, one receive and one
    connection checkout for many requests instead of one each; a lone request waits one loop turn."""

    PREFIX = "leadwire:"

    def __init__(self, url: str, *, timeout: float) -> None:
        import redis.asyncio as redis
        from redis.exceptions import NoScriptError

        self.client: Any = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        self._script = self.client.register_script(_COUNT_SCRIPT)
        self._uncount = self.client.register_script(_UNCOUNT_SCRIPT)
        self._no_script: type[Exception] = NoScriptError
        self._batch: list[_Pending] = []
        self._sending: set[asyncio.Task[None]] = set()
        self._closed = False
        self.timeout = timeout

    async def count(self, key: str, account: str, expiry: int, per_key: int) -> tuple[int, int]:
        """Both counters of a request after it: the key's, incremented, and the account's, incremented
        unless the key is over `per_key` (a refused request does not spend the account's budget: the
        account's count is then read for the headers only). A new counter lives `expiry` seconds."""
        loop = asyncio.get_running_loop()
        counted: asyncio.Future[tuple[int, int]] = loop.create_future()
        if not self._batch and not self._sending:
            loop.call_soon(self._flush)
        self._batch.append(([self.PREFIX + key, self.PREFIX + account], [expiry, per_key], counted))
        return await counted

    def _flush(self) -> None:
        # A caller that stopped waiting (its timeout: it was counted per process instead) is not sent.
        batch = [entry for entry in self._batch if not entry[2].done()]
        self._batch = []
        if not batch:
            return
        if self._closed:
            _fail(batch, ConnectionError("the rate limit store is closed"))
            return
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self._sending.add(task)  # held until done: the loop keeps only a weak reference
        task.add_done_callback(functools.partial(self._sent, batch))

    def _sent(
        self,
        batch: list[_Pending],
        task: asyncio.Task[None],
    ) -> None:
        self._sending.discard(task)
        # A send cancelled (shutdown), even before it started, leaves no caller waiting forever.
        _fail(batch, ConnectionError("the count was not sent"))
        self._flush()  # what came in while it was out

    async def _send(self, batch: list[_Pending]) -> None:
        try:
            replies = await self._run(batch)
        except Exception as exc:
            _fail(batch, exc)
            return
        for (_keys, _args, counted), (key_used, account_used) in zip(batch, replies, strict=True):
            if not counted.done():
                counted.set_result((int(key_used), int(account_used)))

    async def _run(self, batch: list[_Pending]) -> list[Any]:
        for attempt in (1, 2):
            pipe = self.client.pipeline(transaction=False)
            for keys, args, _counted in batch:
                pipe.evalsha(self._script.sha, len(keys), *keys, *args)
            try:
                return list(await pipe.execute())
            except self._no_script:  # a Redis that restarted or was flushed: load it and send again
                if attempt == 2:
                    raise
                await self.client.script_load(_COUNT_SCRIPT)
        raise AssertionError("unreachable")

    async def uncount(self, *keys: str) -> None:
        await self._uncount(keys=[self.PREFIX + key for key in keys])

    async def ping(self) -> bool:
        return bool(await self.client.ping())

    async def close(self) -> None:
        """Fail the counts still waiting, let a pipeline that is out finish, then close the client."""
        self._closed = True
        self._flush()
        if self._sending:
            await asyncio.wait(list(self._sending), timeout=self.timeout)
        await self.client.aclose()


def _fail(batch: list[_Pending], exc: Exception) -> None:
    for _keys, _args, counted in batch:
        if not counted.done():  # a caller that timed out has stopped waiting
            counted.set_exception(exc)


class RateLimiter:
    def __init__(self, redis_url: str | None, *, timeout: float = 0.5, retry_seconds: float = 5.0) -> None:
        self.local = ProcessCounters()
        self.shared: RedisCounters | None = None
        if redis_url:
            self.shared = RedisCounters(redis_url, timeout=timeout)
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

    async def close(self) -> None:
        if self.shared is not None:
            await self.shared.close()

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
                up = await self.shared.ping()
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

    async def _counted(self, counters: tuple[str, str], window: int, per_key: int) -> tuple[int, int, bool]:
        """Both counts after this request, and whether they were counted in this process's memory."""
        # A counter outlives its window by a second so a late INCR cannot recreate it without expiry.
        key, account = counters
        expiry = window + 1
        shared = self.shared
        if shared is None:  # one process: nothing to wait on (every poll passes here)
            return (*self.local.count(key, account, expiry, per_key), True)
        if self._shared_down_until is None or time.monotonic() >= self._shared_down_until:
            try:
                async with asyncio.timeout(self.timeout):
                    counts = await shared.count(key, account, expiry, per_key)
            except Exception as exc:  # Redis errors, timeouts, refused connections: never fail the request
                self._failed(type(exc).__name__)
            else:
                self._recovered()
                return (*counts, False)
        FALLBACKS.inc()
        return (*self.local.count(key, account, expiry, per_key), True)

    async def give_back(self, decision: RateDecision) -> None:
        """A request that was counted but did no work of its kind (an idempotency key still in
        progress elsewhere) takes its count back, in the store it was counted in; best effort."""
        if not decision.counters[0]:
            return
        if decision.local or self.shared is None:
            self.local.uncount(*decision.counters)
            return
        try:
            async with asyncio.timeout(self.timeout):
                await self.shared.uncount(*decision.counters)
        except Exception as exc:  # the count stays: a refund never fails the request
            log.info("rate-limit give-back not counted: %s", type(exc).__name__)

    async def check(self, *, plan: Plan, request_class: str, key_id: str, user_id: str) -> RateDecision:
        limit = plan.rate_limits[request_class]
        window = limit.window_seconds
        now = time.time()
        index = int(now // window)
        reset_in = max(1, math.ceil((index + 1) * window - now))
        counters = (
            f"rl:{request_class}:key:{key_id}:{window}:{index}",
            f"rl:{request_class}:user:{user_id}:{window}:{index}",
        )
        key_used, account_used, local = await self._counted(counters, window, limit.per_key)
        key_remaining = max(0, limit.per_key - key_used)
        account_remaining = max(0, limit.per_account - account_used)
        headers = {
            **_policy_headers(request_class, limit.per_key, limit.per_account, window),
            "X-RateLimit-Remaining": str(key_remaining),
            "X-User-RateLimit-Remaining": str(account_remaining),
            "RateLimit": f'"{request_class}";r={min(key_remaining, account_remaining)};t={reset_in}',
        }
        for used, allowed, code, whose in (
            (key_used, limit.per_key, "api_key_rate_limit_exceeded", "this key"),
            (account_used, limit.per_account, "api_rate_limit_exceeded", "the account (all its keys)"),
        ):
            if used > allowed:
                raise ApiError(
                    code,
                    detail=f"{allowed} {request_class} requests per {window} s for {whose}; "
                    f"the window resets in {reset_in} s",
                    headers={**headers, "Retry-After": str(reset_in)},
                )
        return RateDecision(headers=headers, counters=counters, local=local)


@functools.lru_cache(maxsize=256)
def _policy_headers(request_class: str, per_key: int, per_account: int, window: int) -> dict[str, str]:
    """The headers a limit states whatever the counts (built once per limit: every request sends them)."""
    return {
        "X-RateLimit-Limit": str(per_key),
        "X-RateLimit-Window-Ms": str(window * 1000),
        "X-User-RateLimit-Limit": str(per_account),
        "RateLimit-Policy": f'"{request_class}";q={per_key};w={window}',
    }
