"""The baselines' accounting: what a billed job costs a queue that does its own bookkeeping.

One statement per job on its own asyncpg pool (created once per worker process, `size` connections),
in autocommit: debit the account's balance by 1 and append a ledger row, written as one CTE, so a
job's accounting is one round trip and one commit — what a competent queue user would write, not a
BEGIN, two statements and a COMMIT. Used by the procrastinate
(bench/plugins/pq_tasks.py) and PgQueuer (bench/plugins/pgq_tasks.py) tasks `bench.account`;
`SCHEMA` is created by the bench in each baseline's temporary database.
"""

from __future__ import annotations

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
    await pool.execute(DEBIT, account_id, job_ref)


DEBIT = """
WITH debited AS (
    UPDATE bench_balance SET balance = balance - 1 WHERE account_id = $1 RETURNING account_id
)
INSERT INTO bench_ledger (account_id, job_ref, amount) SELECT account_id, $2, 1 FROM debited
"""
