"""Bench plugin for the procrastinate baseline: an app with two tasks.

- `bench.noop`: does nothing;
- `bench.account(account, ref)`: the accounting of a billed job (bench/plugins/accounting.py): debit
  the account's balance by 1 and append a ledger row, in one transaction on an asyncpg pool of
  BENCH_ACCOUNTING_POOL connections, opened by the first such task of the worker process.

Used as `procrastinate --app bench.plugins.pq_tasks.app worker ...` (PYTHONPATH=<repo root>); the
database comes from BENCH_PROCRASTINATE_CONNINFO (a `postgresql://` URL: libpq and asyncpg read it).
"""

from __future__ import annotations

import asyncio
import os

import asyncpg
import procrastinate

from . import accounting

CONNINFO = os.environ.get("BENCH_PROCRASTINATE_CONNINFO", "")

app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=CONNINFO))

_pool: asyncpg.Pool | None = None
_pool_lock = asyncio.Lock()


async def _accounting_pool() -> asyncpg.Pool:
    global _pool
    if _pool is None:
        async with _pool_lock:
            if _pool is None:
                _pool = await accounting.open_pool(
                    CONNINFO, int(os.environ.get("BENCH_ACCOUNTING_POOL", "10"))
                )
    return _pool


@app.task(name="bench.noop")
async def noop() -> None:
    return None


@app.task(name="bench.account")
async def account(account: str, ref: str) -> None:
    await accounting.debit(await _accounting_pool(), account, ref)
