"""Same seed, size and as_of give the same world; another seed gives another one."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import duckdb

from leadwire.sandbox.store import COLUMNS, open_world


def _digests(world_dir: Path) -> dict[str, str]:
    out = {}
    con = open_world(world_dir)
    try:
        for table in COLUMNS:
            rows = con.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
            out[table] = hashlib.sha256(repr([tuple(r) for r in rows]).encode()).hexdigest()
        meta = dict(con.execute("SELECT key, value FROM meta WHERE key <> 'built_at'").fetchall())
        out["meta"] = repr(sorted(meta.items()))
    finally:
        con.close()
    trade = duckdb.connect(str(world_dir / "trade.duckdb"), read_only=True)
    try:
        rows = trade.execute("SELECT * FROM shipments ORDER BY id").fetchall()
        out["shipments"] = hashlib.sha256(repr(rows).encode()).hexdigest()
    finally:
        trade.close()
    return out


def test_same_seed_same_world(small_world: Path, small_stats: tuple[Path, object]) -> None:
    assert _digests(small_world) == _digests(small_stats[0])


def test_other_seed_other_world(small_world: Path, other_seed_world: Path) -> None:
    first, second = _digests(small_world), _digests(other_seed_world)
    for table in (*COLUMNS, "shipments"):
        assert first[table] != second[table], table


def test_open_world_is_read_only(small_world: Path) -> None:
    con = open_world(small_world)
    try:
        try:
            con.execute("DELETE FROM companies")
        except sqlite3.OperationalError as exc:
            assert "readonly" in str(exc)
        else:
            raise AssertionError("open_world allowed a write")
    finally:
        con.close()
