"""`leadwire webhooks listen` and the SDK's `listen_webhooks` against the real app on loopback: the
`ready` secret, each event with the exact body and headers a delivery carries (verified by
`standardwebhooks`), forwarded to a local receiver; the subscription gone when the stream ends."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook as StandardWebhook

from leadwire.client import AsyncLeadwire
from leadwire.config import Settings
from leadwire.platform.db import transaction
from leadwire.platform.runtime import Runtime
from leadwire.webhooks.models import Webhook
from tests.client.test_research_cli import runner
from tests.support.receiver import receiving
from tests.support.served import Served, served_app


async def _cancelled_job(served: Served) -> str:
    """A scheduled job (the test plugin's route), cancelled: it ends, and reports, without a run."""
    auth = {"Authorization": f"Bearer {served.key}"}
    async with httpx.AsyncClient(base_url=served.base_url, headers=auth) as http:
        created = (await http.post("/api/v2/test/echo", json={"scheduled_in": 60})).json()["item"]
        await http.post(f"/api/v2/jobs/{created['id']}/cancel")
    return str(created["id"])


async def _listeners(runtime: Runtime) -> list[Webhook]:
    async with transaction(runtime.sessionmaker) as session:
        return list((await session.execute(select(Webhook).where(Webhook.status == "listening"))).scalars())


async def test_the_sdk_listener_gets_each_event_signed_and_leaves_nothing_behind(settings: Settings) -> None:
    async with served_app(settings, worker=False) as served:
        async with AsyncLeadwire(served.key, served.base_url) as lw:
            messages = lw.listen_webhooks(["job.cancelled"])
            ready = await anext(messages)
            job_id = await _cancelled_job(served)
            event = await asyncio.wait_for(anext(messages), timeout=15)
            await messages.aclose()
            listed = await lw.list_webhooks()
        await asyncio.sleep(0.2)  # the server notices the closed stream
        left = await _listeners(served.runtime)
    assert (
        ready["event"] == "ready"
        and ready["secret"].startswith("whsec_")
        and ready["events"] == ["job.cancelled"]
    )
    assert event["event"] == "webhook" and event["type"] == "job.cancelled"
    checked = StandardWebhook(ready["secret"]).verify(event["body"], event["headers"])
    assert checked["data"]["id"] == job_id and event["headers"]["webhook-id"] == event["id"] == checked["id"]
    assert listed["items"] == []  # a listener is no webhook of the account's list
    assert left == []


async def test_the_cli_forwards_each_event_to_a_local_receiver(settings: Settings) -> None:
    async with served_app(settings, worker=False) as served, receiving() as receiver:
        run = runner(served)
        listening = asyncio.create_task(
            asyncio.to_thread(
                run,
                "webhooks",
                "listen",
                "--event",
                "job.cancelled",
                "--forward-to",
                receiver.url,
                "--max-events",
                "1",
            )
        )
        async with asyncio.timeout(30):
            while not await _listeners(served.runtime):
                await asyncio.sleep(0.05)
        job_id = await _cancelled_job(served)
        result = await asyncio.wait_for(listening, timeout=30)
    assert result.exit_code == 0, result.output
    secret = re.search(r"secret (whsec_\S+)", result.stdout)
    assert secret is not None
    (forwarded,) = receiver.requests
    event = StandardWebhook(secret.group(1)).verify(forwarded.body, forwarded.headers)
    assert event["type"] == "job.cancelled" and event["data"]["id"] == job_id
    assert f"job.cancelled  {event['id']}  -> 200" in result.stdout
    assert json.loads(forwarded.body)["id"] == forwarded.headers["webhook-id"]
