"""`GET /api/v2/webhooks/stream`: an account's events streamed to a developer's terminal, for
`leadwire webhooks listen --forward-to URL` (a local receiver that needs no public address, like
`stripe listen`).

While the stream is open it holds a subscription: a webhook row of status `listening`, which no read
shows and the delivery task never sends. The outbox writes its deliveries like any webhook's, and the
stream takes them, oldest first, and sends each as an SSE `webhook` event carrying the exact body and
the Standard Webhooks headers, signed with the listener's secret. That secret is derived from the API
key, so it stays the same across reconnects, and the receiver's check keeps working. The subscription
goes when the stream ends. If the server died instead, it goes once `listen_expires_at` passes
(the stream refreshes it), and the delivery task's hourly prune removes it.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import time
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import orjson
from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sse_starlette import ServerSentEvent

from leadwire.client.webhooks import sign
from leadwire.platform.callers import Caller
from leadwire.platform.crypto import SecretBox
from leadwire.platform.db import transaction
from leadwire.platform.http import StillAllowed
from leadwire.platform.ids import new_id
from leadwire.platform.notify import WORK_CHANNEL
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.webhooks.models import Webhook, WebhookDelivery
from leadwire.webhooks.service import DELIVERY_TASK, LISTENING

LISTEN_TTL = timedelta(seconds=60)
REFRESH_SECONDS = 15.0
POLL_SECONDS = 1.0  # a wake-up lost between processes costs at most this
BATCH = 100


def listener_secret(runtime: Runtime, caller: Caller) -> str:
    """The same for every stream of one API key: a receiver keeps its check across reconnects."""
    key = runtime.settings.resolved_secret_key.encode()
    digest = hmac.new(key, f"webhooks-listen:{caller.key_id}".encode(), hashlib.sha256).digest()
    return "whsec_" + base64.b64encode(digest).decode()


async def open_listener(
    session: AsyncSession, box: SecretBox, caller: Caller, events: list[str], secret: str
) -> str:
    now = utcnow()
    listener = Webhook(
        id=new_id("wh"),
        user_id=caller.user_id,
        url="leadwire-listen:",
        events=events,
        status=LISTENING,
        description="leadwire webhooks listen",
        meta={},
        sealed_secret=box.seal({"secret": secret}),
        listen_expires_at=now + LISTEN_TTL,
        # The stream's events carry what the streaming key may read, like a webhook's.
        creator_key_id=caller.key_id,
        scopes=sorted(caller.scopes),
        created_at=now,
        updated_at=now,
    )
    session.add(listener)
    await session.flush()
    return listener.id


async def take(session: AsyncSession, listener_id: str) -> list[tuple[str, str, str]]:
    """The listener's waiting events, oldest first, marked sent: (event id, type, body)."""
    rows = (
        await session.execute(
            select(
                WebhookDelivery.seq,
                WebhookDelivery.event_id,
                WebhookDelivery.event_type,
                WebhookDelivery.body,
            )
            .where(WebhookDelivery.webhook_id == listener_id, WebhookDelivery.status == "pending")
            .order_by(WebhookDelivery.seq)
            .limit(BATCH)
        )
    ).all()
    if rows:
        await session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.seq.in_([row.seq for row in rows]))
            .values(status="succeeded", attempts=WebhookDelivery.attempts + 1, updated_at=utcnow())
        )
    return [(row.event_id, row.event_type, row.body) for row in rows]


async def refresh(session: AsyncSession, listener_id: str) -> None:
    await session.execute(
        update(Webhook).where(Webhook.id == listener_id).values(listen_expires_at=utcnow() + LISTEN_TTL)
    )


async def close(session: AsyncSession, listener_id: str) -> None:
    """The subscription and whatever it had not sent yet."""
    await session.execute(delete(WebhookDelivery).where(WebhookDelivery.webhook_id == listener_id))
    await session.execute(delete(Webhook).where(Webhook.id == listener_id))


async def stream(
    runtime: Runtime, caller: Caller, events: list[str], still_allowed: StillAllowed
) -> AsyncIterator[ServerSentEvent]:
    """`ready` with the listener's secret, then a `webhook` event per event, until the caller leaves or
    its key stops authenticating."""
    secret = listener_secret(runtime, caller)
    async with transaction(runtime.sessionmaker) as session:
        listener_id = await open_listener(
            session, SecretBox(runtime.settings.resolved_secret_key), caller, events, secret
        )
    try:
        yield _event("ready", {"listener_id": listener_id, "secret": secret, "events": events})
        with runtime.notifier.hub.subscribe(WORK_CHANNEL, DELIVERY_TASK) as wake:
            refreshed = time.monotonic()
            while await still_allowed():
                async with transaction(runtime.sessionmaker) as session:
                    taken = await take(session, listener_id)
                    if time.monotonic() - refreshed > REFRESH_SECONDS:
                        await refresh(session, listener_id)
                        refreshed = time.monotonic()
                for event_id, event_type, body in taken:
                    yield _event("webhook", _forwardable(secret, event_id, event_type, body), event_id)
                if len(taken) < BATCH:
                    await wake.wait(POLL_SECONDS)
    finally:
        # The response is torn down when the client leaves: the cleanup must not be cancelled with it.
        await asyncio.shield(_close(runtime, listener_id))


async def _close(runtime: Runtime, listener_id: str) -> None:
    async with transaction(runtime.sessionmaker) as session:
        await close(session, listener_id)


def _forwardable(secret: str, event_id: str, event_type: str, body: str) -> dict[str, Any]:
    """What the CLI POSTs to the local receiver: the body as sent and its headers, signed now."""
    timestamp = int(time.time())
    headers = {
        "content-type": "application/json",
        "webhook-id": event_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign([secret], event_id, timestamp, body.encode()),
    }
    return {"id": event_id, "type": event_type, "headers": headers, "body": body}


def _event(kind: str, data: dict[str, Any], event_id: str | None = None) -> ServerSentEvent:
    return ServerSentEvent(data=orjson.dumps(data).decode(), event=kind, id=event_id)
