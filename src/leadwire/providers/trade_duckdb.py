"""Trade store adapter: the embedded DuckDB file `<world_dir>/trade.duckdb` (the default).

Every API and worker process opens the file read-only, so any number of them share it. An ingest
writes a new file and renames it over the old one (`trade_ingest`); each query first compares the
file's identity with the one it opened and reopens when it changed, so readers see new rows without a
restart and never see half an ingest. DuckDB is synchronous: queries run in worker threads, each on
its own cursor, bounded by DuckDB's configured memory limit and thread count.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from leadwire.providers.trade import Role, TradeStore, TradeStoreError
from leadwire.providers.trade_schema import DUCKDB_TABLE
from leadwire.sandbox.trade import BY_EXPORTER_TABLE

_log = logging.getLogger(__name__)  # the cause in full for the operator; the job says less

_FileIdentity = tuple[int, int, int]
_ALIAS = "trade"  # the attached file's catalog name


class DuckDBTradeStore(TradeStore):
    # Qualified: a cursor is a new connection, which does not inherit `USE`.
    table = f"{_ALIAS}.{DUCKDB_TABLE}"

    def __init__(self, path: Path, *, memory_limit: str = "1GB", threads: int | None = None) -> None:
        self.path = path
        self._config: dict[str, Any] = {"memory_limit": memory_limit}
        if threads is not None:
            self._config["threads"] = threads
        self._lock = threading.Lock()
        self._connection: duckdb.DuckDBPyConnection | None = None
        self._identity: _FileIdentity | None = None
        self._names: dict[tuple[_FileIdentity, Role], list[str]] = {}
        # Whether the open file keeps the rows ordered by exporter too (`order_for_companies`); files
        # written before that layout do not.
        self._exporter_copy = False
        # Spills of a read-only database cannot go beside the file: each instance gets a directory of
        # its own (instances share no spill files), removed with the store.
        self._spill_dirs: list[str] = []

    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        return await asyncio.to_thread(self._run, sql, params)

    async def company_names(self, role: Role) -> list[str]:
        return await asyncio.to_thread(self._names_of, role)

    def table_of(self, role: Role) -> str:
        """The copy ordered by exporter for an exporter's questions, when the file has it (as of the
        file last opened: a file replaced since has it too, since every writer lays both out)."""
        with self._lock:
            copy = self._exporter_copy
        return f"{_ALIAS}.{BY_EXPORTER_TABLE}" if role == "exporter" and copy else self.table

    async def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
            self._connection, self._identity = None, None
            for directory in self._spill_dirs:
                shutil.rmtree(directory, ignore_errors=True)
            self._spill_dirs.clear()

    def _run(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        cursor, _ = self._cursor()
        try:
            return cursor.execute(sql, list(params)).fetchall()
        except duckdb.Error as exc:
            _log.warning("trade query failed: %s", exc)
            raise TradeStoreError(f"trade query failed ({type(exc).__name__})") from exc
        finally:
            cursor.close()

    def _names_of(self, role: Role) -> list[str]:
        # Keyed by the file the cursor reads, so names of a replaced file never fill the new one's cache.
        cursor, identity = self._cursor()
        try:
            with self._lock:
                cached = self._names.get((identity, role))
            if cached is not None:
                return cached
            rows = cursor.execute(f"SELECT DISTINCT {role}_name FROM {self.table} ORDER BY 1").fetchall()
            names = [row[0] for row in rows if row[0]]
            with self._lock:
                self._names[(identity, role)] = names
            return names
        except duckdb.Error as exc:
            _log.warning("trade query failed: %s", exc)
            raise TradeStoreError(f"trade query failed ({type(exc).__name__})") from exc
        finally:
            cursor.close()

    def _cursor(self) -> tuple[duckdb.DuckDBPyConnection, _FileIdentity]:
        """A cursor on the current file (reopened when an ingest replaced it) and that file's identity."""
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            _log.warning("no trade data at %s", self.path)
            raise TradeStoreError(
                "no trade data: build the sandbox world or run `leadwire ingest shipments FILE`"
            ) from None
        identity = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        with self._lock:
            if identity != self._identity or self._connection is None:
                self._reopen(identity)
            assert self._connection is not None and self._identity is not None
            return self._connection.cursor(), self._identity

    def _reopen(self, identity: _FileIdentity) -> None:
        # A fresh in-memory database that attaches the file: `duckdb.connect(path)` would hand back the
        # process's cached instance of the old file while any connection to it is open. The old
        # connection is dropped, not closed: cursors running on it finish on the old file.
        spill = tempfile.mkdtemp(prefix="leadwire-duckdb-")
        self._spill_dirs.append(spill)
        try:
            connection = duckdb.connect(config={**self._config, "temp_directory": spill})
            connection.execute(f"ATTACH '{_quoted(self.path)}' AS {_ALIAS} (READ_ONLY)")
        except duckdb.Error as exc:
            _log.warning("cannot open the trade data at %s: %s", self.path, exc)
            raise TradeStoreError(f"cannot open the trade data ({type(exc).__name__})") from exc
        self._connection = connection
        self._identity = identity
        self._exporter_copy = _has_table(connection, BY_EXPORTER_TABLE)
        self._names = {key: names for key, names in self._names.items() if key[0] == identity}


def _has_table(connection: duckdb.DuckDBPyConnection, name: str) -> bool:
    found = connection.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE database_name = ? AND table_name = ?", [_ALIAS, name]
    ).fetchone()
    return bool(found and found[0])


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")
