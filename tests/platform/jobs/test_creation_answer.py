"""A creation answers the job as its creation committed it (`queued`), however quickly a worker of the
same process takes it: a job handed off at creation (`platform/jobs/handoff.py`) is written claimed,
and its 202 said `running` — through REST's creation routes and through MCP's creation tools."""

from __future__ import annotations

from typing import Any

import httpx

from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.runner import Worker
from leadwire.platform.runtime import Runtime
from tests.mcp.test_mcp_server import call
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import handed_off, poll_job, running_worker, settled

# Longer than any test here: the worker takes these jobs as they are created, not by a poll.
NO_POLL = 60.0
ENDED = ("succeeded", "failed")


async def assert_handed_off(runtime: Runtime, worker: Worker, taken: list[str], job_id: str) -> None:
    """The job was created claimed by `worker` (handed to it, its start its creation), not claimed
    later. Not read from its lease alone: a job that ended before this reads it has its lease cleared."""
    async with transaction(runtime.sessionmaker) as session:
        job = await session.get(Job, job_id)
    assert job is not None and job_id in taken, (job, taken)
    assert job.lease_owner == (None if job.status in ENDED else worker.owner), job
    assert job.started_at == job.created_at and job.attempt_count == 1


def assert_as_created(job: dict[str, Any]) -> None:
    assert (job["status"], job["attempt_count"], job["started_at"]) == ("queued", 0, None), job
    assert job["progress"]["stage"] == "queued"


async def test_a_creation_route_answers_queued_when_its_own_worker_takes_the_job_at_once(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    runtime.settings = runtime.settings.model_copy(update={"worker_poll_seconds": NO_POLL})
    acct = await accounts.create(credits=50)
    headers = {**acct.headers, "Idempotency-Key": "created-once"}
    body = {"queries": ["software company"], "search_limit": 2}
    async with running_worker(runtime, concurrency=2) as worker:
        taken = handed_off(worker)
        await settled(worker)
        created = assert_ok(await client.post("/api/v2/research/public-web", json=body, headers=headers), 202)
        await assert_handed_off(runtime, worker, taken, created["item"]["id"])
        await poll_job(client, acct.headers, created["item"]["id"], until=ENDED)
        replayed = await client.post("/api/v2/research/public-web", json=body, headers=headers)
    assert_as_created(created["item"])
    assert replayed.status_code == 202 and replayed.json()["item"] == created["item"]  # as stored


async def test_a_creation_tool_answers_queued_when_its_own_worker_takes_the_job_at_once(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    runtime.settings = runtime.settings.model_copy(update={"worker_poll_seconds": NO_POLL})
    acct = await accounts.create(credits=50)
    async with running_worker(runtime, concurrency=2) as worker:
        taken = handed_off(worker)
        await settled(worker)
        result = await call(
            client, acct.headers, "research_public_web", queries=["software company"], wait_seconds=0
        )
        job = result["structuredContent"]
        await assert_handed_off(runtime, worker, taken, job["id"])
        await poll_job(client, acct.headers, job["id"], until=ENDED)
    assert_as_created(job)
