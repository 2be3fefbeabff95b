"""Monitors: a list kept fresh on a schedule — every code of a bad request, a slot that runs once with
two schedulers and again after a restart, a slot skipped while its list runs, and a run's Find More that
keeps the list's exclusions (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime, timedelta
from typing import Any

import httpx

from leadwire.platform.jobs import JobContext
from leadwire.platform.runtime import Runtime, build_runtime
from leadwire.platform.time import utcnow
from leadwire.providers.reasoner import Verdict
from leadwire.websets import monitor_scheduler, refresh
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.websets.conftest import all_items, create_webset, domain, wait_finished

QUERY = "chemical companies in Switzerland"
HOURLY = {"cron": "0 * * * *", "timezone": "UTC"}


async def _monitor(client: httpx.AsyncClient, headers: dict[str, str], webset_id: str, **body: Any) -> Any:
    return await client.post(
        "/api/v2/monitors", json={"webset_id": webset_id, "cadence": HOURLY, **body}, headers=headers
    )


async def _runs(client: httpx.AsyncClient, headers: dict[str, str], monitor_id: str) -> list[Any]:
    return list(assert_ok(await client.get(f"/api/v2/monitors/{monitor_id}/runs", headers=headers))["items"])


def _after(monitor: dict[str, Any], hours: float = 0) -> datetime:
    """A moment past the monitor's next slot (and `hours` more)."""
    return datetime.fromisoformat(monitor["next_run_at"].replace("Z", "+00:00")) + timedelta(
        seconds=1, hours=hours
    )


async def test_a_slot_runs_once_with_two_schedulers_and_not_again_after_a_restart(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=300)
    async with running_worker(pool_runtime):
        webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
        await wait_finished(pool_client, acct.headers, webset_id)
    made = assert_ok(await _monitor(pool_client, acct.headers, webset_id, count=25), 201)["item"]
    other = await build_runtime(pool_runtime.settings)  # a second worker process's scheduler
    try:
        due = _after(made)
        taken = await asyncio.gather(
            monitor_scheduler.tick(pool_runtime, due), monitor_scheduler.tick(other, due)
        )
        restarted = await monitor_scheduler.tick(other, due)  # a scheduler started again at the same moment
    finally:
        await other.close()
    runs = await _runs(pool_client, acct.headers, made["id"])
    read = assert_ok(await pool_client.get(f"/api/v2/monitors/{made['id']}", headers=acct.headers))["item"]
    assert sorted(taken) == [0, 1] and restarted == 0
    assert len(runs) == 1 and runs[0]["slot_at"] == made["next_run_at"] and runs[0]["job_id"]
    assert read["next_run_at"] > made["next_run_at"] and read["last_run_at"] is not None
    job = assert_ok(await pool_client.get(f"/api/v2/jobs/{runs[0]['job_id']}", headers=acct.headers))["item"]
    assert job["action"] == "websets.find_more" and runs[0]["status"] == job["status"]
    # The next slot is a run of its own.
    assert await monitor_scheduler.tick(pool_runtime, _after(read)) == 1
    assert len(await _runs(pool_client, acct.headers, made["id"])) == 2


async def test_a_slot_while_the_list_still_runs_is_skipped_and_the_monitor_goes_on(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=300)
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    made = assert_ok(await _monitor(pool_client, acct.headers, webset_id), 201)["item"]
    assert await monitor_scheduler.tick(pool_runtime, _after(made)) == 1  # no worker: the list is running
    (run,) = await _runs(pool_client, acct.headers, made["id"])
    read = assert_ok(await pool_client.get(f"/api/v2/monitors/{made['id']}", headers=acct.headers))["item"]
    assert (run["status"], run["skipped_code"], run["job_id"]) == ("skipped", "webset_busy", None)
    assert read["next_run_at"] > made["next_run_at"]
    credits = assert_ok(await pool_client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["reserved"] == 25  # only the list's own run: the skipped slot reserved nothing


async def test_a_monitor_s_run_keeps_the_list_s_exclusions(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=300)
    async with running_worker(pool_runtime):
        first = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
        await wait_finished(pool_client, acct.headers, first)
        held = {domain(i) for i in await all_items(pool_client, acct.headers, first)}
        body = {"query": "Swiss banks", "count": 25, "exclude": [{"source": "webset", "id": first}]}
        second = assert_ok(await pool_client.post("/api/v2/websets", json=body, headers=acct.headers), 202)[
            "item"
        ]["webset"]["id"]
        await wait_finished(pool_client, acct.headers, second)
        # The second list's monitor looks for more of its query; the first list's companies stay out.
        made = assert_ok(await _monitor(pool_client, acct.headers, second), 201)["item"]
        await monitor_scheduler.tick(pool_runtime, _after(made))
        (run,) = await _runs(pool_client, acct.headers, made["id"])
        await poll_job(pool_client, acct.headers, run["job_id"], until=("succeeded",), timeout=60)
        items = await all_items(pool_client, acct.headers, second, match="verified")
    assert not {domain(i) for i in items} & held


async def test_every_bad_monitor_request_has_its_code(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=300)
    other = await AccountFactory(pool_runtime).create(credits=300)
    free = await AccountFactory(pool_runtime).create(credits=300, plan="free")
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    for body in (
        {"cadence": HOURLY},
        {"webset_id": webset_id},
        {"webset_id": webset_id, "cadence": HOURLY, "behavior": "rebuild"},
        {"webset_id": webset_id, "cadence": HOURLY, "count": 30},
        {"webset_id": webset_id, "cadence": HOURLY, "metadata": {f"k{n}": "v" for n in range(21)}},
    ):
        assert_error(
            await pool_client.post("/api/v2/monitors", json=body, headers=acct.headers),
            400,
            "invalid_monitor",
        )
    for cadence, param in (
        ({"cron": "*/30 * * * *"}, "cadence.cron"),
        ({"cron": "0 * * *"}, "cadence.cron"),
        ({"cron": "99 * * * *"}, "cadence.cron"),
        ({"cron": "0 9 * * 1", "timezone": "Mars/Olympus"}, "cadence.timezone"),
    ):
        body = {"webset_id": webset_id, "cadence": cadence}
        error = assert_error(
            await pool_client.post("/api/v2/monitors", json=body, headers=acct.headers),
            400,
            "invalid_monitor_cadence",
        )
        assert error["error"]["param"] == param
    assert_error(await _monitor(pool_client, other.headers, webset_id), 404, "webset_not_found")
    free_list = (await create_webset(pool_client, free.headers, query=QUERY, count=25))["webset"]["id"]
    assert_error(
        await _monitor(pool_client, free.headers, free_list, count=100),
        403,
        "webset_count_not_available_for_tier",
    )
    key = {**acct.headers, "Idempotency-Key": uuid.uuid4().hex}
    first = assert_ok(await _monitor(pool_client, key, webset_id), 201)["item"]
    replayed = await _monitor(pool_client, key, webset_id)  # the stored answer, under its first request id
    assert replayed.status_code == 201 and replayed.json()["item"] == first
    for _ in range(4):
        assert_ok(await _monitor(pool_client, acct.headers, webset_id), 201)
    assert_error(await _monitor(pool_client, acct.headers, webset_id), 409, "monitor_limit_exceeded")
    for method, path in (("GET", ""), ("PATCH", ""), ("DELETE", ""), ("GET", "/runs")):
        for headers, monitor_id in ((acct.headers, "mon_missing"), (other.headers, first["id"])):
            body = {"status": "paused"} if method == "PATCH" else None
            missing = await pool_client.request(
                method, f"/api/v2/monitors/{monitor_id}{path}", json=body, headers=headers
            )
            assert_error(missing, 404, "monitor_not_found")
    bad_patch = await pool_client.patch(
        f"/api/v2/monitors/{first['id']}", json={"cadence": {"cron": "* * * * *"}}, headers=acct.headers
    )
    assert_error(bad_patch, 400, "invalid_monitor_cadence")
    assert_error(
        await pool_client.patch(
            f"/api/v2/monitors/{first['id']}", json={"status": "off"}, headers=acct.headers
        ),
        400,
        "invalid_monitor",
    )


async def test_a_monitor_is_read_listed_paused_resumed_and_deleted(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=300)
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    weekly = {"cron": "0 9 * * 1", "timezone": "Europe/Berlin"}
    made = assert_ok(
        await pool_client.post(
            "/api/v2/monitors",
            json={"webset_id": webset_id, "cadence": weekly, "metadata": {"crm": "x"}},
            headers=acct.headers,
        ),
        201,
    )["item"]
    slot = datetime.fromisoformat(made["next_run_at"].replace("Z", "+00:00"))
    assert made["object"] == "monitor" and made["status"] == "active" and made["behavior"] == "search"
    assert made["cadence"] == weekly and made["count"] == 25 and made["metadata"] == {"crm": "x"}
    assert slot > utcnow() and slot.weekday() == 0 and slot.hour in (7, 8)  # 09:00 in Berlin, in UTC
    listed = assert_ok(await pool_client.get(f"/api/v2/monitors?webset_id={webset_id}", headers=acct.headers))
    paused = assert_ok(
        await pool_client.patch(
            f"/api/v2/monitors/{made['id']}", json={"status": "paused"}, headers=acct.headers
        )
    )["item"]
    assert await monitor_scheduler.tick(pool_runtime, slot + timedelta(days=8)) == 0  # paused: nothing is due
    resumed = assert_ok(
        await pool_client.patch(
            f"/api/v2/monitors/{made['id']}", json={"status": "active", "count": 100}, headers=acct.headers
        )
    )["item"]
    deleted = assert_ok(await pool_client.delete(f"/api/v2/monitors/{made['id']}", headers=acct.headers))[
        "item"
    ]
    assert [m["id"] for m in listed["items"]] == [made["id"]]
    assert paused["status"] == "paused" and paused["next_run_at"] is None
    assert resumed["status"] == "active" and resumed["count"] == 100 and resumed["next_run_at"]
    assert deleted == {"id": made["id"], "deleted": True}
    assert_error(
        await pool_client.get(f"/api/v2/monitors/{made['id']}", headers=acct.headers),
        404,
        "monitor_not_found",
    )


class _Doubting:
    """The reasoner as it judges now: every other prospect no longer meets the criteria (its pages
    changed, or the model did)."""

    name = "doubting"

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def verify(self, query: str, criteria: Any, prospects: Any) -> Any:
        judged = await self.inner.verify(query, criteria, prospects)
        return [
            [Verdict(v.criterion_id, 0.0, "no longer", 0.9, (), "no") for v in verdicts]
            if n % 2
            else verdicts
            for n, verdicts in enumerate(judged)
        ]


async def test_a_refresh_run_re_verifies_the_items_marks_what_changed_and_re_runs_the_enrichments(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=300)
    employees = {"description": "Number of employees", "format": "number"}
    async with running_worker(pool_runtime):
        created = await create_webset(
            pool_client, acct.headers, query=QUERY, count=25, enrichments=[employees]
        )
        webset_id = created["webset"]["id"]
        await wait_finished(pool_client, acct.headers, webset_id)
        (enrichment,) = assert_ok(
            await pool_client.get(f"/api/v2/websets/{webset_id}/enrichments", headers=acct.headers)
        )["items"]
        if enrichment["job_id"]:  # None when it finished filling before this read
            await poll_job(pool_client, acct.headers, enrichment["job_id"], until=("succeeded",), timeout=60)
        before = await all_items(pool_client, acct.headers, webset_id, match="verified")
        made = assert_ok(await _monitor(pool_client, acct.headers, webset_id, behavior="refresh"), 201)[
            "item"
        ]
        pool_runtime.adapters["reasoner"] = _Doubting(pool_runtime.adapters["reasoner"])
        assert await monitor_scheduler.tick(pool_runtime, _after(made)) == 1
        (run,) = await _runs(pool_client, acct.headers, made["id"])
        job = await poll_job(
            pool_client, acct.headers, run["job_id"], until=("succeeded", "failed"), timeout=60
        )
        (refilled,) = assert_ok(
            await pool_client.get(f"/api/v2/websets/{webset_id}/enrichments", headers=acct.headers)
        )["items"]
        if refilled["job_id"]:
            await poll_job(pool_client, acct.headers, refilled["job_id"], until=("succeeded",), timeout=60)
        after = {i["id"]: i for i in await all_items(pool_client, acct.headers, webset_id, match="verified")}
        qualified = await all_items(pool_client, acct.headers, webset_id, detail="standard", limit=25)
        # The same job's attempt again, as after a worker killed once its work was committed but before
        # its success was saved: nothing is re-verified or refilled twice.
        again = await refresh.run(
            JobContext(pool_runtime, job["id"], refresh.REFRESH, acct.user_id, 2, "test"),
            {"webset_id": webset_id},
        )
    assert job["action"] == "websets.refresh" and job["status"] == "succeeded", job
    flipped = [i for i in before if after[i["id"]]["match"]["status"] != i["match"]["status"]]
    assert job["result"]["checked"] == len(before) and job["result"]["changed"] >= len(flipped) > 0
    assert all(after[i["id"]]["match"]["status"] == "rejected" for i in flipped)
    assert job["result"]["enrichments_refilled"] == 1
    assert all(i["enrichments"][0]["status"] == "completed" for i in qualified)
    assert job["billing"]["charged_credits"] == -(-len(before) * 2 // 10)  # 0.2 credit an item, rounded up
    assert again == {**job["result"], "changed": 0, "enrichments_refilled": 0}
