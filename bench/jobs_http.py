"""Billed jobs created the way users create them — over HTTP, one job per request — to settled, on
PostgreSQL (docs/benchmarks.md, Job throughput).

Leadwire: `--jobs` (2,000) `POST /api/v2/research/contacts` (`limit` 1: a credit per contact with an
email; the sandbox contacts of a company of the `default` world), `Prefer` absent, from `--clients`
(32) concurrent HTTP/1.1 connections to one `leadwire api` process, while 2 `leadwire worker` processes
x `--concurrency` (10) drain. Figure: N / (first POST → the poll counts all N succeeded), jobs/s; the
POSTs' own rate and p50 beside it. Books after the run: all N succeeded, nothing left reserved, the
balance's charge equal to the jobs' `charged_credits` and to the `charge` entries.

Baseline (same run, same server, its own temporary database): PgQueuer with the one-statement
accounting task (bench/plugins/accounting.py), the same N jobs enqueued one per statement
(`Queries.enqueue` of one job) from the same number of concurrent connections while its 2 workers run
— a queue with no API in front of it, the floor of any API that creates jobs in it. Its handler only
accounts; Leadwire's also looks the contacts up, so the ratio (higher is better) is conservative.

    .venv/bin/python bench/jobs_http.py [--jobs 2000] [--clients 32] [--concurrency 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import asyncpg
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _support as bs
from _queues import WORKERS, WORKLOADS, PgQueuer, _check_accounting, _fund, _wait_all

REPO = Path(__file__).resolve().parents[1]
PLUGINS = "bench.plugins.unlimited"  # the plan's limits lifted: the bench measures the server


def domains(world: Path, count: int) -> list[str]:
    """Domains of companies with at least one person with an email, `count` of them (repeating)."""
    with sqlite3.connect(world / "world.db") as con:
        found = [
            row[0]
            for row in con.execute(
                "SELECT c.domain FROM companies c WHERE EXISTS (SELECT 1 FROM people p "
                "WHERE p.company_id = c.id AND p.email IS NOT NULL) ORDER BY c.id LIMIT ?",
                (count,),
            )
        ]
    return [found[i % len(found)] for i in range(count)]


async def post_all(base_url: str, key: str, bodies: list[dict[str, object]], clients: int) -> list[float]:
    """Every body POSTed once, `clients` at a time; each POST's latency (ms)."""
    headers = {"Authorization": f"Bearer {key}"}
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    queue: asyncio.Queue[dict[str, object]] = asyncio.Queue()
    for body in bodies:
        queue.put_nowait(body)
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base_url, timeout=60.0, limits=limits) as http:

        async def client() -> None:
            while not queue.empty():
                body = queue.get_nowait()
                started = time.perf_counter()
                response = await http.post("/api/v2/research/contacts", json=body, headers=headers)
                latencies.append((time.perf_counter() - started) * 1000)
                if response.status_code != 202:
                    raise RuntimeError(f"POST answered {response.status_code}: {response.text[:300]}")

        await asyncio.gather(*(client() for _ in range(clients)))
    return latencies


async def leadwire_books(dsn: str, jobs: int) -> str:
    connection = await asyncpg.connect(dsn)
    try:
        row = await connection.fetchrow(
            "SELECT (SELECT sum(charged) FROM credit_balances) AS charged, "
            "(SELECT sum(reserved) FROM credit_balances) AS reserved, "
            "(SELECT coalesce(sum(amount), 0) FROM credit_entries WHERE kind = 'charge') AS charge_entries, "
            "(SELECT coalesce(sum(charged_credits), 0) FROM jobs) AS jobs_charged, "
            "(SELECT count(*) FROM jobs WHERE status = 'succeeded') AS succeeded"
        )
    finally:
        await connection.close()
    assert row is not None
    text = (
        f"succeeded {row['succeeded']}/{jobs}, charged {row['charged']} (entries {row['charge_entries']}, "
        f"jobs {row['jobs_charged']}), reserved {row['reserved']}"
    )
    exact = row["succeeded"] == jobs and row["reserved"] == 0
    if not (exact and row["charged"] == row["charge_entries"] == row["jobs_charged"] > 0):
        raise RuntimeError(f"Leadwire's books are off: {text}")
    return text + ": ok"


def leadwire_run(
    tmp: Path, world: Path, jobs: int, clients: int, concurrency: int
) -> tuple[float, list[float]]:
    """(jobs/s first POST → all settled, POST latencies)."""
    with bs.temp_postgres_database("lwhttp") as url:
        env = bs.leadwire_env(
            tmp / "leadwire",
            database_url=bs.sqlalchemy_url(url),
            plugins=PLUGINS,
            pycache=tmp / "pycache",
            LEADWIRE_WORLD_DIR=str(world),
            LEADWIRE_WORKER_CONCURRENCY=str(concurrency),
        )
        bs.run_checked(bs.leadwire_cmd("migrate"), env)
        _, keys = asyncio.run(bs.create_account(bs.sqlalchemy_url(url), credits=jobs))
        port = str(bs.free_port())
        workers = [
            bs.Process(bs.leadwire_cmd("worker"), env, tmp / f"worker-{i}.log") for i in range(WORKERS)
        ]
        try:
            with bs.running(bs.leadwire_cmd("api", "--port", port), env, tmp / "api.log") as api:
                base = f"http://127.0.0.1:{port}"
                bs.wait_http_ok(f"{base}/readyz", api, timeout=120)
                bodies: list[dict[str, object]] = [{"domain": d, "limit": 1} for d in domains(world, jobs)]
                started = time.time()
                latencies = asyncio.run(post_all(base, keys[0][1], bodies, clients))
                done = asyncio.run(
                    _wait_all(
                        url,
                        "SELECT count(*) FROM jobs WHERE status = 'succeeded'",
                        "SELECT count(*) FROM jobs WHERE status IN ('failed', 'cancelled')",
                        jobs,
                        workers,
                        300,
                    )
                )
        finally:
            for worker in workers:
                worker.stop()
        bs.note(f"leadwire books: {asyncio.run(leadwire_books(url, jobs))}")
    return jobs / (done - started), latencies


async def _enqueue_one_by_one(dsn: str, jobs: int, clients: int) -> None:
    from pgqueuer.db import AsyncpgDriver
    from pgqueuer.queries import Queries

    refs: asyncio.Queue[int] = asyncio.Queue()
    for ref in range(jobs):
        refs.put_nowait(ref)

    async def client() -> None:
        connection = await asyncpg.connect(dsn)
        try:
            queries = Queries(AsyncpgDriver(connection))
            while not refs.empty():
                ref = refs.get_nowait()
                payload = json.dumps({"account": "acct-000", "ref": str(ref)}).encode()
                await queries.enqueue(["bench.account"], [payload], [0])
        finally:
            await connection.close()

    await asyncio.gather(*(client() for _ in range(clients)))


def pgqueuer_run(tmp: Path, jobs: int, clients: int, concurrency: int) -> float:
    system = PgQueuer(tmp, concurrency)
    workload = WORKLOADS["one_account"]
    with bs.temp_postgres_database("pgqhttp") as url:
        system.dsn = url
        system.install()
        system.warm_up()
        asyncio.run(_fund(url, workload, jobs))
        workers = system.start_workers(WORKERS)
        try:
            started = time.time()
            asyncio.run(_enqueue_one_by_one(url, jobs, clients))
            done = system.wait_all(jobs, workers, 300)
        finally:
            for worker in workers:
                worker.stop()
        finished = asyncio.run(_fetch_done(url, system.done_sql))
        bs.note(f"pgqueuer books: {_check_accounting(url, workload, jobs, finished)}")
    return jobs / (done - started)


async def _fetch_done(dsn: str, sql: str) -> int:
    connection = await asyncpg.connect(dsn)
    try:
        return int(await connection.fetchval(sql))
    finally:
        await connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--world-dir", type=Path, default=REPO / "var" / "bench-world-default" / "world")
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--concurrency", type=int, default=10)
    args = parser.parse_args()
    if not bs.postgres_reachable():
        bs.note(f"jobs_http skipped: PostgreSQL not reachable at {bs.PG_URL}")
        return
    world = args.world_dir.resolve()
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-jobs-http-") as tmp_name:
        tmp = Path(tmp_name)
        ours, latencies = leadwire_run(tmp, world, args.jobs, args.clients, args.concurrency)
        floor = pgqueuer_run(tmp, args.jobs, args.clients, args.concurrency)
    bs.emit_triple(
        "jobs_throughput_billed_http",
        ours,
        floor,
        "jobs/s",
        ratio=bs.safe_ratio(ours, floor),
        target=f"{args.clients} HTTP clients → settled vs PgQueuer enqueued one by one (no API); target ≥ 1: "
        f"{bs.verdict(ours >= floor)}",
    )
    bs.emit(
        "jobs_http_post_p50_ms",
        bs.percentile(latencies, 50),
        "ms",
        note=f"p99 {bs.percentile(latencies, 99):.1f} ms",
    )


if __name__ == "__main__":
    main()
