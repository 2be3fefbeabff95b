"""Customs trade records and contacts are read only by a plan and a key that may read them, on every path
of a prospect list that reads them: creation with a customs seed, person lists, email columns, Find More,
monitors, item pages, streams, exports and MCP; at the request, and again when the job runs (a plan
downgraded or a key without the scope fails it). SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from leadwire.platform.db import transaction
from leadwire.platform.events import append_events
from leadwire.platform.http import caller_for_digest
from leadwire.platform.runtime import Runtime
from leadwire.platform.users import User, digest_key
from leadwire.providers.data_rights import TRADE_RECORDS, reader_now, refusal
from leadwire.websets import monitor_scheduler, states, streams
from tests.mcp.test_mcp_server import call, error_code, error_text
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.websets.conftest import all_items, create_webset, wait_finished

CUSTOMS_SEED = {
    "type": "customs",
    "role": "importer",
    "hs_code": "8471",
    "country_codes": "DEU",
    "start_date": "2024-01-01",
    "end_date": "2024-12-31",
}
EMAIL = {"description": "Email of the CEO", "format": "email"}
WEBSETS_ONLY = ["websets:read", "websets:write"]
HOURLY = {"cron": "0 * * * *", "timezone": "UTC"}
# The refusal each way of lacking the data: the plan, or the key's scope.
FREE = ("membership_tier_insufficient", {"customs": "customs", "contacts": "contacts"})
NO_SCOPE = ("permission_denied", {"customs": "customs:read", "contacts": "research:read"})


async def _downgrade(runtime: Runtime, user_id: str, plan: str) -> None:
    """The operator moves the account to another plan (no command does it yet: the row, by the ORM)."""
    async with transaction(runtime.sessionmaker) as session:
        user = await session.get(User, user_id)
        assert user is not None
        user.plan = plan


def _refused(response: httpx.Response, code: str, names: str) -> None:
    body = assert_error(response, 403, code)
    assert names in body["error"]["detail"], body["error"]


async def _lists(client: httpx.AsyncClient, owner: TestAccount) -> dict[str, str]:
    """A customs-seeded list, a person list and a company list with an email column, and a plain
    company list; none runs (no worker): their rows are what every path reads."""
    made = {
        "customs": await create_webset(client, owner.headers, query="laptop importers", seed=CUSTOMS_SEED),
        "contacts": await create_webset(client, owner.headers, query="CTOs at banks", target_kind="person"),
        "email": await create_webset(client, owner.headers, query="banks in Zurich", enrichments=[EMAIL]),
        "plain": await create_webset(client, owner.headers, query="banks in Geneva"),
    }
    return {name: created["webset"]["id"] for name, created in made.items()}


def _paths(webset_id: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    """Every request on a list that reads what its items are made of."""
    base = f"/api/v2/websets/{webset_id}"
    return [
        ("GET", f"{base}/items?detail=compact", None),
        ("GET", f"{base}/items?detail=full", None),
        ("GET", f"{base}/export?format=csv", None),
        ("GET", f"{base}/export?format=jsonl", None),
        ("GET", f"{base}/items/stream", None),
        ("GET", f"{base}/find-more/stream?job_id=job_unknown", None),
        ("POST", f"{base}/find-more", {"count": 25}),
        ("POST", f"{base}/enrichments", {"description": "Founded in", "format": "date"}),
        ("POST", "/api/v2/monitors", {"webset_id": webset_id, "cadence": HOURLY}),
    ]


async def _send(
    client: httpx.AsyncClient, headers: dict[str, str], method: str, path: str, body: dict[str, Any] | None
) -> httpx.Response:
    if method == "GET" and "/stream" in path:
        async with client.stream("GET", path, headers=headers) as response:
            if response.status_code != 200:  # an open stream is left at its headers
                await response.aread()
            return response
    once = {"Idempotency-Key": uuid.uuid4().hex} if method == "POST" else {}
    return await client.request(method, path, json=body, headers={**headers, **once})


@pytest.mark.parametrize("lacking", ["free plan", "key without the scope"])
async def test_every_request_path_to_trade_records_or_contacts_refuses_what_lacks_the_plan_or_scope(
    client: httpx.AsyncClient, runtime: Runtime, lacking: str
) -> None:
    accounts = AccountFactory(runtime)
    owner = await accounts.create(plan="business", credits=5000)
    lists = await _lists(client, owner)
    if lacking == "free plan":
        await _downgrade(runtime, owner.user_id, "free")
        reader = await accounts.key(owner.user_id)  # every scope; a key not cached with the old plan
        code, names = FREE
    else:
        reader = await accounts.key(owner.user_id, scopes=WEBSETS_ONLY)
        code, names = NO_SCOPE

    # Creations that would read the data.
    for asked, kind in (
        ({"query": "laptop importers", "seed": CUSTOMS_SEED}, "customs"),
        ({"query": "CTOs at banks", "target_kind": "person"}, "contacts"),
        ({"query": "banks", "enrichments": [EMAIL]}, "contacts"),
    ):
        _refused(await client.post("/api/v2/websets", json=asked, headers=reader.headers), code, names[kind])
    email_column = f"/api/v2/websets/{lists['plain']}/enrichments"
    _refused(await client.post(email_column, json=EMAIL, headers=reader.headers), code, names["contacts"])

    # Every path on a list made of the data.
    for kind in ("customs", "contacts"):
        for method, path, body in _paths(lists[kind]):
            response = await _send(client, reader.headers, method, path, body)
            assert response.status_code == 403, (method, path, response.status_code)
            _refused(response, code, names[kind])
    # A company list with an email column: its compact items show no cell; full items, exports and the
    # stream (which carries cells) are refused, as is a Find More that fills the column again.
    assert assert_ok(
        await client.get(f"/api/v2/websets/{lists['email']}/items?detail=compact", headers=reader.headers)
    )
    for method, path, body in _paths(lists["email"])[1:7]:
        _refused(await _send(client, reader.headers, method, path, body), code, names["contacts"])

    # MCP: the same refusals through the tools.
    for tool, arguments in (
        ("create_webset", {"query": "laptop importers", "seed": CUSTOMS_SEED}),
        ("create_enrichment", {"webset_id": lists["plain"], **EMAIL}),
        ("list_webset_items", {"webset_id": lists["customs"]}),
        ("export_webset", {"webset_id": lists["contacts"]}),
        ("find_more_webset", {"webset_id": lists["customs"]}),
        ("create_monitor", {"webset_id": lists["contacts"], "cadence": HOURLY}),
    ):
        result = await call(client, reader.headers, tool, **arguments)
        assert error_code(result) == code, (tool, error_text(result))

    # A list made of none of it reads as before.
    assert assert_ok(
        await client.get(f"/api/v2/websets/{lists['plain']}/items?detail=full", headers=reader.headers)
    )


async def test_a_paid_key_with_the_scopes_reads_and_adds_on_every_such_path(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    owner = await AccountFactory(runtime).create(plan="pro", credits=5000)
    lists = await _lists(client, owner)
    for kind in ("customs", "contacts", "email"):
        # (An open stream is followed in test_streams; here it would never end.)
        for method, path, body in [p for p in _paths(lists[kind]) if "/stream" not in p[1]]:
            response = await _send(client, owner.headers, method, path, body)
            # Find More on a list still preparing is 409 webset_busy: past every data check.
            if path.endswith("/find-more"):
                assert_error(response, 409, "webset_busy")
            else:
                assert response.status_code in ((200,) if method == "GET" else (201, 202)), response.text
    assert_ok(
        await client.post(f"/api/v2/websets/{lists['plain']}/enrichments", json=EMAIL, headers=owner.headers),
        202,
    )
    result = await call(client, owner.headers, "list_webset_items", webset_id=lists["customs"])
    assert result.get("isError") is not True, result


async def test_jobs_queued_before_a_downgrade_fail_with_the_plan_refusal_when_they_run(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    client, runtime = world_client, world_runtime
    owner = await AccountFactory(runtime).create(plan="business", credits=5000)
    async with running_worker(runtime):
        finished = (await create_webset(client, owner.headers, query="software companies", count=25))[
            "webset"
        ]
        await wait_finished(client, owner.headers, finished["id"])
    # Queued while no worker runs: an email column on the finished list, and a person list.
    column = assert_ok(
        await client.post(f"/api/v2/websets/{finished['id']}/enrichments", json=EMAIL, headers=owner.headers),
        202,
    )["item"]
    people = (
        await create_webset(client, owner.headers, query="CTOs of software companies", target_kind="person")
    )["webset"]
    monitor = assert_ok(
        await client.post(
            "/api/v2/monitors", json={"webset_id": finished["id"], "cadence": HOURLY}, headers=owner.headers
        ),
        201,
    )["item"]
    await _downgrade(runtime, owner.user_id, "free")
    async with running_worker(runtime):
        enrich = await poll_job(
            client, owner.headers, column["job_id"], until=("succeeded", "failed"), timeout=60
        )
        person_list = await wait_finished(client, owner.headers, people["id"])
        slot = datetime.fromisoformat(monitor["next_run_at"].replace("Z", "+00:00")) + timedelta(seconds=1)
        assert await monitor_scheduler.tick(runtime, slot) == 1
    runs = assert_ok(await client.get(f"/api/v2/monitors/{monitor['id']}/runs", headers=owner.headers))[
        "items"
    ]
    assert enrich["status"] == "failed" and enrich["error"]["code"] == "membership_tier_insufficient"
    assert "contacts" in enrich["error"]["detail"]
    assert person_list["status"] == "failed"
    assert person_list["failure"]["code"] == "membership_tier_insufficient"
    # The slot's Find More would fill the email column again: the downgraded plan skips it.
    assert [(r["job_id"], r["skipped_code"]) for r in runs] == [(None, "membership_tier_insufficient")]


async def test_scheduled_work_for_a_key_without_the_scope_reads_no_contacts(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    client, runtime = world_client, world_runtime
    accounts = AccountFactory(runtime)
    owner = await accounts.create(plan="business", credits=5000)
    websets_key = await accounts.key(owner.user_id, scopes=WEBSETS_ONLY)
    async with running_worker(runtime):
        webset_id = (await create_webset(client, owner.headers, query="software companies", count=25))[
            "webset"
        ]["id"]
        await wait_finished(client, owner.headers, webset_id)
        # The websets-only key sets up a monitor on a list it may read; the owner adds an email column.
        body = {"webset_id": webset_id, "cadence": HOURLY}
        monitor = assert_ok(
            await client.post("/api/v2/monitors", json=body, headers=websets_key.headers), 201
        )
        column = assert_ok(
            await client.post(f"/api/v2/websets/{webset_id}/enrichments", json=EMAIL, headers=owner.headers),
            202,
        )["item"]
        await poll_job(client, owner.headers, column["job_id"], until=("succeeded",), timeout=60)
        before = await all_items(client, owner.headers, webset_id, detail="full", limit=10)
    # The slot comes while no worker runs: what it started is read before anything of it runs.
    slot = datetime.fromisoformat(monitor["item"]["next_run_at"].replace("Z", "+00:00")) + timedelta(
        seconds=1
    )
    assert await monitor_scheduler.tick(runtime, slot) == 1
    runs = f"/api/v2/monitors/{monitor['item']['id']}/runs"
    (run,) = assert_ok(await client.get(runs, headers=owner.headers))["items"]
    columns = assert_ok(await client.get(f"/api/v2/websets/{webset_id}/enrichments", headers=owner.headers))
    (email,) = [e for e in columns["items"] if e["id"] == column["id"]]
    refusals = [run["skipped_code"]]
    async with running_worker(runtime):
        if run["job_id"] is not None:  # the slot's Find More, and the column's job for its new items
            await poll_job(client, owner.headers, run["job_id"], until=("succeeded",), timeout=60)
            job = await poll_job(
                client, owner.headers, email["job_id"], until=("succeeded", "failed"), timeout=60
            )
            refusals.append(job["error"]["code"] if job["status"] == "failed" else None)
    after = await all_items(client, owner.headers, webset_id, detail="full", limit=10)
    # Either the slot is refused for the monitor's key, or the column's job is when it runs: no address is
    # read for an item the slot's run added.
    assert "permission_denied" in refusals, refusals
    filled = [c for item in after for c in item["enrichments"] if c["enrichment_id"] == column["id"]]
    assert len(filled) == len(before)


@pytest.mark.parametrize("lacking", ["free plan", "key without the scope"])
async def test_an_open_stream_ends_with_the_refusal_when_an_event_carries_what_its_caller_no_longer_reads(
    client: httpx.AsyncClient, runtime: Runtime, lacking: str
) -> None:
    """Opened on a plain list, the stream may not carry the email cells of a column another key adds
    later, nor, once the plan is downgraded, any of them (the checks of the open are not enough)."""
    accounts = AccountFactory(runtime)
    owner = await accounts.create(plan="business", credits=5000)
    lists = await _lists(client, owner)
    reader = await accounts.key(owner.user_id, scopes=WEBSETS_ONLY if lacking != "free plan" else None)
    caller = await caller_for_digest(runtime, digest_key(reader.key))
    assert caller is not None
    async with runtime.reader() as session:
        opened = await streams.opening(session, lists["plain"], start=None, items_revision=None)
    cell = {"enrichment_id": "wenr_x", "format": "email", "status": "completed", "result": ["ceo@bank.ch"]}
    following = streams.events(runtime, opened, caller)
    if lacking == "free plan":
        await _downgrade(runtime, owner.user_id, "free")
        runtime.key_cache.forget(reader.key_id)  # as the cache's time passing would
    async with transaction(runtime.sessionmaker) as session:
        enriched = {"webset_id": lists["plain"], "item_id": "wsi_x", "items_revision": 1, "enrichment": cell}
        await append_events(
            session, runtime.notifier, states.topic(lists["plain"]), [("webset.item.enriched", enriched)]
        )
    first = await asyncio.wait_for(anext(following), 30)
    code, names = FREE if lacking == "free plan" else NO_SCOPE
    assert first.event == "error" and "ceo@bank.ch" not in str(first.data)
    error = json.loads(str(first.data))
    assert error["code"] == code and names["contacts"] in error["detail"]
    with pytest.raises(StopAsyncIteration):
        await anext(following)


async def test_work_queued_by_a_key_revoked_or_expired_since_reads_nothing_gated(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    """reader_now and the webhooks' outbox read the key as it stands by one rule (`live_scopes`)."""
    accounts = AccountFactory(runtime)
    owner = await accounts.create(plan="business")
    revoked = await accounts.key(owner.user_id)
    expired = await accounts.key(owner.user_id, expires_in=timedelta(seconds=-1))
    await accounts.revoke(revoked.key_id)
    async with runtime.reader() as session:
        for key in (revoked, expired):
            reader = await reader_now(session, owner.user_id, key.key_id)
            refused = refusal(reader, [TRADE_RECORDS])
            assert refused is not None and refused.code == "permission_denied", key
        assert refusal(await reader_now(session, owner.user_id, owner.key_id), [TRADE_RECORDS]) is None
