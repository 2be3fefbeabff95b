"""Wire shapes of webhooks and deliveries, built from their rows."""

from __future__ import annotations

from typing import Literal, cast

from leadwire.platform.time import iso
from leadwire.webhooks.models import Webhook, WebhookDelivery
from leadwire.webhooks.schemas import DeliveryOut, WebhookOut, WebhookWithSecret


def webhook(row: Webhook) -> WebhookOut:
    return WebhookOut(
        id=row.id,
        url=row.url,
        events=list(row.events),
        status=cast(Literal["active", "disabled"], row.status),
        description=row.description,
        metadata=dict(row.meta or {}),
        disabled_reason=row.disabled_reason,
        created_at=iso(row.created_at),
        updated_at=iso(row.updated_at),
    )


def with_secret(row: Webhook, secret: str) -> WebhookWithSecret:
    return WebhookWithSecret(**webhook(row), secret=secret)


def delivery(row: WebhookDelivery) -> DeliveryOut:
    return DeliveryOut(
        id=row.id,
        event_id=row.event_id,
        event_type=row.event_type,
        status=cast(Literal["pending", "succeeded", "failed"], row.status),
        attempts=row.attempts,
        last_status_code=row.last_status_code,
        last_error=row.last_error,
        next_attempt_at=iso(row.next_attempt_at) if row.next_attempt_at and row.status == "pending" else None,
        created_at=iso(row.created_at),
    )
