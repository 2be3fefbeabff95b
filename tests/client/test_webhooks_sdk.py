"""The SDK's webhook calls, sync and async, against the real app on loopback; and
`leadwire.webhooks.verify` checking real deliveries, agreeing with `standardwebhooks` on what it
accepts and refuses."""

from __future__ import annotations

import asyncio
import base64
import time

import httpx
import pytest
from standardwebhooks.webhooks import Webhook as StandardWebhook
from standardwebhooks.webhooks import WebhookVerificationError as StandardVerificationError

from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from leadwire.config import Settings
from leadwire.webhooks import WebhookVerificationError, verify
from tests.support.receiver import receiving
from tests.support.served import served_app
from tests.webhooks.conftest import delivering

URL = "https://hooks.leadwire-receiver.test/sdk"


async def test_sync_client_registers_pages_changes_and_deletes(settings: Settings) -> None:
    async with served_app(settings, worker=False) as served:

        def session() -> dict[str, object]:
            with Leadwire(served.key, served.base_url) as lw:
                first = lw.create_webhook(URL, ["job.succeeded"], description="one", idempotency_key="k1")
                second = lw.create_webhook(URL, ["*"], metadata={"team": "ops"})
                page = lw.list_webhooks(limit=1)
                rest = lw.list_webhooks(limit=1, cursor=page["next_cursor"])
                changed = lw.update_webhook(first["id"], status="disabled", events=["job.failed"])
                rotated = lw.rotate_webhook_secret(second["id"])
                log = lw.webhook_deliveries(second["id"], status="failed")
                gone = lw.delete_webhook(first["id"])
                with pytest.raises(LeadwireError) as missing:
                    lw.get_webhook(first["id"])
                return {
                    "first": first, "second": second, "page": page, "rest": rest, "changed": changed,
                    "rotated": rotated, "log": log, "gone": gone, "missing": missing.value,
                }  # fmt: skip

        found = await asyncio.to_thread(session)
    first, second = found["first"], found["second"]
    assert isinstance(first, dict) and isinstance(second, dict)
    assert first["secret"].startswith("whsec_") and second["metadata"] == {"team": "ops"}
    assert found["page"]["items"][0]["id"] == second["id"] and found["page"]["has_more"] is True  # type: ignore[index]
    assert found["rest"]["items"][0]["id"] == first["id"]  # type: ignore[index]
    assert found["changed"]["status"] == "disabled" and found["changed"]["events"] == ["job.failed"]  # type: ignore[index]
    assert found["rotated"]["secret"] != second["secret"]  # type: ignore[index]
    assert found["log"]["items"] == [] and found["gone"] == {"id": first["id"], "deleted": True}  # type: ignore[index]
    missing = found["missing"]
    assert (
        isinstance(missing, LeadwireError) and missing.code == "webhook_not_found" and missing.status == 404
    )


async def test_async_client_receives_a_delivery_that_verify_accepts(settings: Settings) -> None:
    async with (
        served_app(delivering(settings)) as served,
        receiving() as receiver,
        AsyncLeadwire(served.key, served.base_url) as lw,
        httpx.AsyncClient() as http,
    ):
        hook = await lw.create_webhook(receiver.url, ["job.cancelled"])
        # A scheduled job (the test plugin's route), cancelled: it ends without waiting for a run.
        created = await http.post(
            f"{served.base_url}/api/v2/test/echo",
            json={"scheduled_in": 60},
            headers={"Authorization": f"Bearer {served.key}"},
        )
        await lw.cancel(created.json()["item"]["id"])
        (received,) = await receiver.wait_for(1)
        # Once recorded (a retry of a delivery still being sent is left to that send).
        delivery = (await lw.webhook_deliveries(hook["id"]))["items"][0]
        while delivery["status"] == "pending":
            await asyncio.sleep(0.05)
            delivery = (await lw.webhook_deliveries(hook["id"]))["items"][0]
        retried = await lw.retry_webhook_delivery(hook["id"], delivery["id"])
        await receiver.wait_for(2)
    body = verify(received.body, received.headers, hook["secret"])
    assert body == received.body and b'"job.cancelled"' in body
    assert retried["id"] == delivery["id"]
    assert receiver.requests[1].headers["webhook-id"] == received.headers["webhook-id"]


SECRET = "whsec_" + base64.b64encode(b"k" * 32).decode()


def _signed(body: bytes, *, secret: str = SECRET, stamp: int | None = None) -> dict[str, str]:
    """Headers signed by `standardwebhooks` (the reference), not by our own code."""
    moment = int(time.time()) if stamp is None else stamp
    from datetime import UTC, datetime

    signature = StandardWebhook(secret).sign("msg_1", datetime.fromtimestamp(moment, UTC), body.decode())
    return {"webhook-id": "msg_1", "webhook-timestamp": str(moment), "webhook-signature": signature}


def test_verify_accepts_what_the_reference_signs_and_refuses_the_rest() -> None:
    body = b'{"id":"evt_1","type":"job.succeeded","data":{}}'
    headers = _signed(body)
    assert verify(body, headers, SECRET) == body
    assert verify(body.decode(), {k.upper(): v for k, v in headers.items()}, SECRET) == body
    other = "whsec_" + base64.b64encode(b"o" * 32).decode()
    two = {
        **headers,
        "webhook-signature": _signed(body, secret=other)["webhook-signature"]
        + " "
        + headers["webhook-signature"],
    }
    assert verify(body, two, SECRET) == body  # a rotation's two signatures: either secret verifies
    refused = [
        (body + b" ", headers),
        (body, {**headers, "webhook-id": "msg_2"}),
        (body, _signed(body, secret=other)),
        (body, _signed(body, stamp=int(time.time()) - 3600)),
        (body, {k: v for k, v in headers.items() if k != "webhook-signature"}),
        (body, {**headers, "webhook-timestamp": "soon"}),
    ]
    for payload, sent in refused:
        with pytest.raises(WebhookVerificationError):
            verify(payload, sent, SECRET)
        with pytest.raises(StandardVerificationError):  # the reference refuses the same
            StandardWebhook(SECRET).verify(payload, sent)


def test_what_the_server_signs_the_reference_verifies() -> None:
    from leadwire.client.webhooks import sign

    body = b'{"id":"evt_2"}'
    stamp = int(time.time())
    headers = {
        "webhook-id": "evt_2",
        "webhook-timestamp": str(stamp),
        "webhook-signature": sign([SECRET], "evt_2", stamp, body),
    }
    assert StandardWebhook(SECRET).verify(body, headers) == {"id": "evt_2"}
