"""The rules of webhooks: registering endpoints (their URLs checked against the operator's network),
their secrets, the delivery log and retries. No HTTP objects here; REST and MCP share these functions."""

from __future__ import annotations

import base64
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller, scope_missing
from leadwire.platform.crypto import SecretBox
from leadwire.platform.egress import AddressRefused, EgressRefused, Unresolvable, resolve
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.notify import WORK_CHANNEL, Notifier
from leadwire.platform.pagination import CursorCodec, newest_first
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.platform.users import all_scopes, lock_account_counts
from leadwire.webhooks import views
from leadwire.webhooks.models import Webhook, WebhookDelivery
from leadwire.webhooks.schemas import DeliveryOut, WebhookCreate, WebhookOut, WebhookUpdate, WebhookWithSecret

SECRET_BYTES = 32
LISTENING = "listening"  # a `listen` stream's subscription (`listen.py`): no read shows it
ROTATION_OVERLAP = timedelta(hours=24)
DELIVERY_TASK = "webhooks"  # the background task's name, and its wake-up key on WORK_CHANNEL


def secret_box(runtime: Runtime) -> SecretBox:
    """Seals webhook secrets at rest with the instance's key."""
    return SecretBox(runtime.settings.resolved_secret_key)


def cursor_codec(runtime: Runtime) -> CursorCodec:
    """The signed-cursor codec of the webhook and delivery pages (REST and MCP alike)."""
    return CursorCodec.for_instance(runtime.settings.resolved_secret_key)


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


async def check_url(url: str, *, allow_private: bool, lookup_timeout: float) -> None:
    """400 for a URL we would never call. A host that resolves now must resolve to addresses we may
    call; one that does not resolve yet, or not within `lookup_timeout` seconds, is accepted (each
    delivery checks again)."""
    try:
        await resolve(url, allow_private=allow_private, lookup_timeout=lookup_timeout)
    except Unresolvable:
        return
    except AddressRefused as refused:
        raise ApiError("webhook_url_not_allowed", param="url", detail=refused.reason) from None
    except EgressRefused as refused:
        raise ApiError("invalid_webhook_url", param="url", detail=refused.reason) from None


async def create(
    session: AsyncSession,
    box: SecretBox,
    caller: Caller,
    body: WebhookCreate,
    *,
    allow_private: bool,
    lookup_timeout: float,
    limit: int,
) -> WebhookWithSecret:
    await check_url(body.url, allow_private=allow_private, lookup_timeout=lookup_timeout)
    await lock_account_counts(session, caller.user_id)  # two creations at once count one after the other
    count = await session.scalar(
        select(func.count()).where(Webhook.user_id == caller.user_id, Webhook.status != LISTENING)
    )
    if int(count or 0) >= limit:
        raise ApiError("webhook_limit_exceeded", detail=f"an account holds at most {limit} webhooks")
    now = utcnow()
    secret = new_secret()
    webhook = Webhook(
        id=new_id("wh"),
        user_id=caller.user_id,
        url=body.url,
        events=body.events,
        status="active",
        description=body.description,
        meta=body.metadata,
        sealed_secret=box.seal({"secret": secret}),
        # What its events may carry: what the registering key may read (`outbox.readable_scopes`).
        creator_key_id=caller.key_id,
        scopes=sorted(caller.scopes),
        created_at=now,
        updated_at=now,
    )
    session.add(webhook)
    await session.flush()
    return views.with_secret(webhook, secret)


async def get_owned(session: AsyncSession, caller: Caller, webhook_id: str, *, lock: bool = False) -> Webhook:
    statement = select(Webhook).where(
        Webhook.id == webhook_id, Webhook.user_id == caller.user_id, Webhook.status != LISTENING
    )
    # NO KEY UPDATE: the outbox's inserts (their foreign key's KEY SHARE) need not wait for a change.
    locked = statement.with_for_update(key_share=True) if lock else statement
    webhook = (await session.execute(locked)).scalar_one_or_none()
    if webhook is None:
        raise ApiError("webhook_not_found", param="webhook_id")
    return webhook


async def detail(session: AsyncSession, caller: Caller, webhook_id: str) -> WebhookOut:
    return views.webhook(await get_owned(session, caller, webhook_id))


async def list_webhooks(
    session: AsyncSession, codec: CursorCodec, caller: Caller, *, limit: int, cursor: str | None
) -> tuple[list[WebhookOut], str | None]:
    """Newest first; `next_cursor` resumes after the last one shown."""
    statement = select(Webhook).where(Webhook.user_id == caller.user_id, Webhook.status != LISTENING)
    rows, next_cursor = await newest_first(
        session, codec, statement, Webhook.id, limit=limit, cursor=cursor, bound_to="webhooks"
    )
    return [views.webhook(w) for w in rows], next_cursor


async def update(
    session: AsyncSession,
    notifier: Notifier,
    caller: Caller,
    webhook_id: str,
    body: WebhookUpdate,
    *,
    allow_private: bool,
    lookup_timeout: float,
) -> WebhookOut:
    if body.url is not None:  # resolved before any lock: the URL's owner decides how slow its DNS is
        await check_url(body.url, allow_private=allow_private, lookup_timeout=lookup_timeout)
    webhook = await get_owned(session, caller, webhook_id, lock=True)
    if body.url is not None or body.events is not None:
        # Where it sends, or what: the webhook is now the updating key's, which reads all it carried.
        must_read_all(caller, webhook)
        webhook.creator_key_id = caller.key_id
        webhook.scopes = sorted(caller.scopes)
    if body.url is not None:
        webhook.url = body.url
    if body.events is not None:
        webhook.events = body.events
    if "description" in body.model_fields_set:
        webhook.description = body.description
    if body.metadata is not None:
        webhook.meta = body.metadata
    if body.status is not None and body.status != webhook.status:
        webhook.status = body.status
        # Enabled again by its owner: a fresh start, and its waiting deliveries go now.
        webhook.disabled_reason = None if body.status == "active" else "disabled by its owner"
        webhook.failing_since = None
        if body.status == "active":
            await notifier.publish(session, WORK_CHANNEL, DELIVERY_TASK)
    webhook.updated_at = utcnow()
    await session.flush()
    return views.webhook(webhook)


def must_read_all(caller: Caller, webhook: Webhook) -> None:
    """403 `permission_denied` unless the caller's key holds every scope the webhook records (every scope
    for one registered before keys were recorded). Its log and its pending deliveries hold bodies built
    under those scopes: a key that reads less must not point them at a receiver of its choosing (a new
    url or events) nor send them again. Scopes therefore never narrow through a change: a key that reads
    less registers a webhook of its own."""
    recorded = all_scopes() if webhook.creator_key_id is None else (webhook.scopes or ())
    missing = sorted(set(recorded) - caller.scopes)
    if missing:
        raise scope_missing(missing[0])


async def delete(session: AsyncSession, caller: Caller, webhook_id: str) -> None:
    """The webhook and its delivery log; deliveries under way finish, and nothing is sent after."""
    webhook = await get_owned(session, caller, webhook_id, lock=True)
    await session.delete(webhook)
    await session.flush()


async def rotate_secret(
    session: AsyncSession, box: SecretBox, caller: Caller, webhook_id: str
) -> WebhookWithSecret:
    """A new secret; the current one keeps signing beside it for `ROTATION_OVERLAP`, so a receiver can
    switch without losing a delivery."""
    webhook = await get_owned(session, caller, webhook_id, lock=True)
    now = utcnow()
    secret = new_secret()
    webhook.previous_sealed_secret = webhook.sealed_secret
    webhook.previous_secret_expires_at = now + ROTATION_OVERLAP
    webhook.sealed_secret = box.seal({"secret": secret})
    webhook.updated_at = now
    await session.flush()
    return views.with_secret(webhook, secret)


def signing_secrets(box: SecretBox, webhook: Any, now: Any) -> list[str]:
    """The secrets a delivery is signed with now: the current one, and the previous one during the
    rotation's overlap."""
    found = [str(box.open(webhook.sealed_secret)["secret"])]
    expires = webhook.previous_secret_expires_at
    if webhook.previous_sealed_secret and expires is not None and expires > now:
        found.append(str(box.open(webhook.previous_sealed_secret)["secret"]))
    return found


async def list_deliveries(
    session: AsyncSession,
    codec: CursorCodec,
    caller: Caller,
    webhook_id: str,
    *,
    limit: int,
    cursor: str | None,
    status: str | None,
) -> tuple[list[DeliveryOut], str | None]:
    """Newest first; optionally one status."""
    await get_owned(session, caller, webhook_id)
    bound = f"deliveries:{webhook_id}:{status or ''}"
    statement = select(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook_id)
    if status is not None:
        statement = statement.where(WebhookDelivery.status == status)
    if cursor is not None:
        statement = statement.where(
            WebhookDelivery.seq < int(codec.decode(cursor, bound_to=bound).get("seq", 0))
        )
    rows = list(
        (await session.execute(statement.order_by(WebhookDelivery.seq.desc()).limit(limit + 1))).scalars()
    )
    more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = codec.encode({"seq": rows[-1].seq}, bound_to=bound) if more else None
    return [views.delivery(d) for d in rows], next_cursor


async def retry_delivery(
    session: AsyncSession, notifier: Notifier, caller: Caller, webhook_id: str, delivery_id: str
) -> DeliveryOut:
    """Send a delivery again now, whatever its status (a replay of a succeeded one too); one attempt
    beyond its schedule. A delivery being sent right now is left to finish. It goes through the
    delivery order like any other: while a newer delivery of the webhook is in flight it shares that
    one's lease, and the record of that one releases it (`leases.record`), so it goes next, not beside."""
    webhook = await get_owned(session, caller, webhook_id)
    must_read_all(caller, webhook)  # the stored body is sent as it was built
    delivery = (
        await session.execute(
            select(WebhookDelivery)
            .where(WebhookDelivery.id == delivery_id, WebhookDelivery.webhook_id == webhook_id)
            .with_for_update()
        )
    ).scalar_one_or_none()
    if delivery is None:
        raise ApiError("webhook_delivery_not_found", param="delivery_id")
    now = utcnow()
    under_way = delivery.lease_expires_at is not None and delivery.lease_expires_at > now
    if not under_way:
        # The webhook's delivery in flight, if any (at most its backlog of pending rows is read),
        # locked: its record, which releases what waits on its lease, comes after this commit.
        in_flight = (
            await session.execute(
                select(WebhookDelivery.lease_owner, WebhookDelivery.lease_expires_at)
                .where(
                    WebhookDelivery.webhook_id == webhook_id,
                    WebhookDelivery.status == "pending",
                    WebhookDelivery.seq > delivery.seq,
                    WebhookDelivery.lease_expires_at > now,
                )
                .limit(1)
                .with_for_update()
            )
        ).first()
        delivery.status = "pending"
        delivery.next_attempt_at = now
        delivery.lease_owner = in_flight.lease_owner if in_flight else None
        delivery.lease_expires_at = in_flight.lease_expires_at if in_flight else None
        delivery.updated_at = now
        await notifier.publish(session, WORK_CHANNEL, DELIVERY_TASK)
    await session.flush()
    return views.delivery(delivery)
