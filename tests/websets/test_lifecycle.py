"""A webset from creation to completion on the sandbox world: statuses, progress, items, billing."""

from __future__ import annotations

import httpx

from leadwire.platform.runtime import Runtime
from leadwire.websets import discovery
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.websets.conftest import all_items, create_webset, wait_finished


async def test_a_webset_runs_to_completed_with_scored_items_and_bills_released_ones(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    acct = await AccountFactory(world_runtime).create(credits=100)
    created = await create_webset(world_client, acct.headers, query="software companies", count=25)
    assert created["webset"]["status"] == "generating_criteria" and created["webset"]["count"] == 25
    assert created["preparation_job"]["status"] == "queued"
    credits = assert_ok(await world_client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["reserved"] == 25
    webset_id = created["webset"]["id"]
    async with running_worker(world_runtime):
        prep = await poll_job(
            world_client, acct.headers, created["preparation_job"]["id"], until=("succeeded",)
        )
        webset = await wait_finished(world_client, acct.headers, webset_id)
    assert prep["result"]["webset_id"] == webset_id
    assert webset["status"] == "completed", webset
    progress = webset["progress"]
    assert progress["goal"] == 25 and progress["stop_reason"] in (
        "goal_reached",
        "exhausted",
        "verify_cap_reached",
    )
    assert webset["criteria"] and abs(sum(c["weight"] for c in webset["criteria"]) - 1) < 0.01
    qualified = await all_items(world_client, acct.headers, webset_id)
    assert 0 < len(qualified) <= 25
    assert all(i["match"]["status"] in ("full", "partial") and not i["provisional"] for i in qualified)
    assert len({i["id"] for i in qualified}) == len(qualified)
    run_job = await poll_job(world_client, acct.headers, webset["run_job_id"], until=("succeeded",))
    assert run_job["billing"]["charged_credits"] == len(qualified)
    credits = assert_ok(await world_client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["reserved"] == 0 and credits["balance"] == 100 - len(qualified)
    strategy = assert_ok(
        await world_client.get(f"/api/v2/websets/{webset_id}/strategy", headers=acct.headers)
    )
    assert strategy["item"]["readiness"] == "ready" and strategy["item"]["strategy"]["query_groups"]
    full = assert_ok(
        await world_client.get(
            f"/api/v2/websets/{webset_id}/items", params={"detail": "full", "limit": 10}, headers=acct.headers
        )
    )
    first = full["items"][0]
    assert first["criteria"][0]["reasoning"] and "references" in first["criteria"][0]


class RescuedAttempt:
    """What a second attempt of a run's job sees of its context: the database, and where it charges."""

    def __init__(self, runtime: Runtime) -> None:
        self.sessionmaker = runtime.sessionmaker
        self.charged: list[tuple[int, str]] = []

    def bill(self, units: int, *, kind: str) -> None:
        self.charged.append((units, kind))


async def test_an_attempt_that_finds_its_run_finished_charges_what_the_run_released(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    """A worker that died between finishing the run and saving its job's success (and charge) must
    not leave the delivered items unbilled: the rescued attempt charges them."""
    acct = await AccountFactory(world_runtime).create(credits=100)
    created = await create_webset(world_client, acct.headers, query="software companies", count=25)
    webset_id = created["webset"]["id"]
    async with running_worker(world_runtime):
        webset = await wait_finished(world_client, acct.headers, webset_id)
    released = len(await all_items(world_client, acct.headers, webset_id))
    attempt = RescuedAttempt(world_runtime)
    result = await discovery._run(attempt, webset_id, 1)  # type: ignore[arg-type]
    assert webset["status"] == "completed" and released > 0
    assert attempt.charged == [(released, "items")] and result["webset_status"] == "completed"
