"""Find More on a pool that runs out: new items meet the first run's bar, the run stops `exhausted`
with fewer items than asked, and only what it delivered is charged (SQLite and PostgreSQL)."""

from __future__ import annotations

import uuid

import httpx

from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.websets.conftest import SWISS_CHEMICALS, all_items, create_webset, domain, wait_finished


async def test_find_more_on_a_pool_that_runs_out_stops_exhausted_and_charges_what_it_delivered(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    created = await create_webset(
        pool_client, acct.headers, query="chemical companies in Switzerland", count=25
    )
    webset_id = created["webset"]["id"]
    async with running_worker(pool_runtime):
        first = await wait_finished(pool_client, acct.headers, webset_id)
        before = {domain(i) for i in await all_items(pool_client, acct.headers, webset_id)}
        response = await pool_client.post(
            f"/api/v2/websets/{webset_id}/find-more",
            json={"count": 25},
            headers={**acct.headers, "Idempotency-Key": uuid.uuid4().hex},
        )
        job = assert_ok(response, 202)["item"]
        finished = await poll_job(pool_client, acct.headers, job["id"], until=("succeeded",), timeout=60)
        webset = await wait_finished(pool_client, acct.headers, webset_id)
        after = await all_items(pool_client, acct.headers, webset_id)
    assert first["progress"]["stop_reason"] == "goal_reached" and len(before) == 25
    added = {domain(i) for i in after} - before
    # The five Swiss chemical companies left, and nothing else: no bank, nothing from Germany.
    assert len(added) == SWISS_CHEMICALS - 25
    assert all(d.startswith("alpen") for d in added | before)
    assert webset["progress"]["stop_reason"] == "exhausted"
    assert finished["billing"]["charged_credits"] == len(added)
    credits = assert_ok(await pool_client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["reserved"] == 0 and credits["balance"] == 200 - SWISS_CHEMICALS


async def test_find_more_on_a_pool_already_used_up_delivers_nothing_and_charges_nothing(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    created = await create_webset(pool_client, acct.headers, query="Swiss banks", count=25)
    webset_id = created["webset"]["id"]
    async with running_worker(pool_runtime):
        await wait_finished(pool_client, acct.headers, webset_id)
        more = await pool_client.post(
            f"/api/v2/websets/{webset_id}/find-more",
            json={"count": 25},
            headers={**acct.headers, "Idempotency-Key": uuid.uuid4().hex},
        )
        job = assert_ok(more, 202)["item"]
        await poll_job(pool_client, acct.headers, job["id"], until=("succeeded",), timeout=60)
        more_again = await pool_client.post(
            f"/api/v2/websets/{webset_id}/find-more",
            json={"count": 25},
            headers={**acct.headers, "Idempotency-Key": uuid.uuid4().hex},
        )
        last = await poll_job(
            pool_client,
            acct.headers,
            assert_ok(more_again, 202)["item"]["id"],
            until=("succeeded",),
            timeout=60,
        )
        webset = await wait_finished(pool_client, acct.headers, webset_id)
        items = await all_items(pool_client, acct.headers, webset_id)
    assert len(items) == 30 and all(domain(i).startswith("bergbank") for i in items)
    assert webset["progress"]["stop_reason"] == "exhausted"
    assert last["billing"]["charged_credits"] == 0
    credits = assert_ok(await pool_client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["reserved"] == 0 and credits["balance"] == 200 - 30
