"""A list survives a database restart: every PostgreSQL connection cut (as a restart or failover cuts
them) while it is prepared and searched, its jobs still succeed and it completes. Before, a handler
whose connection was cut failed for good (`handler_error`) and the list ended `failed`."""

from __future__ import annotations

import asyncio

import pytest

from leadwire.app import create_app
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.faults import terminate_backends
from tests.support.jobs import poll_job, running_worker
from tests.support.lifespan import asgi_client
from tests.websets.conftest import create_webset, wait_finished


@pytest.fixture
def database_url(pg_database: str) -> str:
    """PostgreSQL only: cutting connections from the server side is what this is about."""
    from tests.conftest import _empty_pg

    asyncio.run(_empty_pg(pg_database))
    return pg_database


async def test_a_list_whose_connections_are_cut_while_it_runs_still_completes(
    world_runtime: Runtime, database_url: str
) -> None:
    acct = await AccountFactory(world_runtime).create(credits=1000)
    async with asgi_client(create_app(runtime=world_runtime)) as http, running_worker(world_runtime):
        created = await create_webset(http, acct.headers, count=25)
        webset_id = created["webset"]["id"]
        cut = 0
        for pause in (0.2, 0.5, 1.0, 1.5):  # through preparation and the search that follows
            await asyncio.sleep(pause)
            cut += await terminate_backends(database_url)
        assert cut > 0
        finished = await wait_finished(http, acct.headers, webset_id, timeout=120)
        assert finished["status"] == "completed", str(finished)
        detail = assert_ok(await http.get(f"/api/v2/websets/{webset_id}", headers=acct.headers))["item"]
        for job_id in (detail["preparation_job_id"], detail["run_job_id"]):
            job = await poll_job(http, acct.headers, job_id, until=("succeeded", "failed"), timeout=30)
            assert job["status"] == "succeeded", job
