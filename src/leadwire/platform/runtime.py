"""The process-wide runtime: settings, database, rate limiter, notifications and job registry.

One `Runtime` is built per process (API server, worker or both) and reached from routes through
`get_runtime`; nothing capability-specific lives here.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from starlette.requests import Request  # FastAPI's Request, without importing FastAPI (see auth.py)

from leadwire.config import Settings
from leadwire.platform.adapters import Adapters
from leadwire.platform.admission.auth_guard import AuthGuard
from leadwire.platform.admission.key_cache import KeyCache
from leadwire.platform.admission.ratelimit import RateLimiter
from leadwire.platform.admission.stream_slots import StreamSlots
from leadwire.platform.db import DbTimeouts, make_engine, make_sessionmaker
from leadwire.platform.driver_read import DriverReads
from leadwire.platform.notify import KEY_CHANNEL

if TYPE_CHECKING:
    from leadwire.platform.notify import Notifier


@dataclass
class Runtime:
    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    rate_limiter: RateLimiter
    notifier: Notifier
    draining: bool = False
    adapters: Adapters = field(default_factory=Adapters)
    key_cache: KeyCache = field(init=False)
    auth_guard: AuthGuard = field(init=False)
    stream_slots: StreamSlots = field(init=False)
    # Sessions for work that only reads (GET requests, waiters, followers), on an engine of their own
    # (`make_engine(readonly=True)`): autocommit, so a read is one call; it never waits for or holds
    # SQLite's write lock; on PostgreSQL its sessions are read-only, with a pool of their own.
    read_engine: AsyncEngine | None = None
    read_sessionmaker: async_sessionmaker[AsyncSession] | None = None
    _driver_reads: DriverReads | None = None

    def __post_init__(self) -> None:
        self.key_cache = KeyCache(self.settings.auth_cache_seconds)
        self.stream_slots = StreamSlots(
            self.settings.stream_limit_per_key,
            self.settings.stream_limit_per_account,
            trim_after=self.settings.memory_trim_after_streams,
        )
        self.auth_guard = AuthGuard(
            self.settings.auth_failures_per_minute, self.settings.auth_miss_cache_seconds
        )
        self.notifier.hub.on(KEY_CHANNEL, self.key_cache.forget)  # a revoked key, in any process
        if self.read_sessionmaker is None:
            size = self.settings.db_read_pool_size
            self.read_engine = make_engine(
                self.engine.url.render_as_string(hide_password=False),
                readonly=True,
                pool_size=size,
                max_overflow=max(1, size // 4),
                timeouts=DbTimeouts.from_settings(self.settings),
            )
            self.read_sessionmaker = make_sessionmaker(self.read_engine)

    @property
    def reader(self) -> async_sessionmaker[AsyncSession]:
        assert self.read_sessionmaker is not None
        return self.read_sessionmaker

    @property
    def driver_reads(self) -> DriverReads:
        """One-row reads on the bare driver, for the hottest read path (`platform.driver_read`)."""
        if self._driver_reads is None:
            self._driver_reads = DriverReads(
                self.read_engine or self.engine,
                pool_size=self.settings.db_poll_pool_size,
                timeouts=DbTimeouts.from_settings(self.settings),
            )
        return self._driver_reads

    def poll_connections_in_use(self) -> int:
        """Connections of the job poll's pool serving a read now (0 before the first poll)."""
        return 0 if self._driver_reads is None else self._driver_reads.in_use

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    async def close(self) -> None:
        for adapter in self.adapters.built():
            # Adapters holding connections (a database pool, a file) release them with the process.
            closer = getattr(adapter, "close", None)
            if closer is not None and asyncio.iscoroutinefunction(closer):
                await closer()
        await self.notifier.stop()
        await self.rate_limiter.close()
        if self._driver_reads is not None:
            await self._driver_reads.close()
        await self.engine.dispose()
        if self.read_engine is not None:
            await self.read_engine.dispose()


async def build_runtime(settings: Settings) -> Runtime:
    from leadwire.platform.billing.prices import parse_price_table, set_price_table
    from leadwire.platform.notify import make_notifier

    set_price_table(parse_price_table(settings.prices))  # a bad table stops the process here
    engine = make_engine(
        settings.resolved_database_url,
        pool_size=settings.db_pool_size,
        timeouts=DbTimeouts.from_settings(settings),
    )
    notifier = make_notifier(
        settings.resolved_database_url, connect_timeout=settings.db_connect_timeout_seconds
    )
    runtime = Runtime(
        settings=settings,
        engine=engine,
        sessionmaker=make_sessionmaker(engine),
        rate_limiter=RateLimiter.from_settings(settings),
        notifier=notifier,
    )
    await notifier.start()
    return runtime


async def get_runtime(request: Request) -> Runtime:  # async: a sync dependency costs a threadpool hop
    runtime: Runtime = request.app.state.runtime
    return runtime
