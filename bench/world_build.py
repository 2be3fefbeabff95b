"""Sandbox world build: wall time and size on disk per file, per size, against a baseline that bulk-loads
the same row counts of trivial rows into SQLite and DuckDB (so the figure reads as a ratio).

Run: .venv/bin/python bench/world_build.py [--sizes small,default] [--seed 7]
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from datetime import date
from pathlib import Path

import duckdb

from _support import emit, emit_triple, note
from leadwire.sandbox.config import size_config
from leadwire.sandbox.world import build_world

TARGET = "issue target: default build <= 180 s on 2 cores, indexes included"


def baseline_seconds(counts: dict[str, int], work: Path) -> float:
    """Bulk-load the world's row counts as (id, 'x') rows: the floor any generator pays to store them."""
    started = time.perf_counter()
    con = sqlite3.connect(work / "baseline.db", isolation_level=None)
    con.execute("PRAGMA journal_mode = OFF")
    con.execute("PRAGMA synchronous = OFF")
    con.execute("BEGIN")
    for table in ("companies", "people", "documents", "posts"):
        con.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, v TEXT)")
        con.executemany(f"INSERT INTO {table} VALUES (?, 'x')", ((i,) for i in range(counts[table])))
    con.execute("COMMIT")
    con.close()
    trade = duckdb.connect(str(work / "baseline.duckdb"))
    trade.execute("SET enable_progress_bar = false")
    trade.execute(f"CREATE TABLE shipments AS SELECT range AS id, 'x' AS v FROM range({counts['shipments']})")
    trade.close()
    return time.perf_counter() - started


def bench_size(size: str, seed: int) -> None:
    cfg = size_config(size)
    with tempfile.TemporaryDirectory(prefix=f"world-{size}-") as tmp:
        work = Path(tmp)
        stats = build_world(work / "world", seed=seed, size=size, as_of=date.today(), progress=False)
        base = baseline_seconds(stats.counts, work)
    note(
        f"{size}: {cfg.companies} companies, {cfg.people} people, {cfg.documents} documents, "
        f"{cfg.posts} posts, {cfg.shipments} shipments"
    )
    emit_triple(
        f"world_build_{size}_seconds",
        stats.seconds,
        base,
        "s",
        ratio=stats.seconds / max(base, 1e-9),
        target=TARGET if size == "default" else "build / trivial bulk load",
    )
    for name, value in stats.bytes.items():
        emit(f"world_build_{size}_{name.replace('.', '_')}_size", value / 1e6, "MB")
    for stage, seconds in stats.stage_seconds.items():
        emit(
            f"world_build_{size}_stage_{stage.split()[0]}{'_write' if '→' in stage else ''}_seconds",
            seconds,
            "s",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="small,default", help="comma-separated: small, default, large")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for size in args.sizes.split(","):
        bench_size(size.strip(), args.seed)


if __name__ == "__main__":
    main()
