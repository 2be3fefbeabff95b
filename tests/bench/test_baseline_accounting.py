"""The queue baselines' accounting (bench/plugins/accounting.py) keeps exact books in both of its
forms: a baseline that lost or doubled a debit would make the throughput comparison meaningless."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import AsyncIterator

import asyncpg
import pytest
from bench.plugins import accounting

ACCOUNTS = 5
DEBITS = 200  # per account


@pytest.fixture
async def pool(pg_database: str) -> AsyncIterator[asyncpg.Pool]:
    dsn = pg_database.replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(dsn)
    try:
        await connection.execute("DROP TABLE IF EXISTS bench_balance, bench_ledger")
        await connection.execute(accounting.SCHEMA)
        await connection.executemany(
            "INSERT INTO bench_balance (account_id, balance) VALUES ($1, $2)",
            [(f"acct-{i}", DEBITS) for i in range(ACCOUNTS)],
        )
    finally:
        await connection.close()
    opened = await accounting.open_pool(dsn, 4)
    try:
        yield opened
    finally:
        # The session's test database is shared: the app's schema must be all it holds after.
        await opened.execute("DROP TABLE bench_balance, bench_ledger")
        await opened.close()


async def _books(pool: asyncpg.Pool) -> tuple[int, int, int]:
    row = await pool.fetchrow(
        "SELECT (SELECT sum(balance) FROM bench_balance) AS balance, count(*) AS rows, "
        "count(DISTINCT job_ref) AS refs FROM bench_ledger"
    )
    assert row is not None
    return int(row["balance"]), int(row["rows"]), int(row["refs"])


@pytest.mark.parametrize("form", ["statement", "batched"])
async def test_concurrent_debits_leave_exact_books(
    pool: asyncpg.Pool, form: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(accounting, "BATCHED", form == "batched")
    monkeypatch.setattr(accounting, "_flushers", {})
    jobs = [(f"acct-{n % ACCOUNTS}", f"job-{n}") for n in range(ACCOUNTS * DEBITS)]
    await asyncio.gather(*(accounting.debit(pool, account, ref) for account, ref in jobs))
    assert await _books(pool) == (0, ACCOUNTS * DEBITS, ACCOUNTS * DEBITS)
    if form == "batched":  # the concurrent entries were grouped, not written one by one
        (flusher,) = accounting._flushers.values()
        assert flusher.flushes < len(jobs)
        flusher.flusher.cancel()


def test_the_form_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BENCH_ACCOUNTING", "batched")
    assert importlib.reload(accounting).BATCHED is True
    monkeypatch.setenv("BENCH_ACCOUNTING", "statement")
    assert importlib.reload(accounting).BATCHED is False
