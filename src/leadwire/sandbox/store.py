"""The world's SQLite file: the table contract of docs/sandbox-world.md as DDL, fast bulk writing
during a build, the meta table, and read-only opening for every adapter."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any
from urllib.request import pathname2url

from leadwire.sandbox.config import SCHEMA_VERSION

WORLD_DB = "world.db"
TRADE_DB = "trade.duckdb"

COLUMNS: dict[str, tuple[str, ...]] = {
    "companies": (
        "id",
        "name",
        "name_zh",
        "domain",
        "industry_code",
        "industry",
        "country",
        "country3",
        "city",
        "employees",
        "founded_year",
        "description",
        "description_zh",
        "technologies",
        "products",
        "linkedin_url",
        "trades_goods",
        "specialty",
        "revenue_usd",
        "email_pattern",
    ),
    "people": (
        "id",
        "company_id",
        "first_name",
        "last_name",
        "full_name",
        "full_name_zh",
        "title",
        "title_zh",
        "department",
        "seniority",
        "manager_id",
        "email",
        "email_status",
        "linkedin_url",
        "country",
        "city",
        "language",
    ),
    "documents": (
        "id",
        "url",
        "domain",
        "category",
        "title",
        "author",
        "published_date",
        "image",
        "text",
        "country",
        "language",
        "company_id",
        "person_id",
    ),
    "posts": (
        "id",
        "author_id",
        "author_profile_url",
        "url",
        "urn",
        "published_at",
        "text",
        "topic",
        "language",
        "like_count",
    ),
}

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE companies (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, name_zh TEXT, domain TEXT NOT NULL UNIQUE,
  industry_code TEXT, industry TEXT, country TEXT NOT NULL, country3 TEXT NOT NULL, city TEXT,
  employees INTEGER, founded_year INTEGER, description TEXT, description_zh TEXT,
  technologies TEXT NOT NULL DEFAULT '[]', products TEXT NOT NULL DEFAULT '[]', linkedin_url TEXT,
  trades_goods INTEGER NOT NULL DEFAULT 0, specialty TEXT, revenue_usd INTEGER, email_pattern TEXT
);
CREATE TABLE people (
  id TEXT PRIMARY KEY, company_id TEXT REFERENCES companies(id), first_name TEXT, last_name TEXT,
  full_name TEXT NOT NULL, full_name_zh TEXT, title TEXT, title_zh TEXT, department TEXT, seniority TEXT,
  manager_id TEXT, email TEXT, email_status TEXT, linkedin_url TEXT NOT NULL UNIQUE, country TEXT, city TEXT,
  language TEXT NOT NULL DEFAULT 'en'
);
CREATE TABLE documents (
  id TEXT PRIMARY KEY, url TEXT NOT NULL UNIQUE, domain TEXT NOT NULL, category TEXT NOT NULL, title TEXT,
  author TEXT, published_date TEXT, image TEXT, text TEXT NOT NULL, country TEXT,
  language TEXT NOT NULL DEFAULT 'en',
  company_id TEXT, person_id TEXT
);
CREATE TABLE posts (
  id TEXT PRIMARY KEY, author_id TEXT REFERENCES people(id), author_profile_url TEXT NOT NULL,
  url TEXT NOT NULL UNIQUE, urn TEXT, published_at TEXT, text TEXT NOT NULL, topic TEXT,
  language TEXT NOT NULL DEFAULT 'en', like_count INTEGER NOT NULL DEFAULT 0
);
"""

INDEXES = """
CREATE INDEX companies_country_industry ON companies (country, industry_code);
CREATE INDEX companies_industry ON companies (industry_code);
CREATE INDEX people_company ON people (company_id);
CREATE INDEX people_manager ON people (manager_id);
CREATE INDEX people_email ON people (email);
CREATE INDEX documents_company ON documents (company_id);
CREATE INDEX documents_person ON documents (person_id);
CREATE INDEX documents_category_country ON documents (category, country);
CREATE INDEX documents_domain ON documents (domain);
CREATE INDEX posts_author ON posts (author_id);
CREATE INDEX posts_author_profile ON posts (author_profile_url);
CREATE INDEX posts_topic ON posts (topic);
"""


def connect_for_build(path: Path) -> sqlite3.Connection:
    """A fresh world.db with the schema, tuned for one bulk-writing process (no journal, no fsync)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode = OFF")
    con.execute("PRAGMA synchronous = OFF")
    con.execute("PRAGMA cache_size = -262144")  # 256 MiB: index builds sort in memory
    con.execute("PRAGMA temp_store = MEMORY")
    con.executescript(SCHEMA)
    con.execute("BEGIN")
    return con


def insert_rows(
    con: sqlite3.Connection,
    table: str,
    rows: Iterable[tuple[Any, ...]],
    advance: Callable[[int], None] = lambda n: None,
    batch: int = 5000,
) -> int:
    """Bulk-inserts rows (tuples in COLUMNS order) in batches; returns how many."""
    cols = COLUMNS[table]
    sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
    total = 0
    for chunk in _batches(iter(rows), batch):
        con.executemany(sql, chunk)
        total += len(chunk)
        advance(len(chunk))
    return total


def _batches(rows: Iterator[tuple[Any, ...]], size: int) -> Iterator[list[tuple[Any, ...]]]:
    while chunk := list(islice(rows, size)):
        yield chunk


def write_meta(con: sqlite3.Connection, values: dict[str, Any]) -> None:
    """Upserts meta keys; non-string values are stored as JSON."""
    con.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [(k, v if isinstance(v, str) else json.dumps(v, sort_keys=True)) for k, v in values.items()],
    )


def table_counts(con: sqlite3.Connection) -> dict[str, int]:
    """Row counts of the four world tables."""
    return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in COLUMNS}


def create_empty_trade(path: Path) -> None:
    """A trade.duckdb with the shipments table and no rows."""
    # Imported here: `leadwire serve` asks `world_is_built` without loading DuckDB and the generators.
    import duckdb

    from leadwire.sandbox.trade import SHIPMENTS_DDL

    con = duckdb.connect(str(path))
    try:
        con.execute(SHIPMENTS_DDL)
    finally:
        con.close()


def read_meta(world_dir: Path) -> dict[str, str]:
    """The meta table of a world, or {} if there is no readable world.db."""
    path = world_dir / WORLD_DB
    if not path.exists():
        return {}
    try:
        con = open_world(world_dir)
    except sqlite3.Error:
        return {}
    try:
        return {row[0]: row[1] for row in con.execute("SELECT key, value FROM meta")}
    except sqlite3.Error:
        return {}
    finally:
        con.close()


def world_is_built(world_dir: Path) -> bool:
    """True when world_dir holds a complete world of the current schema version."""
    meta = read_meta(Path(world_dir))
    return meta.get("schema_version") == SCHEMA_VERSION and (Path(world_dir) / TRADE_DB).exists()


def swap_into_place(building: Path, world_dir: Path) -> None:
    """Renames a finished build directory over world_dir so readers never see a half-built world."""
    old = None
    if world_dir.exists():
        old = world_dir.with_name(f".{world_dir.name}.old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        os.rename(world_dir, old)
    os.rename(building, world_dir)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def create_empty_world(world_dir: Path) -> None:
    """An empty world (schema, meta, no rows) for users who ingest their own data instead of generating."""
    world_dir = Path(world_dir)
    world_dir.parent.mkdir(parents=True, exist_ok=True)
    building = world_dir.with_name(f".{world_dir.name}.building-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir()
    con = connect_for_build(building / WORLD_DB)
    try:
        for statement in filter(str.strip, INDEXES.split(";")):
            con.execute(statement)
        write_meta(
            con,
            {
                "schema_version": SCHEMA_VERSION,
                "seed": "",
                "size": "empty",
                "as_of": "",
                "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "counts": {**dict.fromkeys(COLUMNS, 0), "shipments": 0},
            },
        )
        con.execute("COMMIT")
    finally:
        con.close()
    create_empty_trade(building / TRADE_DB)
    swap_into_place(building, world_dir)


def open_world(world_dir: Path) -> sqlite3.Connection:
    """A read-only connection to world.db (rows as sqlite3.Row)."""
    path = Path(world_dir).resolve() / WORLD_DB
    if not path.exists():
        raise FileNotFoundError(f"no sandbox world at {path}")
    con = sqlite3.connect(f"file:{pathname2url(str(path))}?mode=ro", uri=True, check_same_thread=False)
    con.row_factory = sqlite3.Row
    return con
