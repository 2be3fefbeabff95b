"""Reservation at creation, settlement at the end, release of the rest
(docs/api.md, Credits and per-row billing)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from sqlalchemy import func, select

from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import Job
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import create_echo, poll_job, running_worker


async def _credits(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, int]:
    return assert_ok(await client.get("/api/v2/credits", headers=headers))["item"]


async def test_reservation_then_settlement_rounds_up_once(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    # test.echo costs 1.5 credits a unit: 10 units max -> 15 reserved; 3 units -> ceil(4.5) = 5 charged.
    job_id = assert_ok(await create_echo(client, acct.headers, {"max_units": 10, "units": 3}), 202)["item"][
        "id"
    ]
    pending = assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=acct.headers))["item"]
    assert pending["billing"] == {"status": "pending", "charged_credits": 0, "pending_units": 0.0}
    assert await _credits(client, acct.headers) | {"updated_at": None} == {
        "balance": 100,
        "reserved": 15,
        "available": 85,
        "updated_at": None,
    }
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("succeeded",))
    assert job["billing"] == {"status": "settled", "charged_credits": 5, "pending_units": 0.0}
    credits = await _credits(client, acct.headers)
    assert (credits["balance"], credits["reserved"], credits["available"]) == (95, 0, 95)


async def test_charge_never_exceeds_the_reservation(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    job_id = assert_ok(await create_echo(client, acct.headers, {"max_units": 2, "units": 50}), 202)["item"][
        "id"
    ]
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("succeeded",))
    assert job["billing"]["charged_credits"] == 3
    assert (await _credits(client, acct.headers))["balance"] == 97


async def test_failed_and_cancelled_jobs_cost_nothing(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    failing = assert_ok(
        await create_echo(client, acct.headers, {"max_units": 4, "units": 4, "fail": "provider_error"}), 202
    )
    cancelled = assert_ok(
        await create_echo(client, acct.headers, {"max_units": 4, "scheduled_in": 3600}), 202
    )
    assert_ok(await client.post(f"/api/v2/jobs/{cancelled['item']['id']}/cancel", headers=acct.headers))
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, failing["item"]["id"], until=("failed",))
    assert job["billing"]["charged_credits"] == 0 and job["billing"]["status"] == "settled"
    assert (await _credits(client, acct.headers)) | {"updated_at": None} == {
        "balance": 100,
        "reserved": 0,
        "available": 100,
        "updated_at": None,
    }


async def test_insufficient_credits_is_402_and_creates_no_job(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=10)
    assert_error(await create_echo(client, acct.headers, {"max_units": 7}), 402, "insufficient_credits")
    async with transaction(runtime.sessionmaker) as session:
        assert await session.scalar(select(func.count()).select_from(Job)) == 0
    assert (await _credits(client, acct.headers))["reserved"] == 0


async def test_concurrent_reservations_never_overdraw(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    responses = await asyncio.gather(
        *(create_echo(client, acct.headers, {"max_units": 10}) for _ in range(12))
    )
    statuses = sorted(r.status_code for r in responses)
    assert statuses.count(202) == 6 and statuses.count(402) == 6  # 6 x 15 = 90 <= 100 < 7 x 15
    credits = await _credits(client, acct.headers)
    assert credits["reserved"] == 90 and credits["available"] == 10


async def test_a_job_with_no_billable_units_needs_no_credits(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=0)
    item = assert_ok(await create_echo(client, acct.headers, {"max_units": 0}), 202)["item"]
    assert item["billing"]["status"] == "pending" and item["billing"]["charged_credits"] == 0


async def test_units_of_several_kinds_are_priced_per_kind_and_rounded_up_once(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    # Reserved from the maxima per kind: 5 x 3.6 + 5 x 3.0 = 33. Charged: 2 counterparties (7.2) and
    # 1 trend (3.6) = 10.8 -> 11 rounded once (rounding each kind would charge 8 + 4 = 12).
    payload = {
        "kinds": {"counterparties": 2, "trends": 1},
        "max_kinds": {"counterparties": 5, "categories": 5},
    }
    job_id = assert_ok(await create_echo(client, acct.headers, payload), 202)["item"]["id"]
    assert (await _credits(client, acct.headers))["reserved"] == 33
    async with running_worker(runtime):
        job = await poll_job(client, acct.headers, job_id, until=("succeeded",))
    assert job["billing"]["charged_credits"] == 11
    credits = await _credits(client, acct.headers)
    assert (credits["balance"], credits["reserved"], credits["available"]) == (89, 0, 89)


def test_rounding_once_over_kinds_costs_less_than_rounding_each_kind() -> None:
    from leadwire.platform.billing.prices import NOT_BILLABLE, per_kind

    price = per_kind(counterparties="3.6", trends="3.6", categories="3.0")
    assert price.credits({"counterparties": 2, "trends": 1}) == 11  # 7.2 + 3.6 = 10.8
    assert price.credits({"counterparties": 0, "categories": 0}) == 0
    assert price.credits({}) == 0
    assert NOT_BILLABLE.credits({}) == 0
    with pytest.raises(ValueError):
        price.credits({"unknown": 1})
