"""A monitor runs in the name of the key that set it up (SQLite and PostgreSQL): revoking that key (with
the keys it created) pauses its monitors at once, `pause_reason: key_revoked`, with a `monitor.paused`
event; a key that expired, or was revoked where no event is reported (the operator's CLI), has its
monitors paused by the scheduler before any slot runs; only a key managing the account's keys resumes
one, and its runs then go in that key's name."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from leadwire.config import Settings
from leadwire.platform.runtime import Runtime
from leadwire.websets import monitor_scheduler
from tests.keys.conftest import KEYS, bearer, create
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import running_worker
from tests.support.receiver import receiving
from tests.webhooks.conftest import delivering, register, verified
from tests.websets.conftest import create_webset

QUERY = "chemical companies in Switzerland"
HOURLY = {"cron": "0 * * * *", "timezone": "UTC"}
MONITORS = "/api/v2/monitors"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return delivering(settings)


async def _monitor(client: httpx.AsyncClient, headers: dict[str, str], webset_id: str) -> dict[str, Any]:
    body = {"webset_id": webset_id, "cadence": HOURLY}
    item: dict[str, Any] = assert_ok(await client.post(MONITORS, json=body, headers=headers), 201)["item"]
    return item


async def _read(client: httpx.AsyncClient, headers: dict[str, str], monitor_id: str) -> dict[str, Any]:
    item: dict[str, Any] = assert_ok(await client.get(f"{MONITORS}/{monitor_id}", headers=headers))["item"]
    return item


async def _runs(client: httpx.AsyncClient, headers: dict[str, str], monitor_id: str) -> list[Any]:
    return list(assert_ok(await client.get(f"{MONITORS}/{monitor_id}/runs", headers=headers))["items"])


def _after(monitor: dict[str, Any], hours: float = 0) -> datetime:
    return datetime.fromisoformat(monitor["next_run_at"].replace("Z", "+00:00")) + timedelta(
        seconds=1, hours=hours
    )


def _as(made: dict[str, str]) -> TestAccount:
    return TestAccount(user_id="", key_id=made["id"], key=made["key"])


async def test_revoking_a_monitor_s_key_pauses_it_at_once_and_reports_monitor_paused(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=300)
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    maker = await create(pool_client, acct, ["keys:write", "websets:read", "websets:write"])
    setter = await create(pool_client, _as(maker), ["websets:read", "websets:write"])  # made by `maker`
    made = await _monitor(pool_client, bearer(setter["key"]), webset_id)
    async with receiving() as receiver, running_worker(pool_runtime):
        hook = await register(pool_client, acct.headers, receiver.url, ["monitor.paused"])
        revoked = assert_ok(await pool_client.post(f"{KEYS}/{maker['id']}/revoke", headers=acct.headers))
        (received,) = await receiver.wait_for(1)
    paused = await _read(pool_client, acct.headers, made["id"])
    taken = await monitor_scheduler.tick(pool_runtime, _after(made))
    event = verified(received, hook["secret"])
    assert revoked["item"]["revoked_with"] == 1  # `setter` went with `maker`, and its monitor paused
    assert made["status"] == "active" and made["pause_reason"] is None
    assert (paused["status"], paused["pause_reason"], paused["next_run_at"]) == (
        "paused",
        "key_revoked",
        None,
    )
    assert taken == 0 and await _runs(pool_client, acct.headers, made["id"]) == []
    assert event["type"] == "monitor.paused"
    assert event["data"]["id"] == made["id"] and event["data"]["pause_reason"] == "key_revoked"
    assert event["data"]["webset_id"] == webset_id and event["data"]["api_key_id"] == setter["id"]


async def test_the_scheduler_pauses_the_monitors_of_an_expired_or_otherwise_revoked_key_before_their_slot(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    accounts = AccountFactory(pool_runtime)
    acct = await accounts.create(credits=300)
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    expiring = await accounts.key(acct.user_id, expires_in=timedelta(hours=3))
    revoked = await accounts.key(acct.user_id)
    kept = await _monitor(pool_client, acct.headers, webset_id)
    of_expiring = await _monitor(pool_client, expiring.headers, webset_id)
    of_revoked = await _monitor(pool_client, revoked.headers, webset_id)
    await accounts.revoke(revoked.key_id)  # the operator's path: no event reaches the monitors
    still = await _read(pool_client, acct.headers, of_revoked["id"])
    later = _after(kept, hours=4)  # past the expiry, and past every monitor's next slot
    taken = await monitor_scheduler.tick(pool_runtime, later)
    read = {m["id"]: await _read(pool_client, acct.headers, m["id"]) for m in (kept, of_expiring, of_revoked)}
    assert still["status"] == "active"
    assert taken == 1 and len(await _runs(pool_client, acct.headers, kept["id"])) == 1
    assert (read[kept["id"]]["status"], read[kept["id"]]["pause_reason"]) == ("active", None)
    for paused in (of_expiring, of_revoked):
        assert (read[paused["id"]]["status"], read[paused["id"]]["pause_reason"]) == ("paused", "key_revoked")
        assert await _runs(pool_client, acct.headers, paused["id"]) == []


async def test_a_key_revoked_monitor_resumes_only_with_a_key_managing_keys_and_runs_in_its_name(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    accounts = AccountFactory(pool_runtime)
    acct = await accounts.create(credits=300)
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    setter = await create(pool_client, acct, ["websets:read", "websets:write"])
    narrow = await accounts.key(acct.user_id, scopes=["websets:read", "websets:write"])
    made = await _monitor(pool_client, bearer(setter["key"]), webset_id)
    assert_ok(await pool_client.post(f"{KEYS}/{setter['id']}/revoke", headers=acct.headers))
    active = {"status": "active"}
    refused = await pool_client.patch(f"{MONITORS}/{made['id']}", json=active, headers=narrow.headers)
    resumed = assert_ok(
        await pool_client.patch(f"{MONITORS}/{made['id']}", json=active, headers=acct.headers)
    )
    taken = await monitor_scheduler.tick(pool_runtime, _after(resumed["item"]))
    (run,) = await _runs(pool_client, acct.headers, made["id"])
    assert_error(refused, 403, "permission_denied")
    assert "keys:write" in refused.json()["error"]["detail"]
    assert (resumed["item"]["status"], resumed["item"]["pause_reason"]) == ("active", None)
    # Its slot ran as the resuming key: it reached the list (still running, so skipped as busy), where a
    # run in the revoked key's name is skipped `api_key_revoked` (the test below).
    assert taken == 1 and run["skipped_code"] == "webset_busy"
    # An owner's own pause has no reason, and its resume needs no more than the route's scope.
    paused = await pool_client.patch(
        f"{MONITORS}/{made['id']}", json={"status": "paused"}, headers=narrow.headers
    )
    assert assert_ok(paused)["item"]["pause_reason"] is None
    assert_ok(await pool_client.patch(f"{MONITORS}/{made['id']}", json=active, headers=narrow.headers))


async def test_a_slot_whose_key_died_after_the_tick_looked_is_skipped_and_its_monitor_paused(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    accounts = AccountFactory(pool_runtime)
    acct = await accounts.create(credits=300)
    webset_id = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
    setter = await accounts.key(acct.user_id, scopes=["websets:read", "websets:write"])
    made = await _monitor(pool_client, setter.headers, webset_id)
    await accounts.revoke(setter.key_id)  # the operator's path: no event reaches the monitors

    async def held_elsewhere(*_args: Any) -> int:
        return 0  # another scheduler held the monitor's row when this tick paused the dead keys' monitors

    monkeypatch.setattr(monitor_scheduler.monitor_keys, "pause_orphaned", held_elsewhere)
    taken = await monitor_scheduler.tick(pool_runtime, _after(made))
    (run,) = await _runs(pool_client, acct.headers, made["id"])
    read = await _read(pool_client, acct.headers, made["id"])
    assert taken == 1 and (run["job_id"], run["skipped_code"]) == (None, "api_key_revoked")
    assert (read["status"], read["pause_reason"]) == ("paused", "key_revoked")


async def test_resuming_a_monitor_needs_a_key_that_reads_what_the_list_reads(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    accounts = AccountFactory(pool_runtime)
    acct = await accounts.create(plan="business", credits=300)
    people = await create_webset(pool_client, acct.headers, query="CTOs at banks", target_kind="person")
    made = await _monitor(pool_client, acct.headers, people["webset"]["id"])
    paused = {"status": "paused"}
    assert_ok(await pool_client.patch(f"{MONITORS}/{made['id']}", json=paused, headers=acct.headers))
    # Managing keys is not reading contacts: a key with keys:write but not research:read is refused.
    narrow = await accounts.key(acct.user_id, scopes=["websets:read", "websets:write", "keys:write"])
    active = {"status": "active"}
    refused = await pool_client.patch(f"{MONITORS}/{made['id']}", json=active, headers=narrow.headers)
    assert_error(refused, 403, "permission_denied")
    assert "research:read" in refused.json()["error"]["detail"]
    assert (await _read(pool_client, acct.headers, made["id"]))["status"] == "paused"
    assert_ok(await pool_client.patch(f"{MONITORS}/{made['id']}", json=active, headers=acct.headers))
