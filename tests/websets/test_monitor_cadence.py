"""A monitor's cadence: a cron that never fires, or whose slots come less than an hour apart, is 400
`invalid_monitor_cadence` on REST and MCP (never a 500 or a bare tool failure); a random field (`R`) is
drawn once, when the cadence is set, and kept, so every slot falls where the first did (SQLite and
PostgreSQL)."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from typing import Any

import httpx

from leadwire.platform.runtime import Runtime
from leadwire.websets import monitor_scheduler
from tests.mcp.test_mcp_server import call, error_code, error_text
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.websets.conftest import create_webset

NEVER = ["0 0 31 2 *", "0 0 30 2 *", "0 0 31 4,6,9,11 *", "0 0 R(30-31) 2 *"]
TOO_OFTEN = ["R/20 * * * *", "0,30 * 29 2 *", "R(0-29)/15 * * * *", "* 9 * * 1"]


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


async def _read(client: httpx.AsyncClient, headers: dict[str, str], monitor_id: str) -> dict[str, Any]:
    return dict(assert_ok(await client.get(f"/api/v2/monitors/{monitor_id}", headers=headers))["item"])


async def test_a_cron_that_never_fires_or_fires_too_often_is_refused_on_rest(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    webset_id = (await create_webset(client, acct.headers, count=25))["webset"]["id"]
    for cron in NEVER + TOO_OFTEN:
        body = {"webset_id": webset_id, "cadence": {"cron": cron, "timezone": "Europe/Berlin"}}
        refused = await client.post("/api/v2/monitors", json=body, headers=acct.headers)
        error = assert_error(refused, 400, "invalid_monitor_cadence", param="cadence.cron")["error"]
        assert ("never fires" in error["detail"]) is (cron in NEVER), (cron, error)
    zone = {"webset_id": webset_id, "cadence": {"cron": "0 * * * *", "timezone": "America"}}  # a directory
    assert_error(
        await client.post("/api/v2/monitors", json=zone, headers=acct.headers),
        400,
        "invalid_monitor_cadence",
        param="cadence.timezone",
    )
    made = await client.post(
        "/api/v2/monitors",
        json={"webset_id": webset_id, "cadence": {"cron": "0 9 * * 1"}},
        headers=acct.headers,
    )
    monitor_id = assert_ok(made, 201)["item"]["id"]
    for cron in ("0 0 31 2 *", "R/15 * * * *"):
        patched = await client.patch(
            f"/api/v2/monitors/{monitor_id}", json={"cadence": {"cron": cron}}, headers=acct.headers
        )
        assert_error(patched, 400, "invalid_monitor_cadence", param="cadence.cron")
    assert (await _read(client, acct.headers, monitor_id))["cadence"]["cron"] == "0 9 * * 1"


async def test_a_cron_that_never_fires_is_a_tool_error_with_its_code_on_mcp(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    webset_id = (await create_webset(client, acct.headers, count=25))["webset"]["id"]
    for cron in ("0 0 31 2 *", "R/20 * * * *"):
        result = await call(
            client, acct.headers, "create_monitor", webset_id=webset_id, cadence={"cron": cron}
        )
        assert error_code(result) == "invalid_monitor_cadence" and "cadence.cron" in error_text(result)


async def test_a_random_field_is_drawn_once_and_every_slot_keeps_it(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create(credits=300)
    webset_id = (await create_webset(client, acct.headers, count=25))["webset"]["id"]
    body = {"webset_id": webset_id, "cadence": {"cron": "R * * * *", "timezone": "Asia/Kathmandu"}}
    made = assert_ok(await client.post("/api/v2/monitors", json=body, headers=acct.headers), 201)["item"]
    minute, *rest = made["cadence"]["cron"].split()
    assert minute.isascii() and minute.isdigit() and rest == ["*"] * 4, made["cadence"]
    assert made["cadence"]["timezone"] == "Asia/Kathmandu"  # UTC+05:45: the drawn minute, read there
    assert (await _read(client, acct.headers, made["id"]))["cadence"] == made["cadence"]
    slots = [_at(made["next_run_at"])]
    for _ in range(3):  # each slot starts a run (skipped: the list is still running) and moves to the next
        assert await monitor_scheduler.tick(runtime, slots[-1] + timedelta(seconds=1)) == 1
        slots.append(_at((await _read(client, acct.headers, made["id"]))["next_run_at"]))
    assert [later - earlier for earlier, later in itertools.pairwise(slots)] == [timedelta(hours=1)] * 3
    assert {(slot.minute + 45) % 60 for slot in slots} == {int(minute)}
    patched = await client.patch(
        f"/api/v2/monitors/{made['id']}", json={"cadence": {"cron": "R R * * 1"}}, headers=acct.headers
    )
    cadence = assert_ok(patched)["item"]["cadence"]
    assert all(f.isdigit() for f in cadence["cron"].split()[:2]) and cadence["cron"].endswith(" * * 1")
    assert (await _read(client, acct.headers, made["id"]))["cadence"] == cadence
