"""Creation reserves a batch of an account's jobs in a fixed number of statements; a worker's batch of
outcomes settles jobs of several accounts at once (`queue.finish_many`). Same sums as one job at a
time, on SQLite and PostgreSQL: every reservation released once, charges capped by it, nothing
settled for a job whose lease was lost, the ledger agreeing with the balances and the jobs."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

import tests.support.echo  # noqa: F401 - registers test.echo and test.free_echo
from leadwire.platform.billing import ledger
from leadwire.platform.billing.models import CreditEntry
from leadwire.platform.callers import Caller
from leadwire.platform.db import transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs import queue
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.service import create_jobs
from leadwire.platform.plans import get_plan
from leadwire.platform.runtime import Runtime
from leadwire.platform.users import all_scopes
from tests.support.accounts import AccountFactory, TestAccount


def _caller(account: TestAccount) -> Caller:
    return Caller(
        user_id=account.user_id,
        key_id=account.key_id,
        plan=get_plan("business"),
        scopes=frozenset(all_scopes()),
    )


async def _create(runtime: Runtime, account: TestAccount, payloads: list[dict[str, Any]]) -> list[str]:
    async with transaction(runtime.sessionmaker) as session:
        jobs = await create_jobs(
            session, runtime.notifier, _caller(account), action="test.echo", payloads=payloads
        )
    return [job.id for job in jobs]


async def _claim_all(runtime: Runtime, owner: str) -> dict[str, Any]:
    async with transaction(runtime.sessionmaker) as session:
        claimed = await queue.claim_due(session, owner=owner, limit=100, lease_seconds=60)
    return {job.id: job for job in claimed}


async def _ledger(runtime: Runtime, user_id: str) -> tuple[ledger.BalanceView, dict[str, int]]:
    async with transaction(runtime.sessionmaker) as session:
        view = await ledger.read_balance(session, user_id)
        rows = await session.execute(
            select(CreditEntry.kind, func.sum(CreditEntry.amount))
            .where(CreditEntry.user_id == user_id)
            .group_by(CreditEntry.kind)
        )
        return view, {kind: int(total) for kind, total in rows}


async def _jobs(runtime: Runtime, ids: list[str]) -> dict[str, Job]:
    async with transaction(runtime.sessionmaker) as session:
        rows = (await session.execute(select(Job).where(Job.id.in_(ids)))).scalars().all()
        return {job.id: job for job in rows}


def _outcome(job: Any, *, units: float = 0.0, error: str | None = None) -> queue.Outcome:
    return queue.Outcome(
        job_id=job.id,
        user_id=job.user_id,
        attempt=job.attempt_count,
        result=None if error else {"ok": True},
        error_code=error,
        error_detail="it broke" if error else None,
        units={"unit": units},
        needs_settlement=job.billing_status == "pending",
    )


async def test_a_batch_reserves_per_job_in_one_go_and_refuses_all_or_nothing(
    runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=20)
    # 1.5 credits a unit: 4 units -> 6 reserved each; three jobs hold 18 of 20.
    ids = await _create(runtime, acct, [{"max_units": 4}] * 3)
    view, sums = await _ledger(runtime, acct.user_id)
    assert (view.reserved, view.available, sums["reserve"]) == (18, 2, 18)
    assert [job.reserved_credits for job in (await _jobs(runtime, ids)).values()] == [6, 6, 6]
    with pytest.raises(ApiError) as refused:
        await _create(runtime, acct, [{"max_units": 1}, {"max_units": 1}])  # 2 + 2 > 2 available
    assert refused.value.code == "insufficient_credits"
    assert refused.value.detail == "this request needs 4 credits and 2 are available"
    assert (await _ledger(runtime, acct.user_id)) == (view, sums)  # nothing half-written


async def test_one_batch_settles_several_accounts_as_one_job_at_a_time_would(
    runtime: Runtime, accounts: AccountFactory
) -> None:
    first, second = await accounts.create(credits=100), await accounts.create(credits=100)
    first_ids = await _create(runtime, first, [{"max_units": 4}, {"max_units": 4}, {"max_units": 2}])
    second_ids = await _create(runtime, second, [{"max_units": 10}, {"max_units": 1}])
    claimed = await _claim_all(runtime, "worker-a")
    assert set(claimed) == {*first_ids, *second_ids}
    outcomes = [
        _outcome(claimed[first_ids[0]], units=3),  # ceil(4.5) = 5 of 6 reserved
        _outcome(claimed[first_ids[1]], units=4, error="provider_error"),  # failed: nothing charged
        _outcome(claimed[first_ids[2]], units=50),  # capped at its 3 reserved
        _outcome(claimed[second_ids[0]], units=1),  # ceil(1.5) = 2 of 15
        _outcome(claimed[second_ids[1]], units=0),  # nothing produced: nothing charged
    ]
    async with transaction(runtime.sessionmaker) as session:
        await queue.finish_many(session, runtime.notifier, owner="worker-a", outcomes=outcomes)

    jobs = await _jobs(runtime, [*first_ids, *second_ids])
    charged = {job_id: (jobs[job_id].status, jobs[job_id].charged_credits) for job_id in jobs}
    assert charged == {
        first_ids[0]: ("succeeded", 5),
        first_ids[1]: ("failed", 0),
        first_ids[2]: ("succeeded", 3),
        second_ids[0]: ("succeeded", 2),
        second_ids[1]: ("succeeded", 0),
    }
    assert {job.billing_status for job in jobs.values()} == {"settled"}
    assert jobs[first_ids[1]].error_code == "provider_error" and jobs[first_ids[1]].error_detail == "it broke"
    assert all(job.lease_owner is None and job.finished_at is not None for job in jobs.values())
    for acct, spent, reserved in ((first, 8, 15), (second, 2, 17)):
        view, sums = await _ledger(runtime, acct.user_id)
        assert (view.balance, view.reserved, view.available) == (100 - spent, 0, 100 - spent)
        assert sums == {"grant": 100, "reserve": reserved, "release": reserved, "charge": spent}


async def test_an_outcome_whose_lease_was_lost_settles_nothing(
    runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    ids = await _create(runtime, acct, [{"max_units": 4}, {"max_units": 4}])
    async with transaction(runtime.sessionmaker) as session:
        claimed = await queue.claim_due(session, owner="gone", limit=1, lease_seconds=-1)
    lost = claimed[0].id
    (kept,) = set(ids) - {lost}
    async with transaction(runtime.sessionmaker) as session:  # the lease expired: back to the queue
        assert await queue.rescue_expired(session, runtime.notifier, max_attempts=3) == [lost]
    claimed_again = await _claim_all(runtime, "worker-b")
    assert set(claimed_again) == {lost, kept}

    stale = _outcome(claimed[0], units=4)  # the first worker's late outcome for a job now worker-b's
    async with transaction(runtime.sessionmaker) as session:
        await queue.finish_many(
            session,
            runtime.notifier,
            owner="gone",
            outcomes=[stale, _outcome(claimed_again[kept], units=2)],  # kept: not gone's either
        )
    jobs = await _jobs(runtime, [lost, kept])
    assert {job.status for job in jobs.values()} == {"running"}
    assert {job.billing_status for job in jobs.values()} == {"pending"}
    view, sums = await _ledger(runtime, acct.user_id)
    assert (view.reserved, sums.get("release", 0), sums.get("charge", 0)) == (12, 0, 0)

    async with transaction(runtime.sessionmaker) as session:
        await queue.finish_many(
            session,
            runtime.notifier,
            owner="worker-b",
            outcomes=[_outcome(claimed_again[lost], units=4), _outcome(claimed_again[kept], units=2)],
        )
    view, sums = await _ledger(runtime, acct.user_id)
    assert (view.balance, view.reserved) == (100 - 6 - 3, 0)
    assert sums == {"grant": 100, "reserve": 12, "release": 12, "charge": 9}


async def test_unbilled_and_billed_outcomes_share_a_batch(runtime: Runtime, accounts: AccountFactory) -> None:
    acct = await accounts.create(credits=10)
    billed = (await _create(runtime, acct, [{"max_units": 2}]))[0]
    async with transaction(runtime.sessionmaker) as session:
        free = (
            await create_jobs(
                session, runtime.notifier, _caller(acct), action="test.free_echo", payloads=[{}]
            )
        )[0].id
    claimed = await _claim_all(runtime, "worker-c")
    async with transaction(runtime.sessionmaker) as session:
        await queue.finish_many(
            session,
            runtime.notifier,
            owner="worker-c",
            outcomes=[_outcome(claimed[billed], units=2), _outcome(claimed[free], error="provider_error")],
        )
    jobs = await _jobs(runtime, [billed, free])
    assert (jobs[billed].status, jobs[billed].billing_status, jobs[billed].charged_credits) == (
        "succeeded",
        "settled",
        3,
    )
    assert (jobs[free].status, jobs[free].billing_status, jobs[free].charged_credits) == (
        "failed",
        "not_billable",
        0,
    )
    view, _ = await _ledger(runtime, acct.user_id)
    assert (view.balance, view.reserved) == (7, 0)


async def test_a_late_outcome_of_an_earlier_claim_by_the_same_worker_counts_for_nothing(
    runtime: Runtime, accounts: AccountFactory
) -> None:
    """The lease is this worker's again, but for a later claim: the first claim's outcome (say, from a
    worker whose heartbeats failed while its lease ran out) must neither finish nor settle the job."""
    acct = await accounts.create(credits=100)
    (job_id,) = await _create(runtime, acct, [{"max_units": 4}])
    async with transaction(runtime.sessionmaker) as session:
        first = (await queue.claim_due(session, owner="same", limit=1, lease_seconds=-1))[0]
    async with transaction(runtime.sessionmaker) as session:
        assert await queue.rescue_expired(session, runtime.notifier, max_attempts=3) == [job_id]
    second = (await _claim_all(runtime, "same"))[job_id]
    assert (first.attempt_count, second.attempt_count) == (1, 2)

    async with transaction(runtime.sessionmaker) as session:
        await queue.finish_many(
            session,
            runtime.notifier,
            owner="same",
            outcomes=[_outcome(first, units=4, error="provider_error")],
        )
    job = (await _jobs(runtime, [job_id]))[job_id]
    assert (job.status, job.billing_status) == ("running", "pending")

    async with transaction(runtime.sessionmaker) as session:
        await queue.finish_many(session, runtime.notifier, owner="same", outcomes=[_outcome(second, units=2)])
    job = (await _jobs(runtime, [job_id]))[job_id]
    assert (job.status, job.billing_status, job.charged_credits) == ("succeeded", "settled", 3)
    view, sums = await _ledger(runtime, acct.user_id)
    assert (view.balance, view.reserved) == (97, 0)
    assert sums == {"grant": 100, "reserve": 6, "release": 6, "charge": 3}
