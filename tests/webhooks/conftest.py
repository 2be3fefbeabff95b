"""Helpers of the webhook tests: register a webhook through the API, read its deliveries, verify what a
receiver got with the `standardwebhooks` library (the reference implementation, not ours)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson
from standardwebhooks.webhooks import Webhook as StandardWebhook

from leadwire.config import Settings
from tests.support.envelope import assert_ok
from tests.support.jobs import create_echo, poll_job
from tests.support.receiver import Received

HOOKS = "/api/v2/webhooks"
HOOKS_ONLY = ["webhooks:read", "webhooks:write"]  # a key that may manage webhooks and read nothing else


def delivering(settings: Settings) -> Settings:
    """Settings that deliver to loopback receivers, with retries a test can wait for."""
    return settings.model_copy(
        update={
            "webhook_allow_private_networks": True,
            "webhook_retry_schedule": "0.05,0.1,0.1",
            "webhook_timeout_seconds": 2.0,
        }
    )


async def register(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    url: str,
    events: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body = {"url": url, "events": events or ["*"], **extra}
    item: dict[str, Any] = assert_ok(await client.post(HOOKS, json=body, headers=headers), 201)["item"]
    return item


async def deliveries(
    client: httpx.AsyncClient, headers: dict[str, str], webhook_id: str, **params: Any
) -> list[dict[str, Any]]:
    page = assert_ok(await client.get(f"{HOOKS}/{webhook_id}/deliveries", params=params, headers=headers))
    items: list[dict[str, Any]] = page["items"]
    return items


async def settled_deliveries(
    client: httpx.AsyncClient, headers: dict[str, str], webhook_id: str, count: int, timeout: float = 15.0
) -> list[dict[str, Any]]:
    """The webhook's deliveries once `count` of them exist and none is pending."""
    async with asyncio.timeout(timeout):
        while True:
            found = await deliveries(client, headers, webhook_id, limit=100)
            if len(found) >= count and all(d["status"] != "pending" for d in found):
                return found
            await asyncio.sleep(0.05)


def verified(received: Received, secret: str) -> dict[str, Any]:
    """The event a receiver got, verified by `standardwebhooks` (raises when the signature is wrong)."""
    StandardWebhook(secret).verify(received.body, received.headers)
    event: dict[str, Any] = orjson.loads(received.body)
    return event


async def echo_result(client: httpx.AsyncClient, headers: dict[str, str], message: str) -> dict[str, Any]:
    """An echo job created and polled until it succeeded: a job event whose result says `message`."""
    item: dict[str, Any] = assert_ok(await create_echo(client, headers, {"message": message}), 202)["item"]
    return await poll_job(client, headers, item["id"], until=("succeeded",))
