"""Pruning: terminal jobs past the retention period and expired idempotency records go; others stay."""

from __future__ import annotations

from datetime import timedelta

import httpx
from sqlalchemy import func, select, update

from leadwire.platform.db import transaction
from leadwire.platform.idempotency_models import IdempotencyRecord
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.runner import Worker
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import create_echo


async def test_prune_removes_only_old_terminal_jobs_and_expired_keys(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    old = assert_ok(await create_echo(client, acct.headers, {}, **{"Idempotency-Key": "old"}), 202)["item"][
        "id"
    ]
    recent = assert_ok(await create_echo(client, acct.headers, {}), 202)["item"]["id"]
    queued = assert_ok(await create_echo(client, acct.headers, {}, **{"Idempotency-Key": "new"}), 202)[
        "item"
    ]["id"]
    for job_id in (old, recent):
        assert_ok(await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=acct.headers))
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(
            update(Job).where(Job.id == old).values(finished_at=utcnow() - timedelta(days=31))
        )
        await session.execute(
            update(IdempotencyRecord)
            .where(IdempotencyRecord.key == "old")
            .values(expires_at=utcnow() - timedelta(1))
        )
    await Worker(runtime).prune()
    async with transaction(runtime.sessionmaker) as session:
        remaining = set((await session.execute(select(Job.id))).scalars())
        keys = set((await session.execute(select(IdempotencyRecord.key))).scalars())
        assert await session.scalar(select(func.count()).select_from(Job)) == 2
    assert remaining == {recent, queued}
    assert keys == {"new"}
