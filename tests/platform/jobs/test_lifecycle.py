"""Job states and transitions (docs/api.md, Jobs and their statuses), driven by the test-only
`test.echo` action."""

from __future__ import annotations

import httpx
import pytest

from leadwire.platform.jobs.models import DETAIL_LIMIT
from leadwire.platform.runtime import Runtime
from leadwire.platform.users import all_scopes
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import create_echo, poll_job, running_worker

JOB_FIELDS = {
    "id",
    "action",
    "status",
    "progress",
    "resource",
    "scheduled_at",
    "started_at",
    "finished_at",
    "attempt_count",
    "result",
    "error",
    "billing",
}


async def test_created_job_is_queued_with_every_public_field(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    item = assert_ok(await create_echo(client, acct.headers), 202)["item"]
    assert item["id"].startswith("job_") and item["status"] == "queued" and item["action"] == "test.echo"
    job = assert_ok(await client.get(f"/api/v2/jobs/{item['id']}", headers=acct.headers))["item"]
    assert set(job) == JOB_FIELDS  # no `channel`: only outreach jobs carry it
    assert job["result"] is None and job["error"] is None and job["attempt_count"] == 0
    assert job["scheduled_at"].endswith("Z") and job["started_at"] is None
    # A job about nothing else names itself: every job's resource is an object.
    assert job["resource"] == {"type": "job", "id": item["id"]} == item["resource"]


async def test_worker_runs_job_to_succeeded(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    job_id = assert_ok(await create_echo(client, acct.headers, {"message": "hi"}), 202)["item"]["id"]
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("succeeded",))
    assert job["result"]["message"] == "hi" and job["error"] is None
    assert job["attempt_count"] == 1 and job["progress"] == {"stage": "succeeded", "percent": 100.0}
    assert job["started_at"] and job["finished_at"]


@pytest.mark.parametrize(("fail", "code"), [("provider_error", "provider_error"), ("raise", "handler_error")])
async def test_failing_handler_fails_job_with_code(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, fail: str, code: str
) -> None:
    acct = await accounts.create()
    job_id = assert_ok(await create_echo(client, acct.headers, {"fail": fail}), 202)["item"]["id"]
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("failed",))
    assert job["result"] is None and job["error"] == {"code": code}


@pytest.mark.parametrize("path", ["/api/v2/test/echo", "/api/v2/test/free-echo"])  # settled / batched
async def test_a_failure_with_a_detail_shows_it_as_error_detail(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, path: str
) -> None:
    acct = await accounts.create()
    body = {"fail": "provider_unavailable", "fail_detail": "HTTP 503 from the provider"}
    job_id = assert_ok(await client.post(path, json=body, headers=acct.headers), 202)["item"]["id"]
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("failed",))
    assert job["error"] == {"code": "provider_unavailable", "detail": "HTTP 503 from the provider"}
    assert job["result"] is None


async def test_a_long_failure_detail_is_capped(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    body = {"fail": "provider_error", "fail_detail": "x" * 5000}
    job_id = assert_ok(await create_echo(client, acct.headers, body), 202)["item"]["id"]
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("failed",))
    assert job["error"]["detail"] == "x" * (DETAIL_LIMIT - 1) + "…"


async def test_the_failure_log_line_carries_the_request_that_created_the_job(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, caplog: pytest.LogCaptureFixture
) -> None:
    acct = await accounts.create()
    created = await create_echo(client, acct.headers, {"fail": "provider_error", "fail_detail": "refused"})
    job_id, request_id = assert_ok(created, 202)["item"]["id"], created.headers["x-request-id"]
    later = await client.get("/api/v2/credits", headers=acct.headers)  # another request, before the run
    assert later.headers["x-request-id"] != request_id
    async with running_worker(runtime):
        await poll_job(client, acct.headers, job_id, until=("failed",))
    records = [r for r in caplog.records if r.name == "leadwire.worker" and job_id in r.getMessage()]
    assert [r.getMessage() for r in records] == [
        f"job {job_id} (test.echo) failed: provider_error: refused request_id={request_id}"
    ]
    assert getattr(records[0], "request_id", None) == request_id
    assert getattr(records[0], "job_id", None) == job_id


async def test_handler_past_its_timeout_fails_with_job_timeout(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    from leadwire.platform.jobs.registry import registry

    spec = registry.get("test.echo")
    monkeypatch.setitem(registry._specs, "test.echo", replace(spec, timeout_seconds=0.2))
    acct = await accounts.create()
    job_id = assert_ok(await create_echo(client, acct.headers, {"sleep": 5}), 202)["item"]["id"]
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("failed",))
    assert job["error"] == {"code": "job_timeout"}


async def test_cancel_queued_job_cancels_it(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    job_id = assert_ok(await create_echo(client, acct.headers), 202)["item"]["id"]
    item = assert_ok(await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=acct.headers))["item"]
    assert item["status"] == "cancelled" and item["finished_at"]


async def test_cancel_scheduled_job_cancels_it(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    created = assert_ok(await create_echo(client, acct.headers, {"scheduled_in": 3600}), 202)["item"]
    assert created["status"] == "scheduled"
    item = assert_ok(await client.post(f"/api/v2/jobs/{created['id']}/cancel", headers=acct.headers))["item"]
    assert item["status"] == "cancelled"


async def test_cancel_running_job_is_job_already_running_and_leaves_it(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, tmp_path
) -> None:
    acct = await accounts.create()
    gate, started = tmp_path / "gate", tmp_path / "started"
    body = {"block_file": str(gate), "started_file": str(started)}
    job_id = assert_ok(await create_echo(client, acct.headers, body), 202)["item"]["id"]
    async with running_worker(runtime):
        await poll_job(client, acct.headers, job_id, until=("running",))
        assert_error(
            await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=acct.headers),
            409,
            "job_already_running",
        )
        gate.write_text("go")
        job = await poll_job(client, acct.headers, job_id, until=("succeeded",))
    assert job["status"] == "succeeded"


async def test_cancel_terminal_job_returns_it_unchanged(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    job_id = assert_ok(await create_echo(client, acct.headers), 202)["item"]["id"]
    async with running_worker(runtime):
        done = await poll_job(client, acct.headers, job_id, until=("succeeded",))
    again = assert_ok(await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=acct.headers))["item"]
    assert again == done
    cancelled_id = assert_ok(await create_echo(client, acct.headers), 202)["item"]["id"]
    first = assert_ok(await client.post(f"/api/v2/jobs/{cancelled_id}/cancel", headers=acct.headers))["item"]
    second = assert_ok(await client.post(f"/api/v2/jobs/{cancelled_id}/cancel", headers=acct.headers))["item"]
    assert first == second


async def test_unknown_and_foreign_job_ids_are_task_not_found(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    alice = await accounts.create()
    bob = await accounts.create()
    job_id = assert_ok(await create_echo(client, alice.headers), 202)["item"]["id"]
    assert_error(await client.get(f"/api/v2/jobs/{job_id}", headers=bob.headers), 404, "task_not_found")
    assert_error(
        await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=bob.headers), 404, "task_not_found"
    )
    assert_error(await client.get("/api/v2/jobs/job_nope", headers=alice.headers), 404, "task_not_found")
    assert_error(await client.get("/api/v2/jobs/" + "x" * 300, headers=alice.headers), 404, "task_not_found")


async def test_reading_needs_the_capabilitys_read_scope_and_cancel_its_write_scope(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    job_id = assert_ok(await create_echo(client, owner.headers), 202)["item"]["id"]
    reader = await accounts.key(owner.user_id, scopes=["research:read"])
    outsider = await accounts.key(
        owner.user_id, scopes=[s for s in all_scopes() if not s.startswith("research:")]
    )
    assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=reader.headers))
    assert_error(
        await client.get(f"/api/v2/jobs/{job_id}", headers=outsider.headers), 403, "permission_denied"
    )
    assert_error(
        await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=reader.headers), 403, "permission_denied"
    )


async def test_v1_outreach_job_lookup_hides_other_actions(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    job_id = assert_ok(await create_echo(client, acct.headers), 202)["item"]["id"]
    assert_error(
        await client.get(f"/api/v1/outreach/jobs/{job_id}", headers=acct.headers), 404, "task_not_found"
    )
    # Also for a key that could not read that job at all: v1 does not know the job, it is not forbidden.
    outreach_only = await accounts.key(acct.user_id, scopes=["outreach:read"])
    response = await client.get(f"/api/v1/outreach/jobs/{job_id}", headers=outreach_only.headers)
    assert_error(response, 404, "task_not_found")


async def test_scheduled_job_waits_for_its_time(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    job_id = assert_ok(await create_echo(client, acct.headers, {"scheduled_in": 1.0}), 202)["item"]["id"]
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("succeeded",))
    assert job["started_at"] >= job["scheduled_at"]


async def test_draining_server_refuses_new_jobs_with_task_unavailable(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    runtime.draining = True
    response = await create_echo(client, acct.headers)
    assert_error(response, 503, "task_unavailable")
    assert response.headers["retry-after"]


@pytest.mark.parametrize(
    ("body", "status"), [({"message": "free"}, "succeeded"), ({"fail": "provider_error"}, "failed")]
)
async def test_not_billable_jobs_finish_through_the_batched_path(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, body: dict, status: str
) -> None:
    acct = await accounts.create(credits=0)
    ids = [
        assert_ok(await client.post("/api/v2/test/free-echo", json=body, headers=acct.headers), 202)["item"][
            "id"
        ]
        for _ in range(8)
    ]
    async with running_worker(runtime, concurrency=8):
        jobs = [await poll_job(client, acct.headers, job_id, until=("succeeded", "failed")) for job_id in ids]
    for job in jobs:
        assert job["status"] == status and job["billing"]["status"] == "not_billable"
        assert job["finished_at"] and job["attempt_count"] == 1
        if status == "succeeded":
            assert job["result"]["message"] == "free" and job["progress"]["percent"] == 100.0
        else:
            assert job["error"] == {"code": "provider_error"} and job["result"] is None


async def test_expired_lease_past_the_attempt_limit_fails_with_attempts_exhausted(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    from leadwire.platform.db import transaction
    from leadwire.platform.jobs import queue

    acct = await accounts.create(credits=50)
    job_id = assert_ok(await create_echo(client, acct.headers, {"max_units": 4}), 202)["item"]["id"]
    for _ in range(runtime.settings.job_max_attempts):  # each claim by a worker that then vanishes
        async with transaction(runtime.sessionmaker) as session:
            claimed = await queue.claim_due(session, owner="ghost", limit=1, lease_seconds=-1)
            assert [j.id for j in claimed] == [job_id]
        async with transaction(runtime.sessionmaker) as session:
            await queue.rescue_expired(
                session, runtime.notifier, max_attempts=runtime.settings.job_max_attempts
            )
    job = assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=acct.headers))["item"]
    assert job["status"] == "failed" and job["error"] == {"code": "attempts_exhausted"}
    assert job["attempt_count"] == runtime.settings.job_max_attempts
    assert job["billing"]["charged_credits"] == 0
    credits = assert_ok(await client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["reserved"] == 0 and credits["balance"] == 50


async def test_a_claim_that_ends_after_shutdown_began_hands_its_jobs_back(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    """`shutdown` releases the jobs it finds running; one claimed by a claim still in flight when it
    looked would be left to its lease's expiry. The claim sees the stop and releases them itself."""
    from leadwire.platform.jobs.runner import Worker

    acct = await accounts.create()
    job_id = assert_ok(await create_echo(client, acct.headers, {"max_units": 1, "units": 1}), 202)["item"][
        "id"
    ]
    worker = Worker(runtime, concurrency=2)
    worker.stop()  # as if the signal came while the claim's transaction ran
    assert await worker._claim() is False
    job = assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=acct.headers))["item"]
    assert job["status"] == "queued"
    assert job["attempt_count"] == 0  # never started: the claim's attempt is given back
    assert job["started_at"] is None
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("succeeded",))
    assert job["billing"]["charged_credits"] == 2 and job["attempt_count"] == 1
