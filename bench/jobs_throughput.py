"""Job throughput, creation → succeeded, of billed jobs on PostgreSQL (docs/benchmarks.md, Job throughput).

Headline: N jobs (`--jobs`, 3,000) of the billed action `bench.billed` (bench/plugins/billed.py:
price 1 credit per unit, at most 1 unit, the handler bills 1 unit and returns `{}`), created through
`leadwire.platform.jobs.service.create_jobs` in transactions of at most `--batch` (100) jobs of one
account — each reserves 1 credit per job on the account's balance row — then 2 `leadwire worker`
processes x `--concurrency` (10) started; settlement releases the 1 reserved and charges 1. Figure:
N / (first enqueue → the moment a poll of the jobs table counts all N succeeded), jobs/s. Two shapes:
- `one_account`: one account, granted exactly N credits, creates all N (30 transactions of 100);
- `50_accounts`: 50 accounts of N/50 jobs each, each granted exactly its jobs' credits; transactions
  of min(100, jobs the account has left) jobs of one account, the accounts in turn (50 x 60).
After each billed run the books are read back and must be exact (else the bench fails): over the run's
accounts, credit_balances charged == N and reserved == 0; credit_entries reserve == release == charge
== N (and grant == N); jobs' charged_credits sum N; all N jobs succeeded.
Second figure, `noop`: N jobs of the never-billed action `bench.noop` (bench/plugins/noop.py) on one
account, the same way.

Baselines (same run, same PostgreSQL server, each run in its own temporary database; bench/_queues.py):
- procrastinate, 2 `procrastinate worker` processes x the same concurrency, jobs deferred with
  `batch_defer_async` in the same transactions (one per batch); for the billed shapes its task does
  the same accounting in one statement (a CTE, autocommit) on its own asyncpg pool
  (bench/plugins/accounting.py): debit the account's balance by 1 and append a ledger row (each account
  funded with its jobs' credits; checked after: balances down by exactly N, N ledger rows, N distinct
  job refs); for `noop`, nothing.
  Finished: `succeeded` in procrastinate_jobs; finish times from procrastinate_events.
- PgQueuer, the same tasks, 2 `pgq run` processes with `--max-concurrent-tasks` = the concurrency (its
  per-worker cap, enforced in the dequeue query; `--batch-size` half of it, the most it allows), jobs
  enqueued with `Queries.enqueue` lists (one INSERT statement per batch). PgQueuer deletes a finished
  job from its queue table and logs it to `pgqueuer_log` in the same statement: a job is done when its
  `successful` log row exists, and that row's `created` is its finish time.
Each clock starts at the first enqueue and stops when the poll (every 50 ms) counts N finished.
Ratios are Leadwire ÷ baseline (higher is better). Targets: billed jobs/s >= 3x procrastinate with
accounting (goal 5x); billed enqueue rate >= 0.5x procrastinate's; no-op jobs/s above PgQueuer's
(and >= 3x procrastinate's). Versus PgQueuer with accounting, and drain rates: informational.
The business plan caps an account at 100 active jobs, which would refuse an N-job backlog: the bench's
`Caller` carries that plan with `max_active_jobs = N + 1` (the service code runs unchanged).

Runs are interleaved per shape (Leadwire, procrastinate, PgQueuer). Before a system's first timed run,
one untimed warm-up (one no-op job, one worker start) fills the bytecode cache, so worker start-up is
that of an installed system's second start. Also printed per run: the enqueue time, workers started →
first job finished, and the drain rate (first job finished → last, without enqueue and start-up).

    .venv/bin/python bench/jobs_throughput.py [--jobs 3000] [--batch 100] [--concurrency 10]
        [--shapes one_account,50_accounts,noop] [--systems leadwire,procrastinate,pgqueuer]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import tempfile
import time
from pathlib import Path

import asyncpg

import _support as bs
from _queues import (
    WORKERS,
    WORKLOADS,
    BooksError,
    PgQueuer,
    PgQueuerBatched,
    Procrastinate,
    ProcrastinateBatched,
    Run,
    System,
    Workload,
)

SYSTEMS = ("leadwire", "procrastinate", "pgqueuer", "procrastinate_batched", "pgqueuer_batched")
# Baselines whose accounting is a batched flush: a second line for the billed shapes only.
BATCHED = ("procrastinate_batched", "pgqueuer_batched")


class Leadwire(System):
    name = "leadwire"
    db_tag = "lw"
    done_sql = "SELECT count(*) FROM jobs WHERE status = 'succeeded'"
    failed_sql = "SELECT count(*) FROM jobs WHERE status IN ('failed', 'cancelled')"
    finished_sql = "SELECT min(finished_at), max(finished_at) FROM jobs"
    warm_up_clear_sql = "DELETE FROM jobs"

    def __init__(self, tmp: Path, concurrency: int) -> None:
        super().__init__(tmp, concurrency)
        self.user_ids: list[str] = []

    @property
    def database_url(self) -> str:
        return bs.sqlalchemy_url(self.dsn)

    def worker_env(self) -> dict[str, str]:
        return bs.leadwire_env(
            self.tmp / "leadwire",
            database_url=self.database_url,
            plugins="bench.plugins.noop,bench.plugins.billed",
            pycache=self.tmp / "pycache",
        )

    def install(self) -> None:
        bs.run_checked(bs.leadwire_cmd("migrate"), self.worker_env())

    def worker_argv(self) -> list[str]:
        return bs.leadwire_cmd("worker", "--concurrency", str(self.concurrency))

    def enqueue(self, workload: Workload, jobs: int, batch: int) -> float:
        return asyncio.run(self._enqueue(workload, jobs, batch))

    async def _enqueue(self, workload: Workload, jobs: int, batch: int) -> float:
        import leadwire.models  # noqa: F401 - every table must be known for foreign keys to resolve
        from _queues import account_jobs, batch_plan
        from leadwire import capabilities
        from leadwire.config import Settings
        from leadwire.platform.callers import Caller
        from leadwire.platform.db import transaction
        from leadwire.platform.jobs.service import create_jobs
        from leadwire.platform.plans import get_plan
        from leadwire.platform.runtime import build_runtime
        from leadwire.platform.users import all_scopes

        capabilities.enabled()
        noop = bs.import_repo_module("bench.plugins.noop")
        billed = bs.import_repo_module("bench.plugins.billed")
        action = billed.ACTION if workload.billed else noop.ACTION
        # Billed: each account granted exactly the credits its jobs reserve (1 each).
        per_account = account_jobs(jobs, workload.accounts)
        credits = per_account if workload.billed else [0] * workload.accounts
        accounts = await bs.create_accounts(self.database_url, credits, plan="business")
        self.user_ids = [user_id for user_id, _ in accounts]
        # The business plan allows 100 active jobs; a backlog of N needs more. Only this Caller changes.
        plan = dataclasses.replace(get_plan("business"), max_active_jobs=jobs + 1)
        callers = [
            Caller(user_id=user_id, key_id=keys[0][0], plan=plan, scopes=frozenset(all_scopes()))
            for user_id, keys in accounts
        ]
        settings = Settings(data_dir=self.tmp / "leadwire", database_url=self.database_url)
        runtime = await build_runtime(settings)
        try:
            first = time.time()
            for account, count in batch_plan(jobs, workload.accounts, batch):
                async with transaction(runtime.sessionmaker) as session:
                    payloads: list[dict[str, object]] = [{} for _ in range(count)]
                    await create_jobs(
                        session, runtime.notifier, callers[account], action=action, payloads=payloads
                    )
            return first
        finally:
            await runtime.close()

    def check(self, workload: Workload, jobs: int) -> str:
        return asyncio.run(self._check(workload, jobs))

    async def _check(self, workload: Workload, jobs: int) -> str:
        """The run's accounts' books; exact expectations for N billed jobs of 1 credit each."""
        users = self.user_ids
        connection = await asyncpg.connect(self.dsn)
        try:
            balances = await connection.fetchrow(
                "SELECT coalesce(sum(granted), 0) AS granted, coalesce(sum(charged), 0) AS charged, "
                "coalesce(sum(reserved), 0) AS reserved FROM credit_balances WHERE user_id = ANY($1)",
                users,
            )
            entries = {
                row["kind"]: row["amount"]
                for row in await connection.fetch(
                    "SELECT kind, sum(amount) AS amount FROM credit_entries WHERE user_id = ANY($1) "
                    "GROUP BY kind",
                    users,
                )
            }
            job_rows = await connection.fetchrow(
                "SELECT count(*) AS total, count(*) FILTER (WHERE status = 'succeeded') AS succeeded, "
                "coalesce(sum(charged_credits), 0) AS charged FROM jobs WHERE user_id = ANY($1)",
                users,
            )
        finally:
            await connection.close()
        assert balances is not None and job_rows is not None
        kinds = ("grant", "reserve", "release", "charge")
        text = (
            f"{len(users)} account(s): balances granted {balances['granted']} charged {balances['charged']} "
            f"reserved {balances['reserved']}; entries "
            + " ".join(f"{kind} {entries.get(kind, 0)}" for kind in kinds)
            + f"; jobs succeeded {job_rows['succeeded']}/{job_rows['total']}, "
            f"charged_credits {job_rows['charged']}"
        )
        billed = jobs if workload.billed else 0
        expected = {
            "granted": billed,
            "charged": billed,
            "reserved": 0,
            **{kind: billed for kind in kinds},
            "jobs charged": billed,
            "jobs": jobs,
            "succeeded": jobs,
        }
        found = {
            "granted": balances["granted"],
            "charged": balances["charged"],
            "reserved": balances["reserved"],
            **{kind: entries.get(kind, 0) for kind in kinds},
            "jobs charged": job_rows["charged"],
            "jobs": job_rows["total"],
            "succeeded": job_rows["succeeded"],
        }
        off = {key: (found[key], expected[key]) for key in expected if found[key] != expected[key]}
        if off:
            raise BooksError(f"Leadwire's books are off (found, expected): {off}; {text}")
        return f"{text}: ok"


def _systems(names: list[str], tmp: Path, concurrency: int) -> dict[str, System]:
    classes: dict[str, type[System]] = {
        "leadwire": Leadwire,
        "procrastinate": Procrastinate,
        "pgqueuer": PgQueuer,
        "procrastinate_batched": ProcrastinateBatched,
        "pgqueuer_batched": PgQueuerBatched,
    }
    return {name: classes[name](tmp, concurrency) for name in names}


def _emit_vs(
    name: str, runs: dict[str, Run], metric: str, targets: dict[str, tuple[str, float | None]]
) -> None:
    """`name` (Leadwire), then per baseline its figure and the ratio Leadwire ÷ baseline.

    `targets`: baseline -> (target text, minimum ratio or None for informational)."""
    value = getattr(runs["leadwire"], metric) if "leadwire" in runs else float("nan")
    if "leadwire" in runs:
        bs.emit(name, value, "jobs/s")
    for baseline, (text, minimum) in targets.items():
        if baseline not in runs:
            continue
        other = getattr(runs[baseline], metric)
        suffix = "" if baseline == "procrastinate" else f"_{baseline}"
        bs.emit(f"{name}_baseline{suffix}", other, "jobs/s")
        if "leadwire" not in runs:
            continue
        ratio = bs.safe_ratio(value, other)
        note = text if minimum is None else f"{text}: {bs.verdict(ratio >= minimum)}"
        bs.emit(f"{name}_ratio_vs_{baseline}", ratio, note=note)


def _emit_shape(workload: Workload, runs: dict[str, Run]) -> None:
    info: tuple[str, float | None] = ("informational", None)
    if workload.billed:
        _emit_vs(
            f"jobs_throughput_billed_{workload.key}",
            runs,
            "throughput",
            {
                "procrastinate": ("target >= 3 (goal 5)", 3.0),
                "pgqueuer": ("target >= 1", 1.0),
                "procrastinate_batched": info,
                "pgqueuer_batched": info,
            },
        )
        _emit_vs(
            f"jobs_enqueue_rate_billed_{workload.key}",
            runs,
            "enqueue_rate",
            {"procrastinate": ("target >= 0.5", 0.5), "pgqueuer": info},
        )
        _emit_vs(
            f"jobs_drain_rate_billed_{workload.key}",
            runs,
            "drain_rate",
            {"procrastinate": info, "pgqueuer": info},
        )
    else:
        _emit_vs(
            "jobs_throughput_noop",
            runs,
            "throughput",
            {"procrastinate": ("target >= 3", 3.0), "pgqueuer": ("target > 1 (pass PgQueuer)", 1.0 + 1e-9)},
        )
        _emit_vs("jobs_enqueue_rate_noop", runs, "enqueue_rate", {"procrastinate": info, "pgqueuer": info})
        _emit_vs("jobs_drain_rate_noop", runs, "drain_rate", {"procrastinate": info, "pgqueuer": info})


def _names(text: str, allowed: tuple[str, ...] | list[str], what: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in allowed]
    if unknown or not names:
        raise SystemExit(f"--{what}: choose among {', '.join(allowed)} (got {text!r})")
    return [name for name in allowed if name in names]  # the canonical order


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=100, help="jobs per enqueue transaction (one account)")
    parser.add_argument("--concurrency", type=int, default=10, help="per worker process, every system")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds allowed per run")
    parser.add_argument("--shapes", default=",".join(WORKLOADS), help="comma list of " + ", ".join(WORKLOADS))
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma list of " + ", ".join(SYSTEMS))
    args = parser.parse_args()
    shapes = _names(args.shapes, list(WORKLOADS), "shapes")
    names = _names(args.systems, SYSTEMS, "systems")
    if not bs.postgres_reachable():
        bs.note(f"jobs_throughput skipped: PostgreSQL not reachable at {bs.PG_URL}")
        return
    import pgqueuer
    import procrastinate

    started = time.monotonic()
    bs.note(
        f"{args.jobs} jobs, batches of up to {args.batch} (one account each), {WORKERS} workers x "
        f"concurrency {args.concurrency}; baselines procrastinate {procrastinate.__version__}, "
        f"PgQueuer {pgqueuer.__version__} (--max-concurrent-tasks {args.concurrency}, "
        f"--batch-size {max(1, args.concurrency // 2)})"
    )
    results: list[tuple[Workload, dict[str, Run]]] = []
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-jobs-") as tmp_name:
        systems = _systems(names, Path(tmp_name), args.concurrency)
        for key in shapes:
            workload = WORKLOADS[key]
            runs: dict[str, Run] = {}
            for name, system in systems.items():
                if name in BATCHED and not workload.billed:
                    continue  # nothing to account: the same run as the plain baseline
                run = system.run(workload, args.jobs, args.batch, args.timeout)
                runs[name] = run
                bs.note(f"{workload.key} {name}: {run.timings()}")
                bs.note(f"{workload.key} {name} books: {run.books}")
            results.append((workload, runs))
    for workload, runs in results:
        _emit_shape(workload, runs)
    bs.note(f"jobs_throughput total {time.monotonic() - started:.0f}s")


if __name__ == "__main__":
    main()
