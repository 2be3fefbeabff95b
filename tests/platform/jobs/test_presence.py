"""Workers known alive from the database: readiness says `degraded` with no worker, `/metrics` counts
them, and the jobs of a worker process its supervisor saw die run again at once."""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import update

from leadwire.platform.db import transaction
from leadwire.platform.jobs import presence
from leadwire.platform.jobs.models import Job, WorkerPresence
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import create_echo, poll_job, running_worker

NO_WORKER = "no worker has reported in the last 15 s: jobs wait queued"


async def _alive(runtime: Runtime) -> int:
    async with transaction(runtime.sessionmaker) as session:
        return (await presence.alive(session)).workers


async def test_readiness_is_degraded_while_no_worker_is_alive(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    ready = (await client.get("/readyz")).json()
    assert ready["status"] == "degraded" and ready["checks"]["workers"] == "none_alive"
    assert ready["reasons"] == [NO_WORKER]
    async with running_worker(runtime) as worker:
        await asyncio.wait_for(worker.announced.wait(), 10)
        ready = (await client.get("/readyz")).json()
        assert ready["status"] == "ready" and ready["checks"]["workers"] == "ok" and "reasons" not in ready
        assert await _alive(runtime) == 1
    # A clean stop leaves at once: no stale beat to wait out.
    assert await _alive(runtime) == 0
    assert (await client.get("/readyz")).json()["checks"]["workers"] == "none_alive"


async def test_a_worker_that_stopped_beating_no_longer_counts(runtime: Runtime) -> None:
    async with transaction(runtime.sessionmaker) as session:
        await presence.beat(session, owner=presence.new_owner(), concurrency=4, running=0)
    assert await _alive(runtime) == 1
    stale = utcnow() - timedelta(seconds=presence.BEAT_SECONDS * presence.STALE_AFTER_BEATS + 1)
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(update(WorkerPresence).values(beat_at=stale))
    assert await _alive(runtime) == 0


async def test_metrics_count_the_live_workers(tmp_path: Path, settings: object) -> None:
    from leadwire.app import create_app
    from leadwire.platform.runtime import build_runtime
    from tests.support.lifespan import asgi_client

    runtime = await build_runtime(settings.model_copy(update={"metrics_public": True}))  # type: ignore[attr-defined]
    try:
        async with asgi_client(create_app(runtime=runtime)) as http, running_worker(runtime) as worker:
            await asyncio.wait_for(worker.announced.wait(), 10)
            text = (await http.get("/metrics")).text
        assert "leadwire_workers_alive 1.0" in text.splitlines()
    finally:
        await runtime.close()


async def test_a_dead_process_s_jobs_run_again_at_once(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    """Held by a worker with a long lease, the job would wait out the lease; released as its process's,
    it runs again on the next rescue sweep. Another process's jobs are left alone."""
    acct = await accounts.create(credits=10)
    long_lease = runtime.settings.model_copy(update={"job_lease_seconds": 600.0, "worker_poll_seconds": 0.05})
    runtime.settings = long_lease
    block = tmp_path / "release"
    held = assert_ok(await create_echo(client, acct.headers, {"block_file": str(block)}), 202)["item"]["id"]
    async with running_worker(runtime) as doomed:
        await poll_job(client, acct.headers, held, until=("running",), timeout=10)
        doomed.stop()  # it claims nothing more; its job stays held, as by a process that died
        elsewhere = presence.owner_prefix(os.getpid() + 1) + "abcdefgh"
        async with transaction(runtime.sessionmaker) as session:
            await presence.beat(session, owner=elsewhere, concurrency=1, running=0)
        async with transaction(runtime.sessionmaker) as session:
            assert await presence.release_dead_process(session, pid=os.getpid() + 2) == 0
            held_row = await session.get(Job, held)
            seen = (held_row.status, held_row.lease_owner, held_row.lease_expires_at) if held_row else None
            released = await presence.release_dead_process(session, pid=os.getpid())
            assert released == 1, (
                f"job (status, lease owner, lease until) {seen}; prefix {presence.owner_prefix(os.getpid())}"
            )
        async with transaction(runtime.sessionmaker) as session:
            assert (await presence.alive(session)).workers == 1  # the other process's worker only
        async with running_worker(runtime):
            await _claimed_again(client, acct.headers, held)
            # Released only now: the stopped worker's run (still in this process) must not end first.
            block.write_text("go")
            done = await poll_job(client, acct.headers, held, until=("succeeded", "failed"), timeout=20)
    assert done["status"] == "succeeded" and done["attempt_count"] == 2


@pytest.mark.parametrize("host", ["h", "a-very-long-pod-name-" + "x" * 60])
def test_an_owner_id_fits_its_column_whatever_the_host(host: str) -> None:
    prefix = presence.owner_prefix(123456, host)
    assert len(prefix + "abcdefgh") <= 64 and prefix.endswith(":123456:")


async def _claimed_again(client: httpx.AsyncClient, headers: dict[str, str], job_id: str) -> None:
    """Until the job runs on its second attempt."""
    item: dict[str, object] = {}
    for _ in range(400):
        item = (await client.get(f"/api/v2/jobs/{job_id}", headers=headers)).json()["item"]
        if item["status"] == "running" and item["attempt_count"] == 2:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"job {job_id} was not claimed again: {item}")
