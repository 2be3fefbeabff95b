"""Database engine, sessions and column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Integer,
    MetaData,
    Table,
    bindparam,
    event,
    func,
    insert,
    select,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

from leadwire.config import keep_private

if TYPE_CHECKING:
    from leadwire.config import Settings

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


JsonType = JSON().with_variant(JSONB(), "postgresql")
# An auto-incremented 64-bit key: SQLite only auto-increments an INTEGER PRIMARY KEY (the rowid alias),
# not a BIGINT one.
SeqType = BigInteger().with_variant(Integer(), "sqlite")


class UtcDateTime(TypeDecorator[datetime]):
    """Always returns aware UTC datetimes; SQLite stores naive UTC text that sorts correctly."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UtcDateTime column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def json_loads(text: str | bytes) -> Any:
    """A JSON column's value: orjson, four times the standard module's speed (an export decodes two
    columns per item); a value orjson refuses (the NaN that `json.dumps` may have written) by `json`."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def is_sqlite_url(url: str) -> bool:
    return url.startswith("sqlite")


@dataclass(frozen=True)
class DbTimeouts:
    """Bounds on every database call, so a hung server costs a request seconds, not minutes."""

    connect: float = 5.0
    statement: float = 5.0
    pool: float = 5.0
    lock: float = 10.0  # SQLite: how long a writer waits for the write lock

    @classmethod
    def from_settings(cls, settings: Settings) -> DbTimeouts:
        return cls(
            connect=settings.db_connect_timeout_seconds,
            statement=settings.db_statement_timeout_seconds,
            pool=settings.db_pool_timeout_seconds,
            lock=settings.db_lock_timeout_seconds,
        )


def make_engine(
    url: str,
    *,
    pool_size: int = 10,
    max_overflow: int | None = None,
    readonly: bool = False,
    timeouts: DbTimeouts | None = None,
) -> AsyncEngine:
    """An engine for `url`; `readonly` gives the engine of work that only reads (GET requests, waiters,
    stream followers).

    A read-only engine runs in autocommit: one call per read instead of BEGIN, SELECT, COMMIT. Under
    PostgreSQL's READ COMMITTED each statement of a transaction takes its own snapshot anyway, so reads
    see the same; SQLite (WAL) gives each statement its own snapshot and never takes the write lock
    for it. On PostgreSQL its sessions are also `default_transaction_read_only`, so a write slipped
    into a read path fails loudly instead of committing statement by statement.

    Bind parameters are hidden from SQLAlchemy's error messages: they carry request payloads (message
    bodies, queries), which must never reach a log line.
    """
    timeouts = timeouts or DbTimeouts()
    if is_sqlite_url(url):
        private_sqlite_files(url)
        engine = create_async_engine(
            url,
            connect_args={"timeout": timeouts.lock},
            hide_parameters=True,
            json_deserializer=json_loads,
            pool_reset_on_return=None if readonly else "rollback",
        )
        _configure_sqlite(engine, begin=None if readonly else "BEGIN IMMEDIATE", busy_seconds=timeouts.lock)
        return engine
    # No pre-ping (three round trips per checkout on asyncpg): a connection broken by a server restart
    # fails its request with 503 task_unavailable and is discarded by the pool; recycle bounds its age.
    # The server cancels a statement past `statement` (the connection stays usable); the client gives up
    # two seconds later, for a server that accepts connections but never answers.
    engine = create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=pool_size if max_overflow is None else max_overflow,
        pool_recycle=1800,
        pool_timeout=timeouts.pool,
        hide_parameters=True,
        json_deserializer=json_loads,
        isolation_level="AUTOCOMMIT" if readonly else "READ COMMITTED",
        # In autocommit there is no transaction to roll back when a connection goes back to the pool.
        pool_reset_on_return=None if readonly else "rollback",
        connect_args=postgres_connect_args(timeouts, readonly=readonly),
    )
    event.listen(engine.sync_engine, "handle_error", _discard_broken_connections)
    return engine


def postgres_connect_args(timeouts: DbTimeouts, *, readonly: bool) -> dict[str, Any]:
    """asyncpg's connection options for every PostgreSQL connection the process opens."""
    server_settings = {"statement_timeout": str(int(timeouts.statement * 1000))}
    if readonly:
        server_settings["default_transaction_read_only"] = "on"
    return {
        "timeout": timeouts.connect,
        "command_timeout": timeouts.statement + 2.0,
        "server_settings": server_settings,
    }


def _discard_broken_connections(context: Any) -> None:
    """A connection whose state is unknown is never handed out again: one cut by the server, one left
    mid-operation (asyncpg's InternalClientError), one whose statement timed out on the client side."""
    import asyncpg

    error = context.original_exception
    causes = (error, getattr(error, "__cause__", None))
    broken = (
        TimeoutError,
        asyncpg.exceptions.InternalClientError,
        asyncpg.exceptions.PostgresConnectionError,
        asyncpg.exceptions.AdminShutdownError,
        asyncpg.exceptions.InterfaceError,
        ConnectionError,
    )
    if any(isinstance(cause, broken) for cause in causes):
        context.is_disconnect = True


def private_sqlite_files(url: str) -> None:
    """The SQLite database and its -wal and -shm files readable by this user only (0600): they hold
    personal data and sealed secrets. A database not there yet is created 0600 before SQLite opens
    it, and SQLite gives its -wal and -shm the database's mode. An in-memory database has no file."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.exists() and path.parent.is_dir():
        with contextlib.suppress(FileExistsError):  # another process created it meanwhile
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for name in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        keep_private(name)


def _configure_sqlite(engine: AsyncEngine, *, begin: str | None, busy_seconds: float) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not pysqlite, decide when transactions start (see _on_begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    if begin is None:
        return  # autocommit: every statement is its own implicit transaction

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        # Writers take the write lock up front (IMMEDIATE): a deferred transaction that later writes can
        # fail with SQLITE_BUSY_SNAPSHOT, which busy_timeout does not retry.
        connection.exec_driver_sql(begin)


# SQLSTATEs of failures that say nothing about the request: retrying the transaction may succeed.
# 40001 serialization failure, 40P01 deadlock, 55P03 lock not available, 57014 statement timeout,
# 57P01-57P03 server shutting down or restarting, class 08 connection exceptions.
_TRANSIENT_SQLSTATES = frozenset({"40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03"})
# Lost races among them: retried at once, a few times, before anything is reported.
_RACE_SQLSTATES = frozenset({"40001", "40P01"})


def _sqlstate(exc: BaseException) -> str | None:
    orig = getattr(exc, "orig", None)
    for candidate in (orig, getattr(orig, "__cause__", None)):
        code = getattr(candidate, "sqlstate", None) or getattr(candidate, "pgcode", None)
        if isinstance(code, str):
            return code
    return None


def describe_failure(exc: BaseException) -> str:
    """The exception's class, its driver's and its SQLSTATE, for a log line: never the statement or
    its parameters, which may hold a user's data."""
    orig = getattr(exc, "orig", None)
    cause = getattr(orig, "__cause__", None) or orig
    parts = [type(exc).__name__] + ([type(cause).__name__] if cause is not None else [])
    state = _sqlstate(exc)
    return " / ".join(parts) + (f" (SQLSTATE {state})" if state else "")


def is_transient(exc: BaseException) -> bool:
    """A failure of the database (unreachable, hung, restarting, busy, a lost lock race), not of the work.

    Such a request answers 503 `task_unavailable`; a worker step retries.
    """
    if isinstance(exc, TimeoutError | ConnectionError | sa_exc.TimeoutError):
        return True  # client-side statement/connect timeouts, refused connections, pool exhausted
    if isinstance(exc, sa_exc.DBAPIError):
        if type(exc.orig).__module__ == "sqlite3":  # "database is locked" past the busy timeout, disk I/O
            return any(word in str(exc.orig) for word in ("locked", "busy", "disk I/O", "unable to open"))
        if exc.connection_invalidated or isinstance(exc, sa_exc.OperationalError | sa_exc.InterfaceError):
            return True
        state = _sqlstate(exc)
        return state is not None and (state in _TRANSIENT_SQLSTATES or state.startswith("08"))
    return False


def is_lost_connection(exc: BaseException) -> bool:
    """A connection that broke under the statement (cut by a restart, a failover, the network): the
    same work on a fresh connection may well succeed at once. Not a timeout or a busy database."""
    if isinstance(exc, ConnectionError):
        return True
    if not isinstance(exc, sa_exc.DBAPIError) or type(exc.orig).__module__ == "sqlite3":
        return False
    state = _sqlstate(exc)
    return exc.connection_invalidated or (state is not None and (state.startswith("08") or state == "57P01"))


def is_lost_race(exc: BaseException) -> bool:
    """A deadlock or serialization failure: the transaction lost to a concurrent one and can rerun now."""
    return isinstance(exc, sa_exc.DBAPIError) and _sqlstate(exc) in _RACE_SQLSTATES


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=True)


@asynccontextmanager
async def transaction(sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """One unit of work outside a request (worker step, CLI command): commit on success, else roll back."""
    async with sessionmaker() as session:
        try:
            yield session
            await session.commit()
        except BaseException:
            await session.rollback()
            raise


def dialect_insert(session: AsyncSession) -> Any:
    """The session's dialect's `insert`, which has `ON CONFLICT DO NOTHING` on SQLite and PostgreSQL."""
    from sqlalchemy.dialects.postgresql import insert as pg_insert
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert


async def insert_rows(session: AsyncSession, table: Table, rows: list[dict[str, Any]]) -> None:
    """Rows of one shape into `table` in one statement. On PostgreSQL an INSERT ... SELECT over
    unnest() of one array per column: its text is the same whatever the count, so the server plans it
    once, and a batch costs one round trip and one executor run instead of one per row. Elsewhere an
    executemany (SQLite runs in-process: a row costs no round trip there)."""
    if not rows:
        return
    if session.get_bind().dialect.name != "postgresql":
        await session.execute(insert(table), rows)
        return
    columns = tuple(rows[0])
    arrays = {f"u_{name}": [row[name] for row in rows] for name in columns}
    await session.execute(_unnest_insert(table, columns), arrays)


@functools.cache
def _unnest_insert(table: Table, columns: tuple[str, ...]) -> Any:
    arrays = [bindparam(f"u_{name}", type_=ARRAY(table.c[name].type)) for name in columns]
    unnested = func.unnest(*arrays).table_valued(*columns).render_derived()
    return insert(table).from_select(list(columns), select(*(unnested.c[name] for name in columns)))
