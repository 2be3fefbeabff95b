"""At-most-once delivery: the record written before sending decides what a repeated attempt does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import select

import tests.support.echo  # noqa: F401 - registers the test.deliver action
from leadwire.channels import delivery
from leadwire.channels.delivery import Delivery
from leadwire.platform.callers import Caller
from leadwire.platform.db import transaction
from leadwire.platform.jobs.context import JobContext, JobFailure
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.service import create_job
from leadwire.platform.plans import get_plan
from leadwire.platform.runtime import Runtime
from leadwire.platform.users import all_scopes
from tests.support.accounts import AccountFactory
from tests.support.jobs import running_worker


async def _deliver_job(
    runtime: Runtime, accounts: AccountFactory, payload: dict[str, Any]
) -> tuple[str, str]:
    acct = await accounts.create()
    caller = Caller(
        user_id=acct.user_id, key_id=acct.key_id, plan=get_plan("business"), scopes=frozenset(all_scopes())
    )
    async with transaction(runtime.sessionmaker) as session:
        job = await create_job(session, runtime.notifier, caller, action="test.deliver", payload=payload)
    return job.id, acct.user_id


async def _finished(runtime: Runtime, job_id: str) -> Job:
    import asyncio

    for _ in range(200):
        async with transaction(runtime.sessionmaker) as session:
            job = await session.get(Job, job_id)
            if job is not None and job.status in ("succeeded", "failed"):
                return job
        await asyncio.sleep(0.05)
    raise AssertionError("job did not finish")


def _ctx(runtime: Runtime, job_id: str, user_id: str) -> JobContext:
    return JobContext(
        runtime=runtime, job_id=job_id, action="test.deliver", user_id=user_id, attempt=1, owner="x"
    )


async def test_a_delivery_is_recorded_as_sent(
    runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    sent = tmp_path / "sent"
    job_id, _ = await _deliver_job(runtime, accounts, {"recipient": "a@x.example", "sent_file": str(sent)})
    async with running_worker(runtime):
        job = await _finished(runtime, job_id)
    assert job.status == "succeeded" and job.result is not None and job.result["reused"] is False
    assert sent.read_text().count("\n") == 1
    async with transaction(runtime.sessionmaker) as session:
        record = (await session.execute(select(Delivery).where(Delivery.job_id == job_id))).scalar_one()
    assert record.state == "sent" and record.receipt == job.result["receipt"]


async def test_a_refused_send_is_recorded_as_not_sent(
    runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    job_id, _ = await _deliver_job(
        runtime, accounts, {"recipient": "a@x.example", "sent_file": str(tmp_path / "s"), "refuse": True}
    )
    async with running_worker(runtime):
        job = await _finished(runtime, job_id)
    assert job.status == "failed" and job.error_code == "recipient_not_found"
    assert not (tmp_path / "s").exists()


async def test_an_attempt_after_a_finished_send_reuses_its_receipt(
    runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    """The worker died after the provider accepted the message but before the job was finished."""
    sent = tmp_path / "sent"
    job_id, user_id = await _deliver_job(
        runtime, accounts, {"recipient": "a@x.example", "sent_file": str(sent)}
    )
    ctx = _ctx(runtime, job_id, user_id)
    begun = await delivery.begin(ctx, channel="email", recipient="a@x.example")
    await delivery.finish(ctx, begun.delivery_id, receipt={"kind": "message", "provider_message_id": "m-1"})
    async with running_worker(runtime):
        job = await _finished(runtime, job_id)
    assert job.status == "succeeded" and job.result == {
        "receipt": {"kind": "message", "provider_message_id": "m-1"},
        "reused": True,
    }
    assert not sent.exists()  # nothing was sent a second time


async def test_an_attempt_after_a_send_of_unknown_outcome_fails_delivery_unknown(
    runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    """The worker died mid-send: the record says `sending`, so a new attempt must not send."""
    sent = tmp_path / "sent"
    job_id, user_id = await _deliver_job(
        runtime, accounts, {"recipient": "a@x.example", "sent_file": str(sent)}
    )
    await delivery.begin(_ctx(runtime, job_id, user_id), channel="email", recipient="a@x.example")
    async with running_worker(runtime):
        job = await _finished(runtime, job_id)
    assert job.status == "failed" and job.error_code == "delivery_unknown"
    assert not sent.exists()
    try:
        await delivery.begin(_ctx(runtime, job_id, user_id), channel="email", recipient="a@x.example")
    except JobFailure as failure:
        assert failure.code == "delivery_unknown"
    else:
        raise AssertionError("a third attempt must not be allowed to send either")
