"""One-row reads on the database driver itself, for the hottest read path (the job poll).

SQLAlchemy's execution of a statement (compile-cache lookup, transaction bookkeeping, row objects) and
its pool's checkout and checkin (two greenlet hops, the fairy and record bookkeeping) cost more per
read than the round trip to the database (profiled for docs/benchmarks.md, Job reads).
`DriverReads.first` runs a statement, compiled once, on the driver:

- PostgreSQL: asyncpg connections of its own (`_ReadPool`: at most `pool_size`, opened on demand and
  closed after a minute idle), with the read engine's session settings (statement timeout, read-only)
  and JSON decoded as the engine decodes it. A connection goes back as it is: a one-row SELECT in
  autocommit leaves no session state. One whose read broke it or was cancelled mid-statement is closed
  instead, and a broken one retires every connection opened before it.
- SQLite: one aiosqlite connection of its own (autocommit: under WAL each read is a snapshot that
  takes no lock) and one `execute_fetchall` on its thread; the columns' own result processors turn
  stored text into dicts and aware datetimes. An in-memory database has no second connection to
  open, so there the read checks a connection out of the engine's pool.

Values come back as a session gives them, and so do failures: the driver's error is raised as
SQLAlchemy's `DBAPIError` (`OperationalError` when the connection broke, which is then never handed out
again), so the app answers it as it answers any database error — 503 `task_unavailable` when transient.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
import time
from collections import namedtuple
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql import Select
from sqlalchemy.util import greenlet_spawn

from leadwire.platform.db import DbTimeouts, postgres_connect_args

# Driver errors after which a connection is not handed out again (as `db._discard_broken_connections`).
_BROKEN_NAMES = ("InternalClientError", "PostgresConnectionError", "AdminShutdownError", "InterfaceError")
_CACHE_LIMIT = 256
_IDLE_SECONDS = 60.0


class _Compiled:
    """A SELECT as the engine's driver runs it: SQL with the dialect's positional placeholders, the order
    of its bind names, the row type (attribute access, as SQLAlchemy rows have) and, on SQLite, each
    column's result processor. It holds its statement, so a cached id is never reused by another."""

    def __init__(self, statement: Select[Any], engine: AsyncEngine) -> None:
        dialect = engine.dialect
        compiled = statement.compile(dialect=dialect)
        self.statement = statement
        self.sql = str(compiled)
        self.binds: tuple[str, ...] = tuple(compiled.positiontup or ())
        # Values the statement carries itself (a literal such as `pg_sleep(5)` is a bind parameter too).
        self.defaults = {name: bind.value for name, bind in compiled.binds.items() if not bind.required}
        names = [str(column.key) for column in statement.selected_columns]
        self.row: Any = namedtuple("DriverRow", names)  # type: ignore[misc]
        self.processors: list[Callable[[Any], Any] | None] = []
        if dialect.name == "sqlite":
            self.processors = [
                column.type.dialect_impl(dialect).result_processor(dialect, None)
                for column in statement.selected_columns
            ]

    def arguments(self, params: dict[str, Any]) -> list[Any]:
        return [params[name] if name in params else self.defaults[name] for name in self.binds]

    def make_row(self, values: Any) -> Any:
        if not self.processors:
            return self.row._make(values)
        return self.row._make(
            value if process is None or value is None else process(value)
            for process, value in zip(self.processors, values, strict=True)
        )


class _ReadPool:
    """At most `size` asyncpg connections for one-row reads: idle ones on a stack (the most recently used
    first, so the rest age out), callers beyond `size` waiting in order for one handed over at release.

    asyncpg's own pool checks a connection out and in through a holder, a proxy and, when none is idle,
    a timeout task: a third of a poll's read time (docs/benchmarks.md, Job reads). A connection here is
    trusted back unless its read broke it or was cancelled mid-statement (then it is closed, and a
    waiter gets a new one); `expire` retires every connection opened before it, as after a server restart."""

    def __init__(self, connect: Callable[[], Awaitable[Any]], size: int, *, wait_seconds: float) -> None:
        self._connect = connect
        self.size = size
        self.wait_seconds = wait_seconds
        self._idle: list[tuple[Any, int, float]] = []  # (connection, generation, idle since)
        self._open = 0  # connections open or opening
        self._generation = 0
        self._waiters: collections.deque[asyncio.Future[tuple[Any, int]]] = collections.deque()
        self._closing: set[asyncio.Task[None]] = set()
        self._sweep: asyncio.TimerHandle | None = None
        self._closed = False

    @property
    def open(self) -> int:
        return self._open

    @property
    def in_use(self) -> int:
        """Connections handed out (or being opened for a read) now: 0 when the process is idle."""
        return self._open - len(self._idle)

    async def fetchrow(self, sql: str, arguments: list[Any]) -> Any:
        connection, generation = await self._acquire()
        try:
            row = await connection.fetchrow(sql, *arguments)
        except BaseException as exc:
            if isinstance(exc, Exception) and not _is_broken(exc):
                self._release(connection, generation)  # a statement error or timeout: still usable
            else:
                self._discard(connection)  # broken, or cancelled mid-statement: its state is unknown
                if isinstance(exc, Exception):
                    self.expire()
            raise
        self._release(connection, generation)
        return row

    def expire(self) -> None:
        """Every connection opened so far is closed instead of reused (the server may have ended them)."""
        self._generation += 1
        stale, self._idle = self._idle, []
        for connection, _generation, _since in stale:
            self._discard(connection, gracefully=True)

    async def close(self) -> None:
        self._closed = True
        if self._sweep is not None:
            self._sweep.cancel()
        idle, self._idle = self._idle, []
        for connection, _generation, _since in idle:
            self._open -= 1
            with contextlib.suppress(Exception):
                await connection.close(timeout=2)
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(ConnectionError("the reads are closed"))
        if self._closing:
            await asyncio.wait(list(self._closing), timeout=2)

    async def _acquire(self) -> tuple[Any, int]:
        if self._closed:
            raise ConnectionError("the reads are closed")
        while self._idle:
            connection, generation, _since = self._idle.pop()
            if generation == self._generation and not connection.is_closed():
                return connection, generation
            self._discard(connection, gracefully=True)
        if self._open < self.size:
            return await self._opened()
        waiter: asyncio.Future[tuple[Any, int]] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(self.wait_seconds):
                handed = await waiter
        except TimeoutError:
            raise sa_exc.TimeoutError(
                f"no read connection free within {self.wait_seconds:g} s ({self.size} in use)"
            ) from None
        except BaseException:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                # Handed over as this caller gave up: pass the connection, or the slot, on.
                connection, generation = waiter.result()
                if connection is None:
                    self._free_slot()
                else:
                    self._release(connection, generation)
            raise
        if handed[0] is None:  # a slot came free (a connection closed): open one in it
            return await self._opened(reserved=True)
        return handed

    async def _opened(self, *, reserved: bool = False) -> tuple[Any, int]:
        if not reserved:
            self._open += 1
        generation = self._generation
        try:
            return await self._connect(), generation
        except BaseException:
            self._free_slot()
            raise

    def _free_slot(self) -> None:
        """A connection's slot is free: the first waiter takes it, to open a connection of its own."""
        self._open -= 1
        if self._hand_over(None, self._generation):
            self._open += 1

    def _release(self, connection: Any, generation: int) -> None:
        if self._closed or generation != self._generation or connection.is_closed():
            self._discard(connection, gracefully=True)
            return
        if not self._hand_over(connection, generation):
            self._idle.append((connection, generation, time.monotonic()))
            self._sweep_later()

    def _hand_over(self, connection: Any, generation: int) -> bool:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result((connection, generation))
                return True
        return False

    def _discard(self, connection: Any, *, gracefully: bool = False) -> None:
        """Close a connection and free its slot (a waiter may open a new one). A broken or interrupted
        one is cut; one that is only stale or idle says goodbye to the server first."""
        if gracefully and not connection.is_closed():
            closing = asyncio.get_running_loop().create_task(connection.close(timeout=2))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)
        else:
            connection.terminate()
        self._free_slot()

    def _close_idle_past(self, seconds: float) -> None:
        """Connections idle longer than `seconds` are closed (the oldest are at the bottom of the stack)."""
        cutoff = time.monotonic() - seconds
        while self._idle and self._idle[0][2] < cutoff:
            connection, _generation, _since = self._idle.pop(0)
            self._discard(connection, gracefully=True)

    def _sweep_later(self) -> None:
        if self._sweep is None and self._idle:
            self._sweep = asyncio.get_running_loop().call_later(_IDLE_SECONDS, self._swept)

    def _swept(self) -> None:
        self._sweep = None
        self._close_idle_past(_IDLE_SECONDS)
        self._sweep_later()


class DriverReads:
    """One-row reads of `engine`'s database on the bare driver (see the module's docstring)."""

    def __init__(self, engine: AsyncEngine, *, pool_size: int, timeouts: DbTimeouts) -> None:
        self.engine = engine
        self.pool_size = pool_size
        self.timeouts = timeouts
        self._compiled: dict[int, _Compiled] = {}
        self._pool: Any = None
        self._opening = asyncio.Lock()
        self._closed = False
        database = engine.url.database if engine.dialect.name == "sqlite" else None
        self._sqlite_file = database if database and database != ":memory:" else None
        self._sqlite: Any = None

    async def first(self, statement: Select[Any], params: dict[str, Any]) -> Any | None:
        """The first row of `statement`, or None; its columns are attributes named as the statement's
        selected columns. `statement` is built once (compiled SQL is cached by its identity)."""
        compiled = self._compile(statement)
        arguments = compiled.arguments(params)
        if self.engine.dialect.name == "postgresql":
            values = await self._first_on_pool(compiled.sql, arguments)
        elif self._sqlite_file is not None:
            values = await self._first_on_sqlite(compiled.sql, arguments)
        else:
            values = await self._first_on_engine(compiled.sql, arguments)
        return None if values is None else compiled.make_row(values)

    async def close(self) -> None:
        self._closed = True
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
        if self._sqlite is not None:
            connection, self._sqlite = self._sqlite, None
            await connection.close()

    @property
    def in_use(self) -> int:
        """Connections of the PostgreSQL pool serving a read now."""
        return 0 if self._pool is None else int(self._pool.in_use)

    @property
    def connections(self) -> int:
        """Connections the PostgreSQL pool holds open now (0 before the first read, and on SQLite)."""
        if self._pool is None:
            return 0
        return self._pool.open

    def _compile(self, statement: Select[Any]) -> _Compiled:
        found = self._compiled.get(id(statement))
        if found is None:
            if len(self._compiled) >= _CACHE_LIMIT:  # statements are meant to be built once, at import
                self._compiled.clear()
            found = self._compiled[id(statement)] = _Compiled(statement, self.engine)
        return found

    async def _first_on_pool(self, sql: str, arguments: list[Any]) -> Any | None:
        pool = self._pool if self._pool is not None else await self._open_pool(sql)
        try:
            return await pool.fetchrow(sql, arguments)
        except Exception as exc:
            raise _translated(self.engine, sql, exc) from exc

    async def _open_pool(self, sql: str) -> Any:
        import asyncpg

        async with self._opening:
            if self._pool is not None:
                return self._pool
            if self._closed:
                raise sa_exc.OperationalError(sql, None, ConnectionError("the reads are closed"))
            args, options = self.engine.dialect.create_connect_args(self.engine.url)
            # The URL's options as asyncpg takes them; SQLAlchemy's own (statement cache sizing) are not.
            accepted = inspect.signature(asyncpg.connect).parameters
            options = {name: value for name, value in options.items() if name in accepted}
            options.update(postgres_connect_args(self.timeouts, readonly=True))

            async def connect() -> Any:
                connection = await asyncpg.connect(*args, **options)
                try:
                    await _decode_json(connection)
                except BaseException:
                    connection.terminate()
                    raise
                return connection

            self._pool = _ReadPool(connect, self.pool_size, wait_seconds=self.timeouts.pool)
            return self._pool

    async def _first_on_sqlite(self, sql: str, arguments: list[Any]) -> Any | None:
        connection = self._sqlite if self._sqlite is not None else await self._open_sqlite(sql)
        try:
            rows = await connection.execute_fetchall(sql, arguments)
        except Exception as exc:
            raise _translated(self.engine, sql, exc) from exc
        return rows[0] if rows else None

    async def _open_sqlite(self, sql: str) -> Any:
        import aiosqlite

        async with self._opening:
            if self._sqlite is not None:
                return self._sqlite
            if self._closed or self._sqlite_file is None:
                raise sa_exc.OperationalError(sql, None, ConnectionError("the reads are closed"))
            try:
                # Autocommit: each read is its own implicit transaction (WAL: a snapshot, no lock).
                connection = await aiosqlite.connect(self._sqlite_file, isolation_level=None)
                await connection.execute(f"PRAGMA busy_timeout={int(self.timeouts.lock * 1000)}")
            except Exception as exc:
                raise _translated(self.engine, sql, exc) from exc
            self._sqlite = connection
            return connection

    async def _first_on_engine(self, sql: str, arguments: list[Any]) -> Any | None:
        engine = self.engine
        try:
            pooled = await engine.raw_connection()
        except Exception as exc:
            raise _translated(engine, sql, exc) from exc
        try:
            rows = await pooled.driver_connection.execute_fetchall(sql, arguments)  # type: ignore[union-attr]
            return rows[0] if rows else None
        except Exception as exc:
            error = _translated(engine, sql, exc)
            if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
                await greenlet_spawn(engine.sync_engine.pool._invalidate, pooled, exc)
            raise error from exc
        except asyncio.CancelledError:
            # Cancelled mid-statement, the connection's state is unknown: never reuse it.
            await greenlet_spawn(pooled.invalidate)
            raise
        finally:
            await greenlet_spawn(pooled.close)


async def _decode_json(connection: Any) -> None:
    """JSON columns as dicts, as the engine's sessions read them (orjson: the same values, faster)."""
    for name in ("json", "jsonb"):
        await connection.set_type_codec(
            name, schema="pg_catalog", encoder=_encode_json, decoder=orjson.loads, format="text"
        )


def _encode_json(value: Any) -> str:
    return orjson.dumps(value).decode()


def _is_broken(exc: BaseException) -> bool:
    return isinstance(exc, TimeoutError | ConnectionError | OSError) or any(
        cls.__name__ in _BROKEN_NAMES for cls in type(exc).__mro__
    )


def _translated(engine: AsyncEngine, sql: str, exc: Exception) -> Exception:
    """The driver's error as SQLAlchemy raises it from a session: `OperationalError` with the connection
    invalidated when the connection cannot be trusted, else `DBAPIError` carrying the driver's error
    (and with it its SQLSTATE or SQLite message, which `db.is_transient` reads)."""
    if isinstance(exc, sa_exc.SQLAlchemyError):
        return exc  # already SQLAlchemy's (a pool timeout)
    if _is_broken(exc):
        return sa_exc.OperationalError(sql, None, exc, connection_invalidated=True, hide_parameters=True)
    dbapi_error = engine.dialect.loaded_dbapi.Error
    if isinstance(exc, dbapi_error):  # raised through SQLAlchemy's adapter (a failed connect)
        return sa_exc.DBAPIError.instance(sql, None, exc, dbapi_error, hide_parameters=True)
    return sa_exc.DBAPIError(sql, None, exc, hide_parameters=True)
