"""A new list answers its preparation job as the creation committed it (`queued`), though a worker of
the same process (`leadwire serve`) is handed the job by its creation and starts it as the commit
lands; it answered `running`. REST and MCP answer alike."""

from __future__ import annotations

import httpx

from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.runner import Worker
from leadwire.platform.runtime import Runtime
from tests.mcp.test_mcp_server import call
from tests.support.accounts import AccountFactory
from tests.support.jobs import handed_off, running_worker, settled
from tests.websets.conftest import create_webset, wait_finished

NO_POLL = 60.0  # the worker takes the preparation job as it is created, not by a poll


async def _handed_off_to(runtime: Runtime, worker: Worker, taken: list[str], job_id: str) -> str | None:
    """The worker the job was created claimed by (handed to it, its start its creation), else None. Not
    the row's lease: the job may have ended, its lease cleared, before this reads it."""
    async with transaction(runtime.sessionmaker) as session:
        job = await session.get(Job, job_id)
    assert job is not None
    return worker.owner if job_id in taken and job.started_at == job.created_at else None


async def test_a_new_list_answers_its_preparation_job_queued_beside_a_worker_that_takes_it_at_once(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    client, runtime = pool_client, pool_runtime
    runtime.settings = runtime.settings.model_copy(update={"worker_poll_seconds": NO_POLL})
    acct = await AccountFactory(runtime).create(credits=200)
    async with running_worker(runtime, concurrency=2) as worker:
        taken = handed_off(worker)
        await settled(worker)
        by_rest = await create_webset(client, acct.headers, query="Swiss chemical companies", count=25)
        rest_owner = await _handed_off_to(runtime, worker, taken, by_rest["preparation_job"]["id"])
        await wait_finished(client, acct.headers, by_rest["webset"]["id"])
        await settled(worker)
        answer = await call(client, acct.headers, "create_webset", query="Swiss chemical companies", count=25)
        by_mcp = answer["structuredContent"]
        mcp_owner = await _handed_off_to(runtime, worker, taken, by_mcp["preparation_job"]["id"])
        await wait_finished(client, acct.headers, by_mcp["webset"]["id"])
    assert rest_owner == mcp_owner == worker.owner
    for created in (by_rest, by_mcp):
        assert created["preparation_job"]["status"] == "queued"
        assert created["webset"]["status"] == "generating_criteria"
