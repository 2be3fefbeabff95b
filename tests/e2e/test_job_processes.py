"""Job guarantees across real processes on PostgreSQL: a killed worker's job is finished by another,
SIGTERM is graceful, and one idempotency key never yields two jobs across two API processes."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from leadwire.platform.db import make_engine, make_sessionmaker, transaction
from leadwire.platform.jobs.models import Job
from tests.conftest import _empty_pg
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.jobs import with_runtime
from tests.support.processes import free_port, leadwire_process, process_env, wait_for, wait_ready

pytestmark = pytest.mark.e2e


@pytest.fixture
def pg_url(pg_database: str) -> str:
    asyncio.run(_empty_pg(pg_database))
    return pg_database


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def _account(url: str) -> TestAccount:
    return _run(with_runtime(url, lambda rt: AccountFactory(rt).create(credits=100)))


def _create_echo_job(url: str, acct: TestAccount, payload: dict[str, Any], action: str = "test.echo") -> str:
    async def work(runtime: Any) -> str:
        import tests.support.echo  # noqa: F401 - registers test.echo
        from leadwire.platform.callers import Caller
        from leadwire.platform.jobs.service import create_job
        from leadwire.platform.plans import get_plan
        from leadwire.platform.users import all_scopes

        caller = Caller(
            user_id=acct.user_id,
            key_id=acct.key_id,
            plan=get_plan("business"),
            scopes=frozenset(all_scopes()),
        )
        async with transaction(runtime.sessionmaker) as session:
            job = await create_job(session, runtime.notifier, caller, action=action, payload=payload)
        return job.id

    return _run(with_runtime(url, work))


def _job(url: str, job_id: str) -> Job:
    async def read() -> Job:
        engine = make_engine(url)
        try:
            async with transaction(make_sessionmaker(engine)) as session:
                job = await session.get(Job, job_id)
                assert job is not None
                return job
        finally:
            await engine.dispose()

    return _run(read())


def test_killed_worker_job_is_finished_by_another_worker(pg_url: str, tmp_path: Path) -> None:
    acct = _account(pg_url)
    gate, started = tmp_path / "gate", tmp_path / "started"
    job_id = _create_echo_job(pg_url, acct, {"block_file": str(gate), "started_file": str(started)})
    env = process_env(
        tmp_path / "var", pg_url, LEADWIRE_JOB_LEASE_SECONDS="2", LEADWIRE_WORKER_POLL_SECONDS="0.2"
    )
    with leadwire_process(["worker"], env, tmp_path / "worker-a.log") as first:
        wait_for(started.exists, timeout=30)
        assert _job(pg_url, job_id).status == "running"
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    assert _job(pg_url, job_id).status == "running"  # nobody finished it: the lease is still out there
    started.unlink()
    with leadwire_process(["worker"], env, tmp_path / "worker-b.log") as second:
        wait_for(started.exists, timeout=30)  # rescued after the lease expired, then claimed again
        gate.write_text("go")
        wait_for(lambda: _job(pg_url, job_id).status == "succeeded", timeout=30)
        job = _job(pg_url, job_id)
        assert job.attempt_count == 2
        assert job.result is not None and job.result["pid"] == second.pid and job.result["attempt"] == 2


def test_sigterm_lets_running_jobs_finish_and_releases_the_rest(pg_url: str, tmp_path: Path) -> None:
    acct = _account(pg_url)
    quick = _create_echo_job(pg_url, acct, {"sleep": 1.0, "started_file": str(tmp_path / "quick")})
    stuck = _create_echo_job(
        pg_url, acct, {"block_file": str(tmp_path / "never"), "started_file": str(tmp_path / "stuck")}
    )
    env = process_env(tmp_path / "var", pg_url, LEADWIRE_SHUTDOWN_GRACE_SECONDS="3")
    with leadwire_process(["worker", "--concurrency", "2"], env, tmp_path / "worker.log") as worker:
        wait_for(lambda: (tmp_path / "quick").exists() and (tmp_path / "stuck").exists(), timeout=30)
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=20) == 0
    assert _job(pg_url, quick).status == "succeeded"
    released = _job(pg_url, stuck)
    assert released.status == "queued" and released.lease_owner is None


def test_cancel_racing_a_claim_has_exactly_one_winner(pg_url: str) -> None:
    acct = _account(pg_url)

    async def race(runtime: Any) -> list[tuple[bool, str, str]]:
        import tests.support.echo  # noqa: F401 - registers test.echo
        from leadwire.platform.callers import Caller
        from leadwire.platform.errors import ApiError
        from leadwire.platform.jobs import queue, service
        from leadwire.platform.plans import get_plan
        from leadwire.platform.users import all_scopes

        caller = Caller(
            user_id=acct.user_id,
            key_id=acct.key_id,
            plan=get_plan("business"),
            scopes=frozenset(all_scopes()),
        )
        outcomes = []
        for _ in range(25):
            async with transaction(runtime.sessionmaker) as session:
                job = await service.create_job(
                    session, runtime.notifier, caller, action="test.echo", payload={}
                )

            async def claim() -> bool:
                async with transaction(runtime.sessionmaker) as session:
                    claimed = await queue.claim_due(session, owner="racer", limit=1, lease_seconds=30)
                    return bool(claimed)

            async def cancel(job_id: str = job.id) -> str:
                try:
                    async with transaction(runtime.sessionmaker) as session:
                        return (await service.cancel_job(session, runtime.notifier, caller, job_id)).status
                except ApiError as exc:
                    return exc.code

            claimed, cancelled = await asyncio.gather(claim(), cancel())
            async with transaction(runtime.sessionmaker) as session:
                final = (await session.get(Job, job.id)).status  # type: ignore[union-attr]
            outcomes.append((claimed, cancelled, final))
        return outcomes

    outcomes = _run(with_runtime(pg_url, race))
    for claimed, cancel_outcome, final in outcomes:
        if claimed:
            assert cancel_outcome == "job_already_running" and final == "running"
        else:
            assert cancel_outcome == "cancelled" and final == "cancelled"


def test_fifty_identical_posts_across_two_api_processes_make_one_job(pg_url: str, tmp_path: Path) -> None:
    acct = _account(pg_url)
    ports = [free_port(), free_port()]
    env = process_env(tmp_path / "var", pg_url)
    with (
        leadwire_process(["api", "--port", str(ports[0])], env, tmp_path / "api-a.log") as a,
        leadwire_process(["api", "--port", str(ports[1])], env, tmp_path / "api-b.log") as b,
    ):
        wait_ready(f"http://127.0.0.1:{ports[0]}", a, tmp_path / "api-a.log")
        wait_ready(f"http://127.0.0.1:{ports[1]}", b, tmp_path / "api-b.log")

        async def post_all() -> list[httpx.Response]:
            headers = {**acct.headers, "Idempotency-Key": "one-job-please"}
            async with httpx.AsyncClient(timeout=30) as http:
                return await asyncio.gather(
                    *(
                        http.post(
                            f"http://127.0.0.1:{ports[i % 2]}/api/v2/test/echo",
                            json={"message": "m"},
                            headers=headers,
                        )
                        for i in range(50)
                    )
                )

        responses = _run(post_all())
        # A straggler that saw the key in progress retries after the first request completed: a replay.
        retried = _run(_retry(ports, acct))
    created = [r for r in responses if r.status_code == 202]
    assert created, [r.text for r in responses[:3]]
    assert {r.json()["item"]["id"] for r in created} == {created[0].json()["item"]["id"]}
    assert all(r.json() == created[0].json() for r in created)
    assert all(r.status_code in (202, 409) for r in responses)
    for r in responses:
        if r.status_code == 409:
            assert r.json()["error"]["code"] == "idempotency_key_in_progress"
    assert retried.json() == created[0].json() and retried.headers["idempotent-replayed"] == "true"

    async def count() -> int:
        engine = make_engine(pg_url)
        try:
            async with transaction(make_sessionmaker(engine)) as session:
                return int(await session.scalar(select(func.count()).select_from(Job)) or 0)
        finally:
            await engine.dispose()

    assert _run(count()) == 1


async def _retry(ports: list[int], acct: TestAccount) -> httpx.Response:
    async with httpx.AsyncClient(timeout=30) as http:
        return await http.post(
            f"http://127.0.0.1:{ports[1]}/api/v2/test/echo",
            json={"message": "m"},
            headers={**acct.headers, "Idempotency-Key": "one-job-please"},
        )


@pytest.mark.parametrize("killed", ["before_send", "after_send"])
def test_a_worker_killed_mid_delivery_never_sends_twice(pg_url: str, tmp_path: Path, killed: str) -> None:
    acct = _account(pg_url)
    gate, started, sent = tmp_path / "gate", tmp_path / "started", tmp_path / "sent"
    payload: dict[str, Any] = {
        "recipient": "jane@acme.example",
        "sent_file": str(sent),
        "started_file": str(started),
    }
    if killed == "before_send":
        payload["block_file"] = str(gate)  # the "provider call" is in flight when the worker dies
    else:
        payload["hold_after_send_file"] = str(gate)  # sent, but not yet recorded as sent
    job_id = _create_echo_job(pg_url, acct, payload, action="test.deliver")
    env = process_env(
        tmp_path / "var", pg_url, LEADWIRE_JOB_LEASE_SECONDS="2", LEADWIRE_WORKER_POLL_SECONDS="0.2"
    )
    with leadwire_process(["worker"], env, tmp_path / "worker-a.log") as first:
        wait_for(started.exists, timeout=30)
        if killed == "after_send":
            wait_for(sent.exists, timeout=30)
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    gate.write_text("go")
    with leadwire_process(["worker"], env, tmp_path / "worker-b.log"):
        wait_for(lambda: _job(pg_url, job_id).status in ("succeeded", "failed"), timeout=30)
    job = _job(pg_url, job_id)
    lines = sent.read_text().splitlines() if sent.exists() else []
    # Mid-send, the outcome is unknown to the second worker: it must fail the job, not send again.
    assert job.status == "failed" and job.error_code == "delivery_unknown"
    assert len(lines) == (0 if killed == "before_send" else 1)
