"""The webhooks' outbox: the domain events other slices report (`platform/events/domain.py`) become
delivery rows in the reporting transaction, one per subscribed webhook, so an event is never lost
and never sent for a change that rolled back. The delivery task (`delivery.py`) sends them.

An account with no active webhook costs one indexed read per reporting transaction.

An event is written with what its webhook may read (`readable_scopes`): the scopes of the key that
registered it, narrowed to that key's as they stand now — none once the key is revoked or expired. An
event readable only under a scope they lack (a job's result) carries its brief instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import and_, bindparam, func, insert, or_, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.events import DomainEvent
from leadwire.platform.ids import new_id
from leadwire.platform.notify import WORK_CHANNEL, Notifier
from leadwire.platform.time import iso, utcnow
from leadwire.platform.users import ApiKey, live_scopes
from leadwire.webhooks.models import Webhook, WebhookDelivery
from leadwire.webhooks.schemas import ALL_EVENTS, EVENT_TYPES, EventBody
from leadwire.webhooks.service import DELIVERY_TASK, LISTENING

# Pending deliveries one webhook may hold; past it new events are logged failed (`_refuse_over_backlog`).
BACKLOG_LIMIT = 10_000
BACKLOG_ERROR = f"not sent: the webhook already holds {BACKLOG_LIMIT} pending deliveries"
ANY_WEBHOOK = text("SELECT 1 FROM webhooks WHERE user_id IN :user_ids LIMIT 1").bindparams(
    bindparam("user_ids", expanding=True)
)


async def record(session: AsyncSession, notifier: Notifier, events: Sequence[DomainEvent]) -> None:
    user_ids = sorted({e.user_id for e in events})
    # Most accounts have no webhook: one indexed probe, as plain SQL (the full query below costs a
    # millisecond more on SQLite, on every job's end).
    if (await session.execute(ANY_WEBHOOK, {"user_ids": user_ids})).first() is None:
        return
    now = utcnow()
    # Locked (in id order) until this transaction ends: two changes reported at once for one webhook
    # get their rows' `seq` in the order they commit, so the delivery order is the commit order.
    hooks = (
        await session.execute(
            select(
                Webhook.id,
                Webhook.user_id,
                Webhook.events,
                Webhook.creator_key_id,
                Webhook.scopes,
                ApiKey,
            )
            .outerjoin(ApiKey, ApiKey.id == Webhook.creator_key_id)
            .where(
                Webhook.user_id.in_(user_ids),
                or_(
                    Webhook.status == "active",
                    and_(Webhook.status == LISTENING, Webhook.listen_expires_at > now),
                ),
            )
            .order_by(Webhook.id)
            .with_for_update(key_share=True, of=Webhook)
        )
    ).all()
    if not hooks:
        return
    readable = {h.id: readable_scopes(h, now) for h in hooks}
    rows: list[dict[str, Any]] = []
    for event in events:
        targets = [h.id for h in hooks if h.user_id == event.user_id and _wants(h.events, event.type)]
        if not targets:
            continue
        data = await event.data(session)
        if data is None:
            continue
        event_id = new_id("evt")
        bodies: dict[bool, str] = {}  # whole or brief: at most two bodies per event
        for webhook_id in targets:
            whole = event.readable(readable[webhook_id])
            if whole not in bodies:
                shown = event.shown(data, readable[webhook_id])
                bodies[whole] = orjson.dumps(
                    EventBody(id=event_id, type=event.type, created_at=iso(now), data=shown)
                ).decode()
            rows.append(_pending(webhook_id, event_id, event.user_id, event.type, bodies[whole], now))
    if not rows:
        return
    await _refuse_over_backlog(session, rows)
    await session.execute(insert(WebhookDelivery), rows)
    await notifier.publish(session, WORK_CHANNEL, DELIVERY_TASK)


def readable_scopes(hook: Any, now: datetime) -> frozenset[str] | None:
    """What a webhook's events may carry: the scopes its registering key had (`Webhook.scopes`) and
    still has (`live_scopes`: none when that key is revoked, expired or gone); None (every scope) for a
    webhook registered before its key was recorded."""
    if hook.creator_key_id is None:
        return None
    return frozenset(hook.scopes or ()) & live_scopes(hook.ApiKey, now)


def _pending(
    webhook_id: str, event_id: str, user_id: str, event_type: str, body: str, now: datetime
) -> dict[str, Any]:
    return {
        "id": new_id("whd"),
        "webhook_id": webhook_id,
        "user_id": user_id,
        "event_id": event_id,
        "event_type": event_type,
        "body": body,
        "status": "pending",
        "attempts": 0,
        "last_error": None,
        "next_attempt_at": now,
        "created_at": now,
        "updated_at": now,
    }


def _wants(subscribed: list[str], event_type: str) -> bool:
    """Only the webhook event types: other facts reported (a key's revocation) are for other sinks."""
    return event_type in EVENT_TYPES and (ALL_EVENTS in subscribed or event_type in subscribed)


async def _refuse_over_backlog(session: AsyncSession, rows: list[dict[str, Any]]) -> None:
    """A webhook whose receiver has been failing for long piles up deliveries: past the operator's
    limit, new ones are logged `failed` at once, so the log still shows what was missed and can replay
    it, but no table grows without bound waiting on one receiver."""
    webhook_ids = sorted({r["webhook_id"] for r in rows})
    pending = dict(
        (
            await session.execute(
                select(WebhookDelivery.webhook_id, func.count())
                .where(WebhookDelivery.webhook_id.in_(webhook_ids), WebhookDelivery.status == "pending")
                .group_by(WebhookDelivery.webhook_id)
            )
        ).all()
    )
    for row in rows:
        count = int(pending.get(row["webhook_id"], 0))
        if count >= BACKLOG_LIMIT:
            row.update(status="failed", last_error=BACKLOG_ERROR, next_attempt_at=None)
        else:
            pending[row["webhook_id"]] = count + 1
