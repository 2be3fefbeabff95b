"""The baselines' accounting: what a billed job costs a queue that does its own bookkeeping.

One statement per job on its own asyncpg pool (created once per worker process, `size` connections),
in autocommit: debit the account's balance by 1 and append a ledger row, written as one CTE, so a
job's accounting is one round trip and one commit — what a competent queue user would write, not a
BEGIN, two statements and a COMMIT. With BENCH_ACCOUNTING=batched, the grouping Leadwire's finisher
uses instead (`Batched`): a task hands its entry to the process's flusher and returns once it is
committed; the flusher commits everything that accumulated while its previous commit ran in one
statement (a lone entry at once, no added delay). Used by the procrastinate
(bench/plugins/pq_tasks.py) and PgQueuer (bench/plugins/pgq_tasks.py) tasks `bench.account`;
`SCHEMA` is created by the bench in each baseline's temporary database.
"""

from __future__ import annotations

import asyncio
import os

import asyncpg

SCHEMA = """
CREATE TABLE bench_balance (account_id text PRIMARY KEY, balance bigint NOT NULL);
CREATE TABLE bench_ledger (
    id bigserial PRIMARY KEY,
    account_id text NOT NULL,
    job_ref text NOT NULL,
    amount bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
"""


async def open_pool(dsn: str, size: int) -> asyncpg.Pool:
    return await asyncpg.create_pool(dsn, min_size=size, max_size=size)


async def debit(pool: asyncpg.Pool, account_id: str, job_ref: str) -> None:
    """One credit off the account's balance and its ledger row, in one statement (one commit)."""
    if BATCHED:
        await _batched(pool).debit(account_id, job_ref)
    else:
        await pool.execute(DEBIT, account_id, job_ref)


BATCHED = os.environ.get("BENCH_ACCOUNTING", "statement") == "batched"


class Batched:
    """The entries of concurrent tasks, committed together by one flusher (`DEBIT_MANY`)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self.waiting: list[tuple[str, str, asyncio.Future[None]]] = []
        self.ready = asyncio.Event()
        self.flushes = 0  # statements written, for the bench's own test
        self.flusher = asyncio.create_task(self._flush())

    async def debit(self, account_id: str, job_ref: str) -> None:
        done = asyncio.get_running_loop().create_future()
        self.waiting.append((account_id, job_ref, done))
        self.ready.set()
        await done

    async def _flush(self) -> None:
        while True:
            await self.ready.wait()
            self.ready.clear()
            batch, self.waiting = self.waiting, []
            if not batch:
                continue
            self.flushes += 1
            try:
                await self.pool.execute(DEBIT_MANY, [a for a, _, _ in batch], [r for _, r, _ in batch])
            except Exception as exc:
                for _, _, done in batch:
                    done.set_exception(exc)
            else:
                for _, _, done in batch:
                    done.set_result(None)


_flushers: dict[int, Batched] = {}


def _batched(pool: asyncpg.Pool) -> Batched:
    """The pool's flusher, started by its first entry (in the worker's event loop)."""
    if id(pool) not in _flushers:
        _flushers[id(pool)] = Batched(pool)
    return _flushers[id(pool)]


DEBIT = """
WITH debited AS (
    UPDATE bench_balance SET balance = balance - 1 WHERE account_id = $1 RETURNING account_id
)
INSERT INTO bench_ledger (account_id, job_ref, amount) SELECT account_id, $2, 1 FROM debited
"""
# The batched form: every entry of the batch, each account debited once by its count.
DEBIT_MANY = """
WITH entries AS (SELECT * FROM unnest($1::text[], $2::text[]) AS e(account_id, job_ref)),
debits AS (SELECT account_id, count(*) AS n FROM entries GROUP BY account_id),
debited AS (
    UPDATE bench_balance b SET balance = b.balance - d.n FROM debits d
    WHERE b.account_id = d.account_id RETURNING b.account_id
)
INSERT INTO bench_ledger (account_id, job_ref, amount)
SELECT e.account_id, e.job_ref, 1 FROM entries e JOIN debited USING (account_id)
"""
