"""Sending policies over REST (SQLite and PostgreSQL): the channel defaults, a policy set and read back,
each bad field's code; v2 dispatches held past a daily cap or outside a window (the recipient's zone
included) with their hold on the job and in the queue, never refused; 20 concurrent dispatches never
passing a cap; v1 left as it was; a held job neither sent early nor twice by workers started again.

The tests pick the account's zone so that its local time is near noon (`noon_zone`): a few sends a
minute apart never cross the account's midnight, whatever the hour the suite runs at."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from sqlalchemy import update

from leadwire.app import create_app
from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from leadwire.platform.db import transaction
from leadwire.platform.jobs import Job
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.providers.sandbox_channels import Outbox
from tests.mcp.test_mcp_server import call, error_code
from tests.outreach.test_dispatch_validation import email, whatsapp
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.cli import run_cli
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import running_worker
from tests.support.lifespan import served

ACCOUNTS = "/api/v2/connect/accounts"
V2 = "/api/v2/outreach/dispatches"
V1 = "/api/v1/outreach/dispatches"
QUEUE = "/api/v2/outreach/queue"


def noon_zone() -> str:
    """An `Etc/GMT±N` zone whose clock reads between 11:30 and 12:30 now (IANA inverts the sign)."""
    now = utcnow()
    offset = 12 - round(now.hour + now.minute / 60)
    offset = max(-12, min(14, offset))
    return "UTC" if offset == 0 else f"Etc/GMT{'-' if offset > 0 else '+'}{abs(offset)}"


def parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


async def _policy(
    client: httpx.AsyncClient, owner: TestAccount, account_id: str, **policy: Any
) -> dict[str, Any]:
    response = await client.put(f"{ACCOUNTS}/{account_id}/sending-policy", json=policy, headers=owner.headers)
    return assert_ok(response)["item"]


async def _dispatch(
    client: httpx.AsyncClient, owner: TestAccount, body: dict[str, Any], path: str = V2
) -> Any:
    return assert_ok(await client.post(path, json=body, headers=owner.headers), 202)["item"]


async def test_defaults_per_channel_and_a_policy_read_back(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    caps = {}
    for channel in ("email", "linkedin", "whatsapp"):
        account_id = await accounts.connect(owner.user_id, channel)
        read = assert_ok(await client.get(f"{ACCOUNTS}/{account_id}/sending-policy", headers=owner.headers))
        caps[channel] = read["item"]["daily_cap"]
        assert read["item"]["default"] is True and read["item"]["window"] is None
        assert read["item"]["today"]["scheduled"] == 0
    assert caps == {"email": 50, "linkedin": 80, "whatsapp": 250}
    window = {"days": ["fri", "mon"], "start": "09:00", "end": "17:30", "timezone": "recipient"}
    ramp = {"start": 10, "step_per_day": 5, "max": 40}
    item = await _policy(
        client, owner, account_id, daily_cap=30, ramp=ramp, window=window, timezone="Europe/Berlin"
    )
    today = datetime.now(ZoneInfo("Europe/Berlin")).date()
    assert item["default"] is False and item["daily_cap"] == 30 and item["ramp"] == ramp
    assert item["window"] == {**window, "days": ["mon", "fri"]}
    assert item["ramp_started_on"] == today.isoformat()
    assert item["today"] == {"date": today.isoformat(), "allowance": 10, "scheduled": 0}
    assert item["person_touch_interval_hours"] == 24
    # The same ramp again keeps its start; none clears it.
    again = await _policy(client, owner, account_id, daily_cap=30, ramp=ramp, timezone="Europe/Berlin")
    assert again["ramp_started_on"] == today.isoformat() and again["window"] is None
    assert (await _policy(client, owner, account_id, daily_cap=30))["ramp_started_on"] is None


BAD_POLICIES: list[dict[str, Any]] = [
    {},
    {"daily_cap": 0},
    {"daily_cap": 10_001},
    {"daily_cap": "many"},
    {"daily_cap": 5, "ramp": {"start": 10, "step_per_day": 1, "max": 5}},
    {"daily_cap": 5, "ramp": {"start": 0, "step_per_day": 1, "max": 5}},
    {"daily_cap": 5, "window": {"days": [], "start": "09:00", "end": "17:00"}},
    {"daily_cap": 5, "window": {"days": ["mon"], "start": "17:00", "end": "09:00"}},
    {"daily_cap": 5, "window": {"days": ["mon"], "start": "9am", "end": "17:00"}},
    {"daily_cap": 5, "window": {"days": ["someday"], "start": "09:00", "end": "17:00"}},
    {"daily_cap": 5, "window": {"days": ["mon"], "start": "09:00", "end": "17:00", "timezone": "Mars/Base"}},
    {"daily_cap": 5, "timezone": "Nowhere/City"},
    {"daily_cap": 5, "timezone": "America"},  # a directory of zones, not one
    {"daily_cap": 5, "timezone": ""},
    {"daily_cap": 5, "person_touch_interval_hours": -1},
]


async def test_each_bad_field_is_invalid_sending_policy_and_others_accounts_are_not_found(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(), await accounts.create()
    account_id = await accounts.connect(owner.user_id, "email")
    for body in BAD_POLICIES:
        response = await client.put(
            f"{ACCOUNTS}/{account_id}/sending-policy", json=body, headers=owner.headers
        )
        assert_error(response, 400, "invalid_sending_policy")
    for method in ("get", "put"):
        response = await client.request(
            method, f"{ACCOUNTS}/{account_id}/sending-policy", json={"daily_cap": 5}, headers=stranger.headers
        )
        assert_error(response, 404, "account_not_found")
    reader = await accounts.key(owner.user_id, scopes=["accounts:read"])
    response = await client.put(
        f"{ACCOUNTS}/{account_id}/sending-policy", json={"daily_cap": 5}, headers=reader.headers
    )
    assert response.status_code == 403, response.text


async def test_past_the_daily_cap_a_dispatch_waits_for_the_next_day_and_says_so(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account_id = await accounts.connect(owner.user_id, "email")
    zone = noon_zone()
    await _policy(client, owner, account_id, daily_cap=3, timezone=zone)
    items = [await _dispatch(client, owner, email(account_id)) for _ in range(5)]
    assert [item.get("hold") for item in items[:3]] == [None, None, None]
    tomorrow = datetime.now(ZoneInfo(zone)).date() + timedelta(days=1)
    midnight = datetime.combine(tomorrow, time(0), tzinfo=ZoneInfo(zone)).astimezone(UTC)
    held = [item["hold"] for item in items[3:]]
    assert [h["reason"] for h in held] == ["daily_cap", "daily_cap"]
    assert parse(items[3]["scheduled_at"]) == midnight == parse(held[0]["until"])
    assert parse(items[4]["scheduled_at"]) == midnight + timedelta(seconds=60)  # paced after it
    job = assert_ok(await client.get(f"/api/v2/jobs/{items[4]['id']}", headers=owner.headers))["item"]
    assert job["status"] == "scheduled" and job["hold"] == held[1]
    queue = assert_ok(await client.get(QUEUE, params={"account_id": account_id}, headers=owner.headers))
    assert [q["job_id"] for q in queue["items"]] == [item["id"] for item in items]
    assert [q["hold"] for q in queue["items"]] == [None, None, None, *held]
    # A v1 dispatch follows no policy: paced only, never held, not in the queue.
    v1 = await _dispatch(client, owner, email(account_id), V1)
    assert "hold" not in v1
    policy = assert_ok(await client.get(f"{ACCOUNTS}/{account_id}/sending-policy", headers=owner.headers))
    assert policy["item"]["today"]["scheduled"] == 3
    cancelled = await client.post(f"/api/v2/jobs/{items[3]['id']}/cancel", headers=owner.headers)
    assert "hold" not in assert_ok(cancelled)["item"]
    page = assert_ok(await client.get(QUEUE, params={"limit": 2}, headers=owner.headers))
    rest = assert_ok(await client.get(QUEUE, params={"cursor": page["next_cursor"]}, headers=owner.headers))
    listed = [q["job_id"] for q in page["items"] + rest["items"]]
    assert listed == [item["id"] for item in items if item is not items[3]]


async def test_outside_the_recipients_window_a_dispatch_waits_for_its_opening(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account_id = await accounts.connect(owner.user_id, "whatsapp")
    berlin = ZoneInfo("Europe/Berlin")
    today = datetime.now(berlin).date()
    other_day = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")[(today.weekday() + 2) % 7]
    window = {"days": [other_day], "start": "09:00", "end": "17:00", "timezone": "recipient"}
    await _policy(client, owner, account_id, daily_cap=10, window=window, timezone="Asia/Tokyo")
    item = await _dispatch(client, owner, whatsapp(account_id))  # +49: Berlin
    opening = datetime.combine(today + timedelta(days=2), time(9), tzinfo=berlin).astimezone(UTC)
    assert item["hold"]["reason"] == "window" and parse(item["scheduled_at"]) == opening
    (queued,) = assert_ok(await client.get(QUEUE, headers=owner.headers))["items"]
    assert (queued["timezone"], queued["timezone_source"]) == ("Europe/Berlin", "phone")
    # A number the account cannot place (none of +49's zones here) is read in the account's zone.
    unplaced = await _dispatch(client, owner, whatsapp(account_id, recipient={"phone": "+14155550123"}))
    queued = assert_ok(await client.get(QUEUE, headers=owner.headers))["items"]
    assert [(q["job_id"], q["timezone_source"]) for q in queued][-1] == (unplaced["id"], "phone")


async def test_a_send_past_a_year_ahead_is_sending_queue_full_on_rest_and_mcp(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account_id = await accounts.connect(owner.user_id, "email")
    weekly = {"days": ["wed"], "start": "09:00", "end": "10:00", "timezone": "UTC"}
    await _policy(client, owner, account_id, daily_cap=1, window=weekly)  # one send a week
    placed = 0
    while (
        response := await client.post(V2, json=email(account_id), headers=owner.headers)
    ).status_code == 202:
        placed += 1
        assert placed <= 54, "the horizon never ended the queue"
    assert_error(response, 409, "sending_queue_full")
    assert placed in (52, 53)  # a year of Wednesdays
    body = {k: v for k, v in email(account_id).items() if k != "action"}
    tool = await call(client, owner.headers, "dispatch_outreach", **body)
    assert error_code(tool) == "sending_queue_full"


async def test_twenty_concurrent_dispatches_never_pass_the_cap(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account_id = await accounts.connect(owner.user_id, "email")
    zone = noon_zone()
    await _policy(client, owner, account_id, daily_cap=5, timezone=zone)
    items = await asyncio.gather(*(_dispatch(client, owner, email(account_id)) for _ in range(20)))
    per_day = Counter(parse(item["scheduled_at"]).astimezone(ZoneInfo(zone)).date() for item in items)
    assert sorted(per_day.values()) == [5, 5, 5, 5], per_day
    assert sum(1 for item in items if "hold" not in item) == 5
    slots = sorted(parse(item["scheduled_at"]) for item in items)
    assert all(later - earlier >= timedelta(seconds=60) for earlier, later in itertools.pairwise(slots))


async def test_a_held_job_is_neither_sent_early_nor_twice_by_workers_started_again(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account_id = await accounts.connect(owner.user_id, "email")
    await _policy(client, owner, account_id, daily_cap=1, timezone=noon_zone())
    first = await _dispatch(client, owner, email(account_id))
    held = await _dispatch(client, owner, email(account_id, recipient={"address": "held@acme.example"}))
    assert held["hold"]["reason"] == "daily_cap"
    outbox = Outbox(runtime.settings.data_dir)
    for _ in range(2):  # a worker, stopped, and another one: the held job stays where it is
        async with running_worker(runtime):
            await _until(lambda: len(outbox.read("email")) == 1)
            await asyncio.sleep(0.3)
    assert [m["recipient"]["address"] for m in outbox.read("email")] == ["jane@acme.example"]
    job = assert_ok(await client.get(f"/api/v2/jobs/{held['id']}", headers=owner.headers))["item"]
    assert job["status"] == "scheduled" and job["attempt_count"] == 0 and job["hold"] == held["hold"]
    first_job = assert_ok(await client.get(f"/api/v2/jobs/{first['id']}", headers=owner.headers))["item"]
    assert first_job["status"] == "succeeded"


async def test_a_send_found_late_after_an_outage_is_placed_again_in_its_window(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account_id = await accounts.connect(owner.user_id, "email")
    zone = noon_zone()
    window = {
        "days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
        "start": "14:00",
        "end": "15:00",
        "timezone": zone,
    }
    await _policy(client, owner, account_id, daily_cap=5, window=window, timezone=zone)
    item = await _dispatch(client, owner, email(account_id))
    opening = datetime.combine(datetime.now(ZoneInfo(zone)).date(), time(14), tzinfo=ZoneInfo(zone))
    assert item["hold"]["reason"] == "window" and parse(item["scheduled_at"]) == opening.astimezone(UTC)
    # As if it had been due two hours ago and no worker had run since.
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(
            update(Job).where(Job.id == item["id"]).values(scheduled_at=utcnow() - timedelta(hours=2))
        )
    outbox = Outbox(runtime.settings.data_dir)
    async with running_worker(runtime):
        for _ in range(400):
            job = assert_ok(await client.get(f"/api/v2/jobs/{item['id']}", headers=owner.headers))["item"]
            if job["status"] != "running" and parse(job["scheduled_at"]) > utcnow():
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
    job = assert_ok(await client.get(f"/api/v2/jobs/{item['id']}", headers=owner.headers))["item"]
    assert outbox.read("email") == [] and job["hold"]["reason"] == "window", job
    # In the window again, a slot after the one it first had (a slot once taken stays taken).
    assert parse(job["scheduled_at"]) == opening.astimezone(UTC) + timedelta(seconds=60)
    assert job["started_at"] is None
    policy = assert_ok(await client.get(f"{ACCOUNTS}/{account_id}/sending-policy", headers=owner.headers))
    assert policy["item"]["today"]["scheduled"] == 1  # counted once: given back, then counted again


async def test_the_sdk_cli_and_mcp_set_and_read_policies_and_the_queue(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    key = owner.headers["Authorization"].removeprefix("Bearer ")
    mailbox = await accounts.connect(owner.user_id, "email")
    phone = await accounts.connect(owner.user_id, "whatsapp")
    zone = noon_zone()
    async with served(create_app(runtime=runtime)) as base:

        def sync_calls() -> tuple[Any, Any]:
            with Leadwire(key, base) as lw:
                made = lw.set_sending_policy(mailbox, daily_cap=1, timezone=zone)
                body = {k: v for k, v in email(mailbox).items() if k != "action"}
                lw.dispatch(**body)
                lw.dispatch(**body)
                return made, lw.outreach_queue(account_id=mailbox)

        made, queue = await asyncio.to_thread(sync_calls)
        async with AsyncLeadwire(key, base) as alw:
            read = await alw.sending_policy(mailbox)
            with pytest.raises(LeadwireError) as refused:
                await alw.set_sending_policy(mailbox, daily_cap=0)
            async_queue = await alw.outreach_queue(limit=1)
        setting = [
            "--daily-cap",
            "7",
            "--window",
            "mon-fri 09:00-17:00",
            "--window-timezone",
            "Europe/Berlin",
        ]
        cli_set = await asyncio.to_thread(
            run_cli, base, key, "sending", "set", phone, *setting, "--ramp", "2,1,5", "--json"
        )
        cli_policy = await asyncio.to_thread(run_cli, base, key, "sending", "policy", phone)
        cli_queue = await asyncio.to_thread(run_cli, base, key, "sending", "queue", "--account", mailbox)
        cli_bad = await asyncio.to_thread(
            run_cli, base, key, "sending", "set", phone, "--daily-cap", "3", "--window", "someday"
        )
    assert made["daily_cap"] == 1 and read == {**made, "today": {**made["today"], "scheduled": 1}}
    first, second = queue["items"]
    assert first["hold"] is None and second["hold"]["reason"] == "daily_cap"
    assert refused.value.status == 400 and refused.value.code == "invalid_sending_policy"
    assert len(async_queue["items"]) == 1 and async_queue["has_more"] is True
    assert cli_set.exit_code == 0, cli_set.output
    set_item = json.loads(cli_set.output)
    weekdays = ["mon", "tue", "wed", "thu", "fri"]
    assert set_item["window"] == {
        "days": weekdays,
        "start": "09:00",
        "end": "17:00",
        "timezone": "Europe/Berlin",
    }
    assert set_item["ramp"] == {"start": 2, "step_per_day": 1, "max": 5}
    assert (
        cli_policy.exit_code == 0
        and "daily cap 7" in cli_policy.output
        and "ramp 2 +1/day to 5" in cli_policy.output
    )
    assert cli_queue.exit_code == 0 and "daily_cap" in cli_queue.output
    assert cli_bad.exit_code != 0 and "DAYS HH:MM-HH:MM" in cli_bad.output
    tool_read = await call(client, owner.headers, "get_sending_policy", account_id=phone)
    tool_set = await call(
        client, owner.headers, "set_sending_policy", account_id=phone, daily_cap=9, timezone="Asia/Tokyo"
    )
    tool_bad = await call(client, owner.headers, "set_sending_policy", account_id=phone, daily_cap="lots")
    tool_missing = await call(client, owner.headers, "get_sending_policy", account_id="acct_nothing")
    tool_queue = await call(client, owner.headers, "list_outreach_queue", account_id=mailbox)
    assert tool_read["structuredContent"]["daily_cap"] == 7
    assert (tool_set["structuredContent"]["daily_cap"], tool_set["structuredContent"]["window"]) == (9, None)
    assert error_code(tool_bad) == "invalid_sending_policy"
    assert error_code(tool_missing) == "account_not_found"
    assert [q["job_id"] for q in tool_queue["structuredContent"]["items"]] == [
        q["job_id"] for q in queue["items"]
    ]


async def _until(condition: Any, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail("condition not met in time")
        await asyncio.sleep(0.05)


def test_noon_zone_reads_near_noon() -> None:
    local = datetime.now(ZoneInfo(noon_zone()))
    assert abs((local.hour * 60 + local.minute) - 12 * 60) <= 90 or local.date() != date.today()
