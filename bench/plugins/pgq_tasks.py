"""Bench plugin for the PgQueuer baseline: a QueueManager with two entrypoints.

- `bench.noop`: does nothing;
- `bench.account`: payload JSON `{"account": ..., "ref": ...}`; the accounting of a billed job
  (bench/plugins/accounting.py) in one transaction on an asyncpg pool of BENCH_ACCOUNTING_POOL
  connections, opened with the worker.

Run as `python -m bench.plugins.pgq_tasks --max-concurrent-tasks C --batch-size B` (PYTHONPATH=<repo
root>): what `pgq run bench.plugins.pgq_tasks:create_manager ...` does — `pgqueuer.run(factory, ...)`
on uvloop when installed, SIGTERM stops it — without the CLI, whose option parsing fails with the
typer installed here (`pgq run` raises AttributeError in `setup_fancy_logger` whatever `--log-level`).
The database comes from BENCH_PGQUEUER_DSN. The queue runs on one asyncpg connection
(`AsyncpgDriver`, PgQueuer's documented set-up), without the scheduler.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator

import asyncpg
import pgqueuer
from pgqueuer.db import AsyncpgDriver
from pgqueuer.models import Job
from pgqueuer.qm import QueueManager
from pgqueuer.queries import Queries

from . import accounting


@contextlib.asynccontextmanager
async def create_manager() -> AsyncIterator[QueueManager]:
    dsn = os.environ["BENCH_PGQUEUER_DSN"]
    connection = await asyncpg.connect(dsn)
    pool = await accounting.open_pool(dsn, int(os.environ.get("BENCH_ACCOUNTING_POOL", "10")))
    try:
        manager = QueueManager(Queries(AsyncpgDriver(connection)))

        @manager.entrypoint("bench.noop")
        async def noop(job: Job) -> None:
            return None

        @manager.entrypoint("bench.account")
        async def account(job: Job) -> None:
            args = json.loads(job.payload or b"{}")
            await accounting.debit(pool, args["account"], args["ref"])

        yield manager
    finally:
        await pool.close()
        await connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="A PgQueuer worker of the bench's tasks.")
    parser.add_argument("--max-concurrent-tasks", type=int, default=None)
    parser.add_argument("--batch-size", type=int, default=10)
    args = parser.parse_args()
    coroutine = pgqueuer.run(
        create_manager, batch_size=args.batch_size, max_concurrent_tasks=args.max_concurrent_tasks
    )
    try:
        import uvloop
    except ImportError:
        asyncio.run(coroutine)
    else:
        uvloop.run(coroutine)


if __name__ == "__main__":
    main()
