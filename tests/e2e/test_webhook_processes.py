"""Webhook delivery across real processes, on SQLite and PostgreSQL: a worker SIGKILLed while a
receiver holds its delivery loses the lease, and another worker sends the same event again (at least
once, same `webhook-id`)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx
import pytest

from leadwire.config import Settings
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import create_echo
from tests.support.processes import leadwire_process, process_env
from tests.support.receiver import receiving
from tests.webhooks.conftest import delivering, register, settled_deliveries, verified

pytestmark = pytest.mark.e2e


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return delivering(settings)


def _worker_env(settings: Settings) -> dict[str, str]:
    return process_env(
        settings.data_dir,
        settings.database_url,
        LEADWIRE_WORKER_POLL_SECONDS="0.2",
        LEADWIRE_WEBHOOK_ALLOW_PRIVATE_NETWORKS="true",
        LEADWIRE_WEBHOOK_TIMEOUT_SECONDS="1",  # a lease of 4 s
        LEADWIRE_WEBHOOK_RETRY_SCHEDULE=settings.webhook_retry_schedule,
    )


async def test_a_delivery_cut_by_a_killed_worker_is_sent_again_by_another(
    client: httpx.AsyncClient, accounts: AccountFactory, settings: Settings, tmp_path: Path
) -> None:
    acct = await accounts.create()
    env = _worker_env(settings)
    async with receiving(delay=30.0) as receiver:
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        job = assert_ok(await create_echo(client, acct.headers, {"message": "once"}), 202)["item"]
        with leadwire_process(["worker"], env, tmp_path / "worker-a.log") as first:
            await receiver.wait_for(1, timeout=60)  # the worker ran the job and is sending its event
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
        receiver.delay = 0.0
        with leadwire_process(["worker"], env, tmp_path / "worker-b.log"):
            await receiver.wait_for(2, timeout=60)
            (logged,) = await settled_deliveries(client, acct.headers, hook["id"], 1, timeout=30)
    cut, again = receiver.requests[:2]
    assert cut.headers["webhook-id"] == again.headers["webhook-id"] == logged["event_id"]
    event = verified(again, hook["secret"])
    assert event["type"] == "job.succeeded" and event["data"]["id"] == job["id"]
    assert (logged["status"], logged["attempts"], logged["last_status_code"]) == ("succeeded", 2, 200)
