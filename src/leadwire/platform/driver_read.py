"""One-row reads on the database driver itself, for the hottest read path (the job poll).

SQLAlchemy's execution of a statement (compile-cache lookup, transaction bookkeeping, row objects) and
its pool's checkout and checkin (two greenlet hops, the fairy and record bookkeeping) cost more per
read than the round trip to the database (issue 13's profiles). `DriverReads.first` runs a statement,
compiled once, on the driver:

- PostgreSQL: an asyncpg pool of its own (at most `pool_size` connections, opened on demand and closed
  after a minute idle), with the read engine's session settings (statement timeout, read-only) and
  JSON decoded as the engine decodes it. Its connections are never reset on release: a one-row SELECT
  in autocommit leaves no session state, and asyncpg itself rolls back an open transaction and waits
  out a cancelled statement before a connection is reused.
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
import inspect
from collections import namedtuple
from collections.abc import Callable
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
    def connections(self) -> int:
        """Connections the PostgreSQL pool holds open now (0 before the first read, and on SQLite)."""
        if self._pool is None:
            return 0
        return int(self._pool.get_size())

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
            # A connection idle in the pool is handed over at once: only a wait needs a bound (a timeout
            # is a timer handle set and cancelled per read).
            timeout = None if pool.get_idle_size() else self.timeouts.pool
            async with pool.acquire(timeout=timeout) as connection:
                try:
                    return await connection.fetchrow(sql, *arguments)
                except Exception as exc:
                    if _is_broken(exc):
                        # As SQLAlchemy does on a disconnect: this connection and every one opened
                        # before it (a server restart ends them all) are replaced before their next use.
                        await pool.expire_connections()
                        if not _released(connection):
                            connection.terminate()
                    raise
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
            try:
                self._pool = await asyncpg.create_pool(
                    *args,
                    min_size=0,
                    max_size=self.pool_size,
                    max_inactive_connection_lifetime=_IDLE_SECONDS,
                    init=_decode_json,
                    reset=_leave_as_is,
                    **options,
                )
            except Exception as exc:
                raise _translated(self.engine, sql, exc) from exc
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


async def _leave_as_is(_connection: Any) -> None:
    """No reset query on release (see the module's docstring)."""


def _released(connection: Any) -> bool:
    """Whether asyncpg already took the connection back (it does when the server closed it)."""
    return connection._con is None  # asyncpg's pool proxy: detached once released


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
