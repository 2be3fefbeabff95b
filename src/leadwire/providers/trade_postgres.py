"""Trade store adapter: table `trade_shipments` in PostgreSQL, for deployments that keep their trade
data in their database. It runs the same query plans as the DuckDB file (see `trade.py`); the table
and its indexes are created by `leadwire ingest shipments` (`trade_schema.POSTGRES_DDL`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

import asyncpg

from leadwire.providers.trade import Role, TradeStore, TradeStoreError
from leadwire.providers.trade_schema import POSTGRES_TABLE

# Distinct company names change only when shipments are ingested; a minute of staleness in the
# candidates' name list is the price of not scanning the table on every lookup.
NAMES_TTL_SECONDS = 60.0


# A connection the server cut: asyncpg says so in these ways, and with InternalClientError when the cut
# lands mid-operation before the connection knows it is lost (as `platform/db.py` classifies it too).
_LOST_CONNECTION = (
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.AdminShutdownError,
    asyncpg.exceptions.ConnectionFailureError,
    asyncpg.exceptions.InternalClientError,
    ConnectionError,
)

_log = logging.getLogger(__name__)  # the cause in full for the operator; the job says less


class PostgresTradeStore(TradeStore):
    table = POSTGRES_TABLE

    def __init__(self, dsn: str, *, timeout_seconds: float = 30.0, max_connections: int = 8) -> None:
        self._dsn = dsn
        self._timeout = timeout_seconds
        self._max_connections = max_connections
        self._pool: asyncpg.Pool | None = None
        self._pool_lock = asyncio.Lock()
        self._names: dict[Role, tuple[float, list[str]]] = {}

    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        pool = await self._connected()
        try:
            try:
                rows = await self._fetch_on(pool, sql, params)
            except _LOST_CONNECTION:
                # Cut under the query (a restart, a failover): a read, so asked again on a fresh one.
                rows = await self._fetch_on(pool, sql, params)
        except asyncpg.UndefinedTableError:
            raise TradeStoreError(
                f"no table {self.table}: load shipments with `leadwire ingest shipments FILE`"
            ) from None
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as exc:
            _log.warning("trade query failed: %s: %s", type(exc).__name__, exc)
            raise TradeStoreError(f"trade query failed ({type(exc).__name__})") from exc
        return [tuple(row) for row in rows]

    async def _fetch_on(self, pool: asyncpg.Pool, sql: str, params: Sequence[Any]) -> list[asyncpg.Record]:
        # The wait for a free connection is bounded too (a trade report holds four at once).
        async with pool.acquire(timeout=self._timeout) as connection:
            return await connection.fetch(sql, *params, timeout=self._timeout)

    async def company_names(self, role: Role) -> list[str]:
        cached = self._names.get(role)
        if cached is not None and time.monotonic() - cached[0] < NAMES_TTL_SECONDS:
            return cached[1]
        rows = await self._fetch(f"SELECT DISTINCT {role}_name FROM {self.table} ORDER BY 1", ())
        names = [row[0] for row in rows if row[0]]
        if cached is not None and cached[1] == names:
            names = cached[1]  # the same list object: candidates keep their matching keys for it
        self._names[role] = (time.monotonic(), names)
        return names

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def _connected(self) -> asyncpg.Pool:
        async with self._pool_lock:
            if self._pool is None:
                try:
                    self._pool = await asyncpg.create_pool(
                        self._dsn, min_size=0, max_size=self._max_connections, timeout=self._timeout
                    )
                except (asyncpg.PostgresError, OSError, TimeoutError) as exc:
                    _log.warning("cannot reach the trade database: %s", exc)
                    raise TradeStoreError("cannot reach the trade database") from exc
            return self._pool
