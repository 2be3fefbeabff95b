"""Direct hand-off (`platform/jobs/handoff.py`): a job created beside a worker with a free slot is created
claimed by it and starts when its creation commits — no notification, no poll, no claim — and stays as
durable as any claimed job."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

import httpx
from sqlalchemy import text

from leadwire.platform.db import transaction
from leadwire.platform.jobs import handoff, presence
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.runner import Worker
from leadwire.platform.runtime import Runtime, build_runtime
from leadwire.platform.time import utcnow
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import create_echo, poll_job, running_worker, settled

# Longer than any test here: a job a worker runs in these tests was handed to it, not found by a poll.
NO_POLL = 60.0


async def _stored(runtime: Runtime, job_id: str) -> Job:
    async with transaction(runtime.sessionmaker) as session:
        job = await session.get(Job, job_id)
    assert job is not None
    return job


async def _killed(worker: Worker, running: asyncio.Task[None]) -> None:
    """The worker's tasks cancelled as a killed process's would stop: no release, no outcome. They must
    end at once; if they do not, the test fails naming what each unfinished task awaits (a full run of
    the suite once saw this take minutes, after which the job's lease had lapsed on its own)."""
    tasks = [*worker._running.values(), running]
    for task in tasks:
        task.cancel()
    _, pending = await asyncio.wait(tasks, timeout=30)
    if pending:
        out = io.StringIO()
        for task in asyncio.all_tasks():
            task.print_stack(file=out)
        raise AssertionError(f"{len(pending)} cancelled worker tasks still running:\n{out.getvalue()}")


async def _until_exists(path: Path) -> None:
    for _ in range(400):
        if path.exists():
            return
        await asyncio.sleep(0.025)
    raise AssertionError(f"{path} never appeared")


async def test_a_job_created_beside_a_free_worker_is_created_claimed_and_runs_without_a_poll(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    runtime.settings = runtime.settings.model_copy(update={"worker_poll_seconds": NO_POLL})
    acct = await accounts.create()
    started, release = tmp_path / "started", tmp_path / "release"
    async with running_worker(runtime, concurrency=2) as worker:
        await settled(worker)
        body = {"started_file": str(started), "block_file": str(release)}
        created = assert_ok(await create_echo(client, acct.headers, body), 202)["item"]
        # The answer is the job as created; the row is the worker's claim, written with it.
        assert (created["status"], created["attempt_count"], created["started_at"]) == ("queued", 0, None)
        stored = await _stored(runtime, created["id"])
        assert (stored.status, stored.attempt_count, stored.lease_owner) == ("running", 1, worker.owner)
        assert stored.lease_expires_at is not None and stored.started_at is not None
        await _until_exists(started)  # runs though the worker never looked for work
        release.write_text("go")
        done = await poll_job(client, acct.headers, created["id"], until=("succeeded", "failed"))
    assert done["status"] == "succeeded" and done["attempt_count"] == 1


async def test_a_full_worker_takes_no_job_and_the_queue_keeps_it(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    runtime.settings = runtime.settings.model_copy(update={"worker_poll_seconds": NO_POLL})
    acct = await accounts.create()
    release = tmp_path / "release"
    async with running_worker(runtime, concurrency=1) as worker:
        await settled(worker)
        first = assert_ok(await create_echo(client, acct.headers, {"block_file": str(release)}), 202)["item"]
        second = assert_ok(await create_echo(client, acct.headers, {"message": "later"}), 202)["item"]
        assert first["status"] == second["status"] == "queued"  # each answered as created
        assert (await _stored(runtime, first["id"])).lease_owner == worker.owner
        assert (await _stored(runtime, second["id"])).lease_owner is None
        release.write_text("go")
        for job_id in (first["id"], second["id"]):
            done = await poll_job(client, acct.headers, job_id, until=("succeeded", "failed"))
            assert done["status"] == "succeeded"


async def test_a_stopping_worker_takes_nothing(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with running_worker(runtime) as worker:
        await worker.announced.wait()
        worker.stop()
        created = assert_ok(await create_echo(client, acct.headers), 202)["item"]
        assert created["status"] == "queued"


async def test_a_creation_that_rolls_back_gives_its_slot_back(runtime: Runtime) -> None:
    runtime.settings = runtime.settings.model_copy(update={"worker_poll_seconds": NO_POLL})
    async with running_worker(runtime, concurrency=1) as worker:
        # Settled first: on SQLite the session below holds the write lock, which a claim would wait
        # for while holding the worker's free slots.
        await settled(worker)
        async with runtime.sessionmaker() as session:
            await session.execute(text("SELECT 1"))
            assert handoff.take(session, "test.echo", utcnow()) is not None
            assert handoff.take(session, "test.echo", utcnow()) is None  # its one slot is held
            await session.rollback()
        async with runtime.sessionmaker() as session:
            await session.execute(text("SELECT 1"))
            assert handoff.take(session, "test.echo", utcnow()) is not None  # free again
            await session.rollback()


async def test_a_worker_of_another_runtime_is_never_offered_the_job(runtime: Runtime) -> None:
    """Two runtimes in one process (as in tests, or an app beside a CLI command): a worker takes only
    jobs created through its own runtime's engine."""
    other = await build_runtime(runtime.settings)
    try:
        async with running_worker(other) as elsewhere:
            await elsewhere.announced.wait()
            async with runtime.sessionmaker() as session:
                await session.execute(text("SELECT 1"))
                assert handoff.take(session, "test.echo", utcnow()) is None
                await session.rollback()
    finally:
        await other.close()


async def test_a_handed_off_job_of_a_process_that_died_runs_again_elsewhere(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    """Created claimed, then the process 'dies' (its worker's tasks cancelled, nothing handed back):
    the job is rescued like any job of a lost worker and runs on its second attempt."""
    # A long lease, so that only the declared death cuts it short (`_killed` bounds how long that takes).
    runtime.settings = runtime.settings.model_copy(
        update={"worker_poll_seconds": 0.05, "job_lease_seconds": 60.0}
    )
    acct = await accounts.create()
    started, release = tmp_path / "started", tmp_path / "release"
    doomed = Worker(runtime)
    running = asyncio.create_task(doomed.run())
    await doomed.announced.wait()
    body = {"started_file": str(started), "block_file": str(release)}
    held = assert_ok(await create_echo(client, acct.headers, body), 202)["item"]["id"]
    try:
        await _until_exists(started)
        await _killed(doomed, running)
        before = await _stored(runtime, held)
        async with transaction(runtime.sessionmaker) as session:
            released = await presence.release_dead_process(session, pid=os.getpid())
        state = (before.status, before.lease_owner, before.lease_expires_at, doomed.owner, utcnow())
        assert released == 1, state
    finally:
        release.write_text("go")  # never leave the job's wait behind a failed assertion
    async with running_worker(runtime):
        done = await poll_job(client, acct.headers, held, until=("succeeded", "failed"), timeout=20)
    assert done["status"] == "succeeded" and done["attempt_count"] == 2
