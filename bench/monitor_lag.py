"""Monitor slot lag: how long the scheduler takes to start due slots, on the small sandbox world.

Ten finished lists with five hourly monitors each (the per-list bound), all due at once. One tick
(`monitor_scheduler.tick`, as a worker's background task runs it) starts them: per list one Find More
job, and four slots skipped because the list is then busy — what a user with several monitors on one
list sees. Reported: slots started per second, and the lag of the last slot of the batch (a slot
waits at most `LEADWIRE_MONITOR_TICK_SECONDS` for its tick, then this). Baseline in the same run: the
raw driver (`sqlite3`) writing what each slot writes — the run row, a job row, the monitor's next slot —
in one transaction, with no job rules, reservation or list lock.

    .venv/bin/python bench/monitor_lag.py [--world DIR] [--lists 10]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path

from _support import emit_triple, note
from _websets import WebsetHarness, small_world
from leadwire.websets import monitor_scheduler

MONITORS_PER_LIST = 5


async def measure(world: Path, lists: int) -> None:
    with tempfile.TemporaryDirectory(prefix="leadwire-monitors-") as scratch:
        async with WebsetHarness(world, Path(scratch)) as harness:
            assert harness.runtime is not None
            made = []
            for n in range(lists):
                webset = await harness.run(f"software companies {n}", count=25)
                for _ in range(MONITORS_PER_LIST):
                    body = {"webset_id": webset["id"], "cadence": {"cron": "0 * * * *"}}
                    made.append((await harness.call("POST", "/api/v2/monitors", json=body))["item"])
            due = max(datetime.fromisoformat(m["next_run_at"].replace("Z", "+00:00")) for m in made)
            started = time.perf_counter()
            taken = 0
            while (batch := await monitor_scheduler.tick(harness.runtime, due + timedelta(seconds=1))) > 0:
                taken += batch
            elapsed = time.perf_counter() - started
    raw = raw_slots(len(made))
    note(f"{len(made)} slots due at once ({lists} lists x {MONITORS_PER_LIST} monitors); {taken} taken")
    emit_triple(
        "monitor_slots_per_s",
        taken / elapsed,
        raw,
        "slots/s",
        ratio=(taken / elapsed) / raw,
        target="the scheduler's rules (job creation, reservation, list lock) around the same writes",
    )
    emit_triple(
        "monitor_batch_lag_ms",
        elapsed * 1000,
        len(made) / raw * 1000,
        "ms",
        ratio=elapsed / (len(made) / raw),
        target="lag of the batch's last slot after its tick began",
    )


def raw_slots(count: int) -> float:
    """Slots/s of the raw driver writing a run row, a job row and the monitor's next slot per slot."""
    with tempfile.TemporaryDirectory(prefix="leadwire-raw-") as scratch:
        db = sqlite3.connect(Path(scratch) / "raw.db", isolation_level=None)
        db.executescript(
            "CREATE TABLE monitors (id TEXT PRIMARY KEY, next_run_at TEXT);"
            "CREATE TABLE runs (id TEXT PRIMARY KEY, monitor_id TEXT, slot_at TEXT, job_id TEXT,"
            " UNIQUE (monitor_id, slot_at));"
            "CREATE TABLE jobs (id TEXT PRIMARY KEY, action TEXT, payload TEXT, status TEXT);"
        )
        ids = [uuid.uuid4().hex for _ in range(count)]
        db.executemany("INSERT INTO monitors VALUES (?, '2026-01-01 00:00:00')", [(i,) for i in ids])
        started = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        for monitor_id in ids:
            job_id = uuid.uuid4().hex
            db.execute("SELECT id, next_run_at FROM monitors WHERE id = ?", (monitor_id,)).fetchone()
            db.execute(
                "INSERT INTO runs VALUES (?, ?, '2026-01-01 00:00:00', ?) ON CONFLICT DO NOTHING",
                (uuid.uuid4().hex, monitor_id, job_id),
            )
            db.execute("INSERT INTO jobs VALUES (?, 'websets.find_more', '{}', 'queued')", (job_id,))
            db.execute("UPDATE monitors SET next_run_at = '2026-01-01 01:00:00' WHERE id = ?", (monitor_id,))
        db.execute("COMMIT")
        return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", type=Path, default=None)
    parser.add_argument("--lists", type=int, default=10)
    args = parser.parse_args()
    with small_world(args.world) as world:
        asyncio.run(measure(world, args.lists))


if __name__ == "__main__":
    main()
