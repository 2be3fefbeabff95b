"""`leadwire ingest shipments FILE`: loads customs shipment records from CSV or Parquet into the trade store.

Schema: the columns of `trade_schema.COLUMNS` (name, kind, required, doc), as the CSV header or the
Parquet column names; any other column is an error. Defaults: quantity and weight_kg 0,
origin_country3 / destination_country3 the exporter's / importer's country, in_imports true,
in_exports false. A row with a known `id` replaces the stored one (upsert by id).

All or nothing: the file is read into an in-memory DuckDB table and validated there with SQL
(vectorised, so millions of rows take seconds); every problem is reported by line (the CSV header is
line 1; a Parquet row's line is its 1-based index) and field, capped at `MAX_ERRORS` with a count of
the rest, and a file with any error writes nothing.

DuckDB store (`<world_dir>/trade.duckdb`): the API and worker processes hold that file open
read-only, and DuckDB allows no writer beside readers. So the ingest writes copy-on-write: it copies
the file to a temporary sibling (or creates one with the sandbox's `shipments` table), upserts there in
one transaction, checkpoints, fsyncs and atomically renames it over `trade.duckdb`. Open readers keep
the old inode until they notice the new file (inode/mtime) and reopen; a failed ingest leaves the
original untouched. An exclusive `flock` on `trade.duckdb.lock` serialises concurrent ingests.

PostgreSQL store (table `trade_shipments`): one transaction creates the table if needed
(`POSTGRES_DDL`), COPYs the rows in batches into a temporary table and upserts with
`INSERT ... ON CONFLICT (id) DO UPDATE` (rows that are equal to the stored ones are left alone).
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import fcntl
import os
import re
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pycountry

from leadwire.providers.trade_schema import (
    COLUMN_NAMES,
    COLUMNS,
    DUCKDB_FILE,
    DUCKDB_TABLE,
    POSTGRES_DDL,
    POSTGRES_TABLE,
)
from leadwire.sandbox.ingest import IngestError, IngestReport
from leadwire.sandbox.trade import write_for_companies

STORES = ("duckdb", "postgres")
MAX_ERRORS = 100
MAX_NAME_LENGTH = 300
_BATCH_ROWS = 50_000
_REQUIRED = tuple(c.name for c in COLUMNS if c.required)
_COUNTRIES = ("importer_country3", "exporter_country3", "origin_country3", "destination_country3")
_NUMBERS = ("quantity", "weight_kg", "amount_usd")
_BOOLEANS = ("in_imports", "in_exports")
_NAMES = ("importer_name", "exporter_name", "importer_id", "exporter_id")
_TRUE, _FALSE = "('true', '1')", "('false', '0')"


@dataclass
class ShipmentIngestReport(IngestReport):
    """IngestReport plus how many errors were left out of `errors` (which holds at most MAX_ERRORS)."""

    errors_truncated: int = 0


def ingest_shipments(
    path: Path, *, store: str, world_dir: Path, database_url: str | None
) -> ShipmentIngestReport:
    """Validates `path` (.csv or .parquet) and, if every row is valid, upserts it into the trade store."""
    if store not in STORES:
        raise ValueError(f"trade store must be one of {', '.join(STORES)}, not {store!r}")
    if store == "postgres" and not database_url:
        raise ValueError(
            "the postgres trade store needs LEADWIRE_TRADE_DATABASE_URL or LEADWIRE_DATABASE_URL"
        )
    path = Path(path)
    report = ShipmentIngestReport("shipments", str(path))
    con = duckdb.connect()
    try:
        present = _stage(con, path, report)
        if present is None:
            return report
        _validate(con, present, report)
        if not report.accepted:
            return report
        con.execute(f"CREATE TABLE clean AS SELECT {', '.join(_clean_exprs())} FROM src")
        con.execute("DROP TABLE src")
        if store == "duckdb":
            _write_duckdb(con, Path(world_dir), report)
        else:
            asyncio.run(_write_postgres(con, str(database_url), report))
    finally:
        con.close()
    return report


# Reading -------------------------------------------------------------------------------------------


def _stage(con: duckdb.DuckDBPyConnection, path: Path, report: ShipmentIngestReport) -> set[str] | None:
    """Loads the file into table `src` (one VARCHAR per schema column, trimmed, '' as NULL) and view
    `v` (src plus `_line`); returns the schema columns the file has. None, with errors in the report,
    if the file cannot be read."""
    suffix = path.suffix.lower()
    if not path.is_file():
        report.error(0, None, f"no such file: {path}")
        return None
    if suffix not in (".csv", ".parquet"):
        report.error(0, None, "unsupported file type: use .csv or .parquet")
        return None
    try:
        opened = _csv_source(path, report) if suffix == ".csv" else _parquet_source(con, path)
        if opened is None:
            return None
        source, names, first_line = opened
        present = _check_header(names, report)
        exprs = [
            f"NULLIF(trim(CAST({_ident(present[c])} AS VARCHAR), ' \t\r\n'), '') AS {c}"
            if c in present
            else f"CAST(NULL AS VARCHAR) AS {c}"
            for c in COLUMN_NAMES
        ]
        con.execute(f"CREATE TABLE src AS SELECT {', '.join(exprs)} FROM {source}", [str(path)])
    except (duckdb.Error, UnicodeDecodeError, csv.Error) as exc:
        report.error(_error_line(str(exc)), None, f"cannot read the file: {_first_lines(str(exc))}")
        return None
    # The insertion order of `src` is the file's order (DuckDB preserves it), so rowid is the data row
    # index. For CSV, line = index + 2 (the header is line 1): exact unless a quoted cell of an earlier
    # row spans lines, in which case the number counts records, not physical lines.
    con.execute(f"CREATE VIEW v AS SELECT rowid + {first_line} AS _line, * FROM src")
    report.rows = _scalar(con, "SELECT count(*) FROM src")
    return set(present)


def _csv_source(path: Path, report: ShipmentIngestReport) -> tuple[str, list[str], int] | None:
    """The header, read with Python's csv module, names the columns explicitly: DuckDB's sniffer then
    cannot misread the dialect, and ragged rows fail with their line number (strict mode)."""
    with path.open(encoding="utf-8-sig", newline="") as fh:
        header = next(csv.reader(fh), None)
    if not header:
        report.error(1, None, "empty file: the first line must be the header")
        return None
    names = [h.strip().lower() for h in header]
    seen: set[str] = set()
    columns = []
    for i, name in enumerate(names):
        known = name in COLUMN_NAMES and name not in seen
        seen.add(name)
        columns.append(f"{_quote(name if known else f'_column{i}')}: 'VARCHAR'")
    source = (
        "read_csv(?, auto_detect=false, header=true, delim=',', quote='\"', escape='\"', "
        f"strict_mode=true, columns={{{', '.join(columns)}}})"
    )
    return source, names, 2


def _parquet_source(con: duckdb.DuckDBPyConnection, path: Path) -> tuple[str, list[str], int]:
    described = con.execute("SELECT * FROM read_parquet(?) LIMIT 0", [str(path)]).description or []
    return "read_parquet(?)", [str(d[0]) for d in described], 1


def _check_header(names: list[str], report: ShipmentIngestReport) -> dict[str, str]:
    """Schema column -> the file's column name, for the schema columns the file has."""
    present: dict[str, str] = {}
    for name in names:
        key = name.strip().lower()
        if key not in COLUMN_NAMES:
            report.error(1, name, "unknown column")
        elif key in present:
            report.error(1, name, "duplicate column")
        else:
            present[key] = name
    for name in _REQUIRED:
        if name not in present:
            report.error(1, name, "missing required column")
    return present


def _first_lines(message: str) -> str:
    """The gist of a DuckDB error: its first line and, for a CSV error, the column count line."""
    lines = message.splitlines() or [""]
    return "; ".join([lines[0], *[x for x in lines[1:] if x.startswith("Expected Number of Columns")]])


def _error_line(message: str) -> int:
    match = re.search(r"Line: (\d+)", message)
    return int(match.group(1)) if match else 0


# Validation ----------------------------------------------------------------------------------------


def _value_checks() -> list[tuple[str, str, str]]:
    """(field, SQL condition that marks a bad value, message); applied to the present values only."""
    number = "isfinite(TRY_CAST({c} AS DOUBLE)) AND TRY_CAST({c} AS DOUBLE) >= 0"
    date = "regexp_full_match(date, '[0-9]{4}-[0-9]{2}-[0-9]{2}') AND TRY_CAST(date AS DATE) IS NOT NULL"
    checks = [
        (
            "id",
            "regexp_full_match(id, '[0-9]+') AND TRY_CAST(id AS BIGINT) > 0",
            "must be a positive integer",
        ),
        ("date", date, "must be a real date, YYYY-MM-DD"),
        ("hs_code", "regexp_full_match(hs_code, '([0-9]{2}){1,5}')", "must be 2 to 10 digits, an even count"),
    ]
    checks += [(c, f"upper({c}) IN (SELECT code FROM iso3)", "must be an ISO 3166-1 alpha-3 code")
               for c in _COUNTRIES]  # fmt: skip
    checks += [(c, number.format(c=c), "must be a number >= 0") for c in _NUMBERS]
    checks += [(c, f"lower({c}) IN ('true', 'false', '1', '0')", "must be true, false, 1 or 0")
               for c in _BOOLEANS]  # fmt: skip
    checks += [(c, f"length({c}) <= {MAX_NAME_LENGTH}", f"must be at most {MAX_NAME_LENGTH} characters")
               for c in _NAMES]  # fmt: skip
    return checks


def _checks(present: set[str]) -> list[tuple[str, str, str]]:
    """(field, SQL condition that marks a bad row of view v, message). A missing required column is
    a header error already, not one per row."""
    checks = [(c, f"{c} IS NULL", "is required") for c in _REQUIRED if c in present]
    checks += [(c, f"{c} IS NOT NULL AND NOT coalesce({ok}, false)", msg) for c, ok, msg in _value_checks()]
    both_false = f"lower(in_imports) IN {_FALSE} AND lower(coalesce(in_exports, 'false')) IN {_FALSE}"
    checks.append(("in_imports", both_false, "in_imports and in_exports cannot both be false"))
    return checks


def _validate(con: duckdb.DuckDBPyConnection, present: set[str], report: ShipmentIngestReport) -> None:
    con.execute("CREATE TABLE iso3 (code VARCHAR)")
    con.executemany("INSERT INTO iso3 VALUES (?)", [[c.alpha_3.upper()] for c in pycountry.countries])
    rules = [
        f"SELECT _line, {i} AS ord, {_quote(name)} AS field, {_quote(message)} AS message FROM v WHERE {cond}"
        for i, (name, cond, message) in enumerate(_checks(present))
    ]
    rules.append(
        "SELECT _line, -1, 'id', 'duplicate id (first on line ' || first || ')' FROM ("
        " SELECT _line, min(_line) OVER (PARTITION BY TRY_CAST(id AS BIGINT)) AS first FROM v"
        " WHERE regexp_full_match(id, '[0-9]+') AND TRY_CAST(id AS BIGINT) > 0) WHERE _line > first"
    )
    con.execute(f"CREATE TABLE errs AS {' UNION ALL '.join(rules)}")
    total = _scalar(con, "SELECT count(*) FROM errs")
    rows = con.execute(f"SELECT _line, field, message FROM errs ORDER BY _line, ord LIMIT {MAX_ERRORS}")
    report.errors.extend(IngestError(int(line), field, message) for line, field, message in rows.fetchall())
    report.errors_truncated = max(0, total - MAX_ERRORS)


def _clean_exprs() -> list[str]:
    """Typed, defaulted, upper-cased values of the validated rows, in table order."""
    exprs = {c: c for c in COLUMN_NAMES}
    exprs.update(
        id="CAST(id AS BIGINT)",
        date="CAST(date AS DATE)",
        importer_country3="upper(importer_country3)",
        exporter_country3="upper(exporter_country3)",
        origin_country3="upper(coalesce(origin_country3, exporter_country3))",
        destination_country3="upper(coalesce(destination_country3, importer_country3))",
        quantity="coalesce(CAST(quantity AS DOUBLE), 0)",
        weight_kg="coalesce(CAST(weight_kg AS DOUBLE), 0)",
        amount_usd="CAST(amount_usd AS DOUBLE)",
        in_imports=f"coalesce(lower(in_imports) IN {_TRUE}, true)",
        in_exports=f"coalesce(lower(in_exports) IN {_TRUE}, false)",
    )
    return [f"{expr} AS {name}" for name, expr in exprs.items()]


# Writing: DuckDB -----------------------------------------------------------------------------------


def _write_duckdb(con: duckdb.DuckDBPyConnection, world_dir: Path, report: ShipmentIngestReport) -> None:
    """Copy-on-write: the stored rows and the new ones are written, laid out for companies, into a new
    file that replaces the old one at once; readers keep the old file until they reopen."""
    world_dir.mkdir(parents=True, exist_ok=True)
    target = world_dir / DUCKDB_FILE
    tmp = world_dir / f".{DUCKDB_FILE}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
    previous = tmp.with_name(tmp.name + ".previous")
    with _locked(world_dir / f"{DUCKDB_FILE}.lock"):
        wal = _wal(target)
        try:
            old, shared = (target, True) if target.exists() else (None, False)
            if old is not None and wal.exists():
                # An unclean close: a private copy of both, whose log DuckDB replays on attach.
                old, shared = previous, False
                _copy(target, previous)
                _copy(wal, _wal(previous))
            _merge_duckdb(con, old, tmp, report, shared=shared)
            _fsync(tmp)
            os.replace(tmp, target)
            _fsync(world_dir)
            wal.unlink(missing_ok=True)  # merged into the new file
        finally:
            for leftover in (tmp, previous):
                leftover.unlink(missing_ok=True)
                _wal(leftover).unlink(missing_ok=True)


def _merge_duckdb(
    con: duckdb.DuckDBPyConnection, old: Path | None, out: Path, report: ShipmentIngestReport, *, shared: bool
) -> None:
    """Write into `out` the rows of `old` that the ingest does not replace, and the ingest's rows.
    `shared`: `old` is the live file, which readers hold open: attached read-only."""
    matched = unchanged = 0
    rows = "SELECT * FROM clean"
    attached = ["dst"]
    con.execute(f"ATTACH {_quote(str(out))} AS dst")
    try:
        if old is not None:
            con.execute(f"ATTACH {_quote(str(old))} AS old{' (READ_ONLY)' if shared else ''}")
            attached.append("old")
            sql = "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'old' AND table_name = ?"
            if _scalar(con, sql, [DUCKDB_TABLE]):
                same = " AND ".join(f"s.{c} IS NOT DISTINCT FROM c.{c}" for c in COLUMN_NAMES)
                stored = f"old.{DUCKDB_TABLE}"
                matched = _scalar(con, f"SELECT count(*) FROM clean WHERE id IN (SELECT id FROM {stored})")
                unchanged = _scalar(
                    con, f"SELECT count(DISTINCT c.id) FROM clean c JOIN {stored} s ON s.id = c.id AND {same}"
                )
                columns = ", ".join(COLUMN_NAMES)
                rows = (
                    f"SELECT {columns} FROM {stored} WHERE id NOT IN (SELECT id FROM clean) "
                    f"UNION ALL SELECT {columns} FROM clean"
                )
        write_for_companies(con, rows, "dst")
        con.execute("CHECKPOINT dst")
    finally:
        for name in attached:
            con.execute(f"DETACH {name}")
    report.inserted = report.rows - matched
    report.updated = matched - unchanged
    report.unchanged = unchanged


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _copy(source: Path, dest: Path) -> None:
    shutil.copyfile(source, dest)
    shutil.copymode(source, dest)


def _wal(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# Writing: PostgreSQL -------------------------------------------------------------------------------


async def _write_postgres(con: duckdb.DuckDBPyConnection, dsn: str, report: ShipmentIngestReport) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn)  # an asyncpg DSN: Settings.resolved_trade_database_url
    try:
        async with conn.transaction():
            await conn.execute(POSTGRES_DDL)
            await conn.execute(f"CREATE TEMP TABLE _shipments_in (LIKE {POSTGRES_TABLE}) ON COMMIT DROP")
            for batch in _batches(con):
                await conn.copy_records_to_table("_shipments_in", records=batch, columns=list(COLUMN_NAMES))
            counts = await conn.fetchrow(_upsert_sql())
    finally:
        await conn.close()
    report.inserted, report.updated = int(counts[0]), int(counts[1])
    report.unchanged = report.rows - report.inserted - report.updated


def _batches(con: duckdb.DuckDBPyConnection) -> Iterator[list[tuple[Any, ...]]]:
    cursor = con.execute(f"SELECT {', '.join(COLUMN_NAMES)} FROM clean")
    while batch := cursor.fetchmany(_BATCH_ROWS):
        yield batch


def _upsert_sql() -> str:
    cols = ", ".join(COLUMN_NAMES)
    rest = [c for c in COLUMN_NAMES if c != "id"]
    assignments = ", ".join(f"{c} = EXCLUDED.{c}" for c in rest)
    old, new = ", ".join(f"t.{c}" for c in rest), ", ".join(f"EXCLUDED.{c}" for c in rest)
    return (
        f"WITH up AS (INSERT INTO {POSTGRES_TABLE} AS t ({cols}) SELECT {cols} FROM _shipments_in"
        f" ON CONFLICT (id) DO UPDATE SET {assignments} WHERE ({old}) IS DISTINCT FROM ({new})"
        " RETURNING (t.xmax = 0) AS inserted)"
        " SELECT count(*) FILTER (WHERE inserted), count(*) FILTER (WHERE NOT inserted) FROM up"
    )


# Helpers -------------------------------------------------------------------------------------------


def _scalar(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None) -> int:
    row = con.execute(sql, params).fetchone()
    return int(row[0]) if row else 0


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


__all__ = ["MAX_ERRORS", "STORES", "ShipmentIngestReport", "ingest_shipments"]
