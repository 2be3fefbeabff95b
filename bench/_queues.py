"""Job-queue systems timed by bench/jobs_throughput.py: the common measurement, and the baselines.

A `System` runs one `Workload` in a fresh temporary database on the bench's PostgreSQL server: it
installs its schema, enqueues N jobs in transactions (the clock starts at the first one), starts
`WORKERS` worker processes, polls a count of finished jobs until it reaches N, reads the first and last
finish times, and checks its own books (`check`) before the database is dropped.

Baselines here: procrastinate (bench/plugins/pq_tasks.py) and PgQueuer (bench/plugins/pgq_tasks.py),
each with a no-op task and a task doing a billed job's accounting (bench/plugins/accounting.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import asyncpg

import _support as bs

WORKERS = 2


@dataclasses.dataclass(frozen=True)
class Workload:
    """What is enqueued: `billed` jobs (Leadwire's `bench.billed`, the baselines' accounting task) or
    no-ops, spread over `accounts` accounts."""

    key: str
    label: str
    billed: bool
    accounts: int


WORKLOADS = {
    w.key: w
    for w in (
        Workload("one_account", "billed, one account", billed=True, accounts=1),
        Workload("50_accounts", "billed, 50 accounts", billed=True, accounts=50),
        Workload("noop", "no-op, one account", billed=False, accounts=1),
    )
}


def account_jobs(jobs: int, accounts: int) -> list[int]:
    """Jobs per account: N split evenly, the remainder one each to the first accounts."""
    return [jobs // accounts + (1 if i < jobs % accounts else 0) for i in range(accounts)]


def batch_plan(jobs: int, accounts: int, batch: int) -> list[tuple[int, int]]:
    """(account index, job count) per enqueue transaction: the accounts in turn (round-robin), each
    transaction `min(batch, what the account has left)` jobs of one account. 3,000 jobs over 1 account:
    30 x 100; over 50 accounts: 50 x 60."""
    left = account_jobs(jobs, accounts)
    plan: list[tuple[int, int]] = []
    while any(left):
        for account, remaining in enumerate(left):
            if remaining:
                count = min(batch, remaining)
                plan.append((account, count))
                left[account] -= count
    return plan


@dataclasses.dataclass
class Run:
    jobs: int
    enqueue_seconds: float
    total_seconds: float
    drain_seconds: float
    first_finished_seconds: float  # workers started → first job finished (start-up)
    tail_seconds: float  # last job finished → all counted by the poll
    books: str = ""  # what `System.check` found

    @property
    def throughput(self) -> float:
        return self.jobs / self.total_seconds

    @property
    def enqueue_rate(self) -> float:
        return self.jobs / self.enqueue_seconds

    @property
    def drain_rate(self) -> float:
        return self.jobs / self.drain_seconds if self.drain_seconds > 0 else float("nan")

    def timings(self) -> str:
        return (
            f"enqueue {self.enqueue_seconds:.2f}s, workers started → first job finished "
            f"{self.first_finished_seconds:.2f}s, first → last finished {self.drain_seconds:.2f}s, "
            f"last finished → counted {self.tail_seconds:.2f}s, total {self.total_seconds:.2f}s"
        )


class BooksError(RuntimeError):
    """A run's sums are not what N billed jobs must leave behind."""


async def _fetchrow(dsn: str, sql: str, *args: Any) -> asyncpg.Record:
    connection = await asyncpg.connect(dsn)
    try:
        row = await connection.fetchrow(sql, *args)
    finally:
        await connection.close()
    assert row is not None
    return row


async def _execute(dsn: str, sql: str, *args: Any) -> None:
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute(sql, *args)
    finally:
        await connection.close()


async def _wait_all(
    dsn: str, count_sql: str, failed_sql: str, jobs: int, workers: list[bs.Process], timeout: float
) -> float:
    """Polls until the finished count reaches `jobs`; returns that moment (time.time())."""
    connection = await asyncpg.connect(dsn)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done = await connection.fetchval(count_sql)
            if done >= jobs:
                return time.time()
            for worker in workers:
                if not worker.alive():
                    raise RuntimeError(f"a worker exited:\n{worker.tail()}")
            if await connection.fetchval(failed_sql):
                raise RuntimeError(f"some jobs failed:\n{workers[0].tail()}")
            await asyncio.sleep(0.05)
        raise RuntimeError(f"{done} of {jobs} jobs finished within {timeout}s:\n{workers[0].tail()}")
    finally:
        await connection.close()


class System:
    """One side of the comparison. Subclasses say how to install, enqueue, count and check."""

    name = ""
    db_tag = ""
    done_sql = ""  # count of jobs finished successfully
    failed_sql = ""  # count of jobs failed
    finished_sql = ""  # (first, last) finish time of the jobs
    warm_up_clear_sql = ""  # run after the warm-up: its job must not count in the timed run

    def __init__(self, tmp: Path, concurrency: int) -> None:
        self.tmp = tmp
        self.concurrency = concurrency
        self.dsn = ""
        self.warmed = False

    # --- per system --------------------------------------------------------------------------------

    def install(self) -> None:
        """Schema into the fresh database `self.dsn`."""
        raise NotImplementedError

    def worker_argv(self) -> list[str]:
        raise NotImplementedError

    def worker_env(self) -> dict[str, str]:
        raise NotImplementedError

    def enqueue(self, workload: Workload, jobs: int, batch: int) -> float:
        """Untimed set-up (accounts, credits), then the jobs; time.time() of the first enqueue."""
        raise NotImplementedError

    def check(self, workload: Workload, jobs: int) -> str:
        """The books after the run, as a note; raises BooksError when a sum is off."""
        raise NotImplementedError

    # --- common ------------------------------------------------------------------------------------

    def start_workers(self, count: int) -> list[bs.Process]:
        return [
            bs.Process(self.worker_argv(), self.worker_env(), self.tmp / f"{self.name}-worker-{i}.log")
            for i in range(count)
        ]

    def wait_all(self, jobs: int, workers: list[bs.Process], timeout: float) -> float:
        return asyncio.run(_wait_all(self.dsn, self.done_sql, self.failed_sql, jobs, workers, timeout))

    def warm_up(self) -> None:
        """One worker start and one no-op job, untimed: fills the bytecode cache, so the timed runs
        start like an installed system's second start. The job is deleted after."""
        self.enqueue(WORKLOADS["noop"], 1, 1)
        workers = self.start_workers(1)
        try:
            self.wait_all(1, workers, 60.0)
        finally:
            workers[0].stop()
        asyncio.run(_execute(self.dsn, self.warm_up_clear_sql))
        self.warmed = True

    def run(self, workload: Workload, jobs: int, batch: int, timeout: float) -> Run:
        """The workload in a fresh temporary database (the first run of a system warms it up first)."""
        with bs.temp_postgres_database(self.db_tag) as url:
            self.dsn = url
            self.install()
            if not self.warmed:
                self.warm_up()
            first_enqueue = self.enqueue(workload, jobs, batch)
            enqueued = time.time()
            workers = self.start_workers(WORKERS)
            workers_started = time.time()
            try:
                done = self.wait_all(jobs, workers, timeout)
            finally:
                for worker in workers:
                    worker.stop()
            first, last = asyncio.run(_fetchrow(self.dsn, self.finished_sql))
            books = self.check(workload, jobs)
        return Run(
            jobs=jobs,
            enqueue_seconds=enqueued - first_enqueue,
            total_seconds=done - first_enqueue,
            drain_seconds=last.timestamp() - first.timestamp(),
            first_finished_seconds=first.timestamp() - workers_started,
            tail_seconds=done - last.timestamp(),
            books=books,
        )


# --- the baselines' accounting ------------------------------------------------------------------------


def _account_id(index: int) -> str:
    return f"acct-{index:03d}"


async def _fund(dsn: str, workload: Workload, jobs: int) -> list[tuple[str, int]]:
    """Accounting tables' balances: each account funded with exactly its number of jobs."""
    funded = [(_account_id(i), n) for i, n in enumerate(account_jobs(jobs, workload.accounts))]
    connection = await asyncpg.connect(dsn)
    try:
        await connection.executemany(
            "INSERT INTO bench_balance (account_id, balance) VALUES ($1, $2)", funded
        )
    finally:
        await connection.close()
    return funded


def _check_accounting(dsn: str, workload: Workload, jobs: int, done: int) -> str:
    """Balances down by exactly N in all, N ledger rows of 1 credit, one per job."""
    if not workload.billed:
        return f"jobs done {done}/{jobs}: ok" if done == jobs else f"jobs done {done}/{jobs}"
    row = asyncio.run(
        _fetchrow(
            dsn,
            "SELECT (SELECT coalesce(sum(balance), 0) FROM bench_balance) AS balance, "
            "count(*) AS rows, coalesce(sum(amount), 0) AS amount, count(DISTINCT job_ref) AS refs "
            "FROM bench_ledger",
        )
    )
    # Each account was funded with its number of jobs: N in all before, 0 after.
    text = (
        f"balances {jobs} -> {row['balance']} (debited {jobs - row['balance']}); ledger rows "
        f"{row['rows']}, sum {row['amount']}, distinct job refs {row['refs']}; jobs done {done}/{jobs}"
    )
    expected = {"debited": jobs, "rows": jobs, "amount": jobs, "refs": jobs, "done": jobs}
    found = {
        "debited": jobs - row["balance"],
        "rows": row["rows"],
        "amount": row["amount"],
        "refs": row["refs"],
        "done": done,
    }
    if found != expected:
        raise BooksError(f"accounting off: {text}")
    return f"{text}: ok"


# --- procrastinate -----------------------------------------------------------------------------------


class Procrastinate(System):
    name = "procrastinate"
    db_tag = "pq"
    done_sql = "SELECT count(*) FROM procrastinate_jobs WHERE status = 'succeeded'"
    failed_sql = "SELECT count(*) FROM procrastinate_jobs WHERE status = 'failed'"
    finished_sql = "SELECT min(at), max(at) FROM procrastinate_events WHERE type = 'succeeded'"
    warm_up_clear_sql = "DELETE FROM procrastinate_jobs"
    APP = "bench.plugins.pq_tasks.app"

    def worker_env(self) -> dict[str, str]:
        return bs.child_env(
            self.tmp / "pycache",
            BENCH_PROCRASTINATE_CONNINFO=self.dsn,
            BENCH_ACCOUNTING_POOL=str(self.concurrency),
        )

    def _cli(self) -> list[str]:
        return [str(bs.BIN / "procrastinate"), "--app", self.APP]

    def install(self) -> None:
        bs.run_checked([*self._cli(), "schema", "--apply"], self.worker_env())
        asyncio.run(_execute(self.dsn, bs.import_repo_module("bench.plugins.accounting").SCHEMA))

    def worker_argv(self) -> list[str]:
        return [*self._cli(), "worker", "--concurrency", str(self.concurrency)]

    def enqueue(self, workload: Workload, jobs: int, batch: int) -> float:
        return asyncio.run(self._enqueue(workload, jobs, batch))

    async def _enqueue(self, workload: Workload, jobs: int, batch: int) -> float:
        import procrastinate

        pq = bs.import_repo_module("bench.plugins.pq_tasks")
        plan = batch_plan(jobs, workload.accounts, batch)
        if workload.billed:
            await _fund(self.dsn, workload, jobs)
        # Each run has its own database: the app's tasks, deferred through a connector to this one.
        connector = procrastinate.PsycopgConnector(conninfo=self.dsn)
        with pq.app.replace_connector(connector) as app:
            async with app.open_async():
                first = time.time()
                ref = 0
                for account, count in plan:
                    if workload.billed:
                        arguments = [
                            {"account": _account_id(account), "ref": str(ref + i)} for i in range(count)
                        ]
                        await pq.account.batch_defer_async(*arguments)
                    else:
                        await pq.noop.batch_defer_async(*[{} for _ in range(count)])
                    ref += count
                return first

    def check(self, workload: Workload, jobs: int) -> str:
        done = asyncio.run(_fetchrow(self.dsn, self.done_sql))[0]
        return _check_accounting(self.dsn, workload, jobs, done)


# --- PgQueuer ----------------------------------------------------------------------------------------


class PgQueuer(System):
    """PgQueuer deletes a finished job from its queue table and writes a `pgqueuer_log` row with the
    job's final status (`successful`) in the same statement, batched by the worker's log buffer; its
    periodic aggregation into `pgqueuer_statistics` only marks those rows `aggregated`. So a job is
    done when its `successful` log row exists, and its `created` is the finish time."""

    name = "pgqueuer"
    db_tag = "pgq"
    done_sql = "SELECT count(*) FROM pgqueuer_log WHERE status = 'successful'"
    failed_sql = "SELECT count(*) FROM pgqueuer_log WHERE status IN ('exception', 'failed')"
    finished_sql = "SELECT min(created), max(created) FROM pgqueuer_log WHERE status = 'successful'"
    warm_up_clear_sql = "DELETE FROM pgqueuer; DELETE FROM pgqueuer_log; DELETE FROM pgqueuer_statistics"

    def worker_env(self) -> dict[str, str]:
        return bs.child_env(
            self.tmp / "pycache", BENCH_PGQUEUER_DSN=self.dsn, BENCH_ACCOUNTING_POOL=str(self.concurrency)
        )

    def install(self) -> None:
        bs.run_checked([str(bs.BIN / "pgq"), "--pg-dsn", self.dsn, "install"], self.worker_env())
        asyncio.run(_execute(self.dsn, bs.import_repo_module("bench.plugins.accounting").SCHEMA))

    def worker_argv(self) -> list[str]:
        # PgQueuer's per-worker cap is `max_concurrent_tasks` (jobs this worker holds, enforced in the
        # dequeue query), which must be at least twice `batch_size` (jobs per dequeue).
        return [
            sys.executable,
            "-m",
            "bench.plugins.pgq_tasks",
            "--max-concurrent-tasks",
            str(self.concurrency),
            "--batch-size",
            str(max(1, self.concurrency // 2)),
        ]  # `pgq run`'s equivalent: see bench/plugins/pgq_tasks.py

    def enqueue(self, workload: Workload, jobs: int, batch: int) -> float:
        return asyncio.run(self._enqueue(workload, jobs, batch))

    async def _enqueue(self, workload: Workload, jobs: int, batch: int) -> float:
        from pgqueuer.db import AsyncpgDriver
        from pgqueuer.queries import Queries

        plan = batch_plan(jobs, workload.accounts, batch)
        if workload.billed:
            await _fund(self.dsn, workload, jobs)
        entrypoint = "bench.account" if workload.billed else "bench.noop"
        connection = await asyncpg.connect(self.dsn)
        try:
            queries = Queries(AsyncpgDriver(connection))
            first = time.time()
            ref = 0
            for account, count in plan:
                payloads: list[bytes | None] = [
                    json.dumps({"account": _account_id(account), "ref": str(ref + i)}).encode()
                    if workload.billed
                    else None
                    for i in range(count)
                ]
                # One multi-row INSERT statement (its own transaction) per batch.
                await queries.enqueue([entrypoint] * count, payloads, [0] * count)
                ref += count
            return first
        finally:
            await connection.close()

    def check(self, workload: Workload, jobs: int) -> str:
        done = asyncio.run(_fetchrow(self.dsn, self.done_sql))[0]
        return _check_accounting(self.dsn, workload, jobs, done)


# --- the baselines with batched accounting ----------------------------------------------------------


class ProcrastinateBatched(Procrastinate):
    """procrastinate whose tasks account with a batched flush (BENCH_ACCOUNTING=batched)."""

    name = "procrastinate_batched"
    db_tag = "pqb"

    def worker_env(self) -> dict[str, str]:
        return {**super().worker_env(), "BENCH_ACCOUNTING": "batched"}


class PgQueuerBatched(PgQueuer):
    """PgQueuer whose tasks account with a batched flush (BENCH_ACCOUNTING=batched)."""

    name = "pgqueuer_batched"
    db_tag = "pgqb"

    def worker_env(self) -> dict[str, str]:
        return {**super().worker_env(), "BENCH_ACCOUNTING": "batched"}
