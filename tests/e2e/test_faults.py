"""Faults across real processes on PostgreSQL: two workers settling jobs of many accounts never
deadlock, and a chaos run (a worker SIGKILLed, every database connection cut from the server side)
ends with every job terminal, no outcome lost, credits exact and no 5xx but 503."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy import func, select

from leadwire.platform.billing.models import CreditBalance, CreditEntry
from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.states import TERMINAL
from leadwire.platform.runtime import Runtime
from tests.conftest import _empty_pg
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.jobs import with_runtime
from tests.support.processes import free_port, leadwire_process, process_env, wait_for, wait_ready

pytestmark = pytest.mark.e2e

ECHO_PRICE = 1.5  # credits per unit of test.echo
GRANT = 100_000


@pytest.fixture
def pg_url(pg_database: str) -> str:
    asyncio.run(_empty_pg(pg_database))
    return pg_database


def _accounts(url: str, count: int) -> list[TestAccount]:
    async def work(runtime: Runtime) -> list[TestAccount]:
        factory = AccountFactory(runtime)
        return [await factory.create(credits=GRANT) for _ in range(count)]

    result: list[TestAccount] = asyncio.run(with_runtime(url, work))
    return result


def _create_jobs(url: str, accounts: list[TestAccount], payloads: list[dict[str, Any]]) -> None:
    """Jobs through the jobs service, interleaved over the accounts (a few per account per round), so
    that claim and completion order mix the accounts as real traffic does."""

    async def work(runtime: Runtime) -> None:
        import tests.support.echo  # noqa: F401 - registers test.echo
        from leadwire.platform.callers import Caller
        from leadwire.platform.jobs.service import create_jobs
        from leadwire.platform.plans import get_plan
        from leadwire.platform.users import all_scopes

        callers = [
            Caller(
                user_id=a.user_id, key_id=a.key_id, plan=get_plan("business"), scopes=frozenset(all_scopes())
            )
            for a in accounts
        ]
        per_round = 2
        for start in range(0, len(payloads), per_round):
            caller = callers[(start // per_round) % len(callers)]
            async with transaction(runtime.sessionmaker) as session:
                batch = payloads[start : start + per_round]
                await create_jobs(session, runtime.notifier, caller, action="test.echo", payloads=batch)

    asyncio.run(with_runtime(url, work))


def _jobs(url: str) -> list[Job]:
    async def work(runtime: Runtime) -> list[Job]:
        async with transaction(runtime.sessionmaker) as session:
            return list((await session.execute(select(Job))).scalars().all())

    result: list[Job] = asyncio.run(with_runtime(url, work))
    return result


def _all_terminal(url: str, expected: int) -> bool:
    jobs = _jobs(url)
    return len(jobs) == expected and all(j.status in TERMINAL for j in jobs)


def _assert_credits_exact(url: str, jobs: list[Job]) -> dict[str, int]:
    """Balances, ledger and jobs agree to the credit: nothing reserved is left, every charge is the
    job's own units rounded up once, and the ledger's charges add up to the jobs' charges."""

    async def work(runtime: Runtime) -> dict[str, int]:
        async with transaction(runtime.sessionmaker) as session:
            balances = (await session.execute(select(CreditBalance))).scalars().all()
            charges = await session.execute(
                select(CreditEntry.kind, func.sum(CreditEntry.amount)).group_by(CreditEntry.kind)
            )
            sums = {kind: int(total) for kind, total in charges.all()}
        assert all(b.reserved == 0 for b in balances), [(b.user_id, b.reserved) for b in balances]
        assert sum(b.charged for b in balances) == sums.get("charge", 0)
        assert sums.get("reserve", 0) == sums.get("release", 0)
        return sums

    sums: dict[str, int] = asyncio.run(with_runtime(url, work))
    for job in jobs:
        assert job.billing_status == "settled", (job.id, job.billing_status)
        units = float(job.payload.get("units", 0.0))
        assert job.charged_credits == (math.ceil(units * ECHO_PRICE) if job.status == "succeeded" else 0)
    assert sums.get("charge", 0) == sum(j.charged_credits for j in jobs)
    return sums


def test_two_workers_settling_jobs_of_many_accounts_never_deadlock(pg_url: str, tmp_path: Path) -> None:
    accounts = _accounts(pg_url, 8)
    # Pseudo-random sleeps of 0-36 ms shuffle the order in which outcomes reach each worker's finisher.
    payloads = [{"units": 1 + i % 2, "max_units": 2, "sleep": (i * 7919 % 13) / 333} for i in range(480)]
    _create_jobs(pg_url, accounts, payloads)
    env = process_env(tmp_path / "var", pg_url, LEADWIRE_WORKER_POLL_SECONDS="0.2")
    logs = [tmp_path / "worker-a.log", tmp_path / "worker-b.log"]
    with (
        leadwire_process(["worker", "--concurrency", "24"], env, logs[0]),
        leadwire_process(["worker", "--concurrency", "24"], env, logs[1]),
    ):
        wait_for(lambda: _all_terminal(pg_url, len(payloads)), timeout=90, interval=0.5)
    jobs = _jobs(pg_url)
    assert {j.status for j in jobs} == {"succeeded"}
    assert {j.attempt_count for j in jobs} == {1}  # no outcome was lost and re-run
    text = "\n".join(log.read_text() for log in logs)
    assert "deadlock" not in text.lower() and "outcomes" not in text, text[-3000:]
    _assert_credits_exact(pg_url, jobs)


async def _terminate_backends(url: str) -> int:
    """Cut every connection to our own test database from the server side (never stop the server)."""
    dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
    connection = await asyncpg.connect(dsn, timeout=5)
    try:
        rows = await connection.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await connection.close()
    return len(rows)


async def _submit(
    http: httpx.AsyncClient, base: str, acct: TestAccount, payload: dict[str, Any]
) -> list[int]:
    """One job through the API the way the SDK does it: one Idempotency-Key, retried on 503/429."""
    key = uuid.uuid4().hex
    statuses: list[int] = []
    for _ in range(60):
        try:
            response = await http.post(
                f"{base}/api/v2/test/echo", json=payload, headers={**acct.headers, "Idempotency-Key": key}
            )
        except httpx.TransportError:
            statuses.append(0)
            await asyncio.sleep(0.2)
            continue
        statuses.append(response.status_code)
        if response.status_code in (200, 202):
            return statuses
        await asyncio.sleep(float(response.headers.get("retry-after", "1")) / 5)
    raise AssertionError(f"never accepted: {statuses}")


def test_chaos_worker_killed_and_connections_cut(pg_url: str, tmp_path: Path) -> None:
    accounts = _accounts(pg_url, 6)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = process_env(
        tmp_path / "var",
        pg_url,
        LEADWIRE_JOB_LEASE_SECONDS="2",
        LEADWIRE_WORKER_POLL_SECONDS="0.2",
        LEADWIRE_ALLOWED_HOSTS="127.0.0.1",
    )
    total = 240
    payloads = [{"units": 1 + i % 2, "max_units": 2, "sleep": (i % 5) / 20} for i in range(total)]
    with (
        leadwire_process(["api", "--port", str(port)], env, tmp_path / "api.log") as api,
        leadwire_process(["worker", "--concurrency", "8"], env, tmp_path / "worker-a.log") as victim,
        leadwire_process(["worker", "--concurrency", "8"], env, tmp_path / "worker-b.log"),
    ):
        wait_ready(base, api, tmp_path / "api.log")

        async def run() -> tuple[list[list[int]], int]:
            gate = asyncio.Semaphore(16)

            async def one(i: int) -> list[int]:
                async with gate:
                    return await _submit(http, base, accounts[i % len(accounts)], payloads[i])

            async def faults() -> int:
                await asyncio.sleep(1.0)
                os.kill(victim.pid, signal.SIGKILL)  # mid-job: its leases expire and the other rescues them
                cut = 0
                for _ in range(3):
                    await asyncio.sleep(1.0)
                    cut += await _terminate_backends(pg_url)
                return cut

            async with httpx.AsyncClient(timeout=30) as http:
                results = await asyncio.gather(*(one(i) for i in range(total)), faults())
            return list(results[:-1]), int(results[-1])  # type: ignore[arg-type]

        started = time.monotonic()
        submissions, terminated = asyncio.run(run())
        wait_for(lambda: _all_terminal(pg_url, total), timeout=45, interval=0.5)
        elapsed = time.monotonic() - started
        ready = httpx.get(f"{base}/readyz", timeout=5)
        assert victim.wait(timeout=10) == -signal.SIGKILL

    jobs = _jobs(pg_url)
    statuses = [s for attempt in submissions for s in attempt]
    server_errors = [s for s in statuses if s >= 500]
    assert set(server_errors) <= {503}, statuses
    assert len(jobs) == total  # one job per idempotency key, retries included
    assert {j.status for j in jobs} == {"succeeded"}, {j.status for j in jobs}
    sums = _assert_credits_exact(pg_url, jobs)
    assert ready.status_code == 200  # the API recovered by itself
    reruns = sum(1 for j in jobs if j.attempt_count > 1)
    print(
        f"\nchaos: {total} jobs over {len(accounts)} accounts in {elapsed:.1f} s; 1 worker SIGKILLed; "
        f"{terminated} connections terminated; {reruns} jobs re-run; {len(server_errors)} 503s, "
        f"0 other 5xx; {statuses.count(0)} transport errors; charged {sums.get('charge', 0)} credits"
    )
