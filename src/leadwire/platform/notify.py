"""Wake-ups for waiters and workers: PostgreSQL LISTEN/NOTIFY across processes, in-process otherwise.

A notification only says "look again": every waiter re-reads the database, and every waiter also
re-reads on a coarse timer, so a lost notification costs latency, never correctness.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session as SyncSession

log = logging.getLogger("leadwire.notify")

JOB_CHANNEL = "leadwire_job"
NEW_JOB_CHANNEL = "leadwire_new_job"
EVENT_CHANNEL = "leadwire_event"
KEY_CHANNEL = "leadwire_key"  # payload: the id of an API key revoked (`platform.key_cache`)
# payload: the name of a worker's background task with new work (`platform.jobs.background`)
WORK_CHANNEL = "leadwire_work"
CHANNELS = (JOB_CHANNEL, NEW_JOB_CHANNEL, EVENT_CHANNEL, KEY_CHANNEL, WORK_CHANNEL)
_PENDING_KEY = "leadwire_pending_notifications"
_SENT_KEY = "leadwire_sent_notifications"


class Subscription:
    def __init__(self) -> None:
        self._event = asyncio.Event()

    def fire(self) -> None:
        self._event.set()

    async def wait(self, timeout: float) -> bool:
        """True when woken within `timeout` seconds; the subscription re-arms itself."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout=max(0.0, timeout))
        except TimeoutError:
            return False
        self._event.clear()
        return True


class Hub:
    """In-process fan-out of (channel, key) notifications to subscriptions (key None = every key) and
    to callbacks, which run as the notification is dispatched and must not block or raise."""

    def __init__(self) -> None:
        self._subs: dict[tuple[str, str | None], set[Subscription]] = defaultdict(set)
        self._callbacks: dict[str, list[Callable[[str], None]]] = defaultdict(list)
        self._dispatched = 0

    def on(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call `callback(key)` for every notification on `channel`, for the life of the hub."""
        self._callbacks[channel].append(callback)

    @property
    def dispatched(self) -> int:
        """How many notifications this hub has delivered (any channel, any key): a read that began
        when this was N sees every change announced by the first N."""
        return self._dispatched

    @contextlib.contextmanager
    def subscribe(self, channel: str, key: str | None = None) -> Iterator[Subscription]:
        sub = Subscription()
        self._subs[(channel, key)].add(sub)
        try:
            yield sub
        finally:
            subs = self._subs.get((channel, key))
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[(channel, key)]

    def dispatch(self, channel: str, key: str) -> None:
        self._dispatched += 1
        for callback in self._callbacks.get(channel, ()):
            callback(key)
        for sub in (*self._subs.get((channel, key), ()), *self._subs.get((channel, None), ())):
            sub.fire()


@event.listens_for(SyncSession, "after_commit")
def _flush_local_notifications(session: SyncSession) -> None:
    session.info.pop(_SENT_KEY, None)
    pending = session.info.pop(_PENDING_KEY, None)
    if pending:
        hub, items = pending
        for channel, key in items:
            hub.dispatch(channel, key)


@event.listens_for(SyncSession, "after_rollback")
def _drop_local_notifications(session: SyncSession) -> None:
    session.info.pop(_SENT_KEY, None)
    session.info.pop(_PENDING_KEY, None)


class Notifier:
    """In-process notifier: notifications queued in a transaction are delivered when it commits."""

    def __init__(self) -> None:
        self.hub = Hub()

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, session: AsyncSession, channel: str, key: str) -> None:
        pending = session.sync_session.info.setdefault(_PENDING_KEY, (self.hub, []))
        pending[1].append((channel, key))

    async def publish_many(self, session: AsyncSession, channel: str, keys: list[str]) -> None:
        for key in keys:
            await self.publish(session, channel, key)

    async def announce(self, session: AsyncSession, channel: str, key: str) -> None:
        """`publish`, and in this process as soon as the transaction commits (not when the process's
        own LISTEN connection hears it back): for what must hold here the moment the change commits."""
        await self.publish(session, channel, key)


class PostgresNotifier(Notifier):
    """NOTIFY inside the publishing transaction; one LISTEN connection per process feeds the hub."""

    def __init__(self, dsn: str, *, connect_timeout: float = 5.0) -> None:
        super().__init__()
        self._dsn = dsn
        self._connect_timeout = connect_timeout
        self._connection: Any = None
        self._supervisor: asyncio.Task[None] | None = None
        self._stopping = False

    async def start(self) -> None:
        try:
            await self._connect()
        except Exception:  # the database may be down or hung: the supervisor keeps trying
            log.warning("listen connection unavailable at start", exc_info=True)
        self._supervisor = asyncio.create_task(self._supervise(), name="leadwire-listen-supervisor")

    async def _connect(self) -> None:
        import asyncpg

        connection = await asyncpg.connect(self._dsn, timeout=self._connect_timeout)
        for channel in CHANNELS:
            await connection.add_listener(channel, self._on_notification)
        self._connection = connection

    def _on_notification(self, _connection: Any, _pid: int, channel: str, payload: str) -> None:
        self.hub.dispatch(channel, payload)

    async def _supervise(self) -> None:
        while not self._stopping:
            await asyncio.sleep(2.0)
            if self._connection is None or self._connection.is_closed():
                try:
                    await self._connect()
                    log.info("listen connection re-established")
                except Exception:  # the database may be down; keep trying, waiters poll meanwhile
                    log.warning("listen connection unavailable", exc_info=True)

    async def stop(self) -> None:
        self._stopping = True
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor
        if self._connection is not None and not self._connection.is_closed():
            await self._connection.close()

    async def publish(self, session: AsyncSession, channel: str, key: str) -> None:
        # PostgreSQL folds identical notifications of one transaction anyway: skip the round trip.
        sent: set[tuple[str, str]] = session.sync_session.info.setdefault(_SENT_KEY, set())
        if (channel, key) in sent:
            return
        sent.add((channel, key))
        await session.execute(text("SELECT pg_notify(:channel, :key)"), {"channel": channel, "key": key})

    async def publish_many(self, session: AsyncSession, channel: str, keys: list[str]) -> None:
        if keys:
            await _publish_many_pg(session, channel, keys)

    async def announce(self, session: AsyncSession, channel: str, key: str) -> None:
        await self.publish(session, channel, key)
        await Notifier.publish(self, session, channel, key)  # here, on commit; LISTEN repeats it later


async def _publish_many_pg(session: AsyncSession, channel: str, keys: list[str]) -> None:
    await session.execute(
        text("SELECT pg_notify(:channel, key) FROM unnest(CAST(:keys AS text[])) AS key"),
        {"channel": channel, "keys": keys},
    )


def asyncpg_dsn(sqlalchemy_url: str) -> str:
    return sqlalchemy_url.replace("postgresql+asyncpg://", "postgresql://", 1)


def make_notifier(database_url: str, *, connect_timeout: float = 5.0) -> Notifier:
    if database_url.startswith("postgresql"):
        return PostgresNotifier(asyncpg_dsn(database_url), connect_timeout=connect_timeout)
    return Notifier()
