"""Request bodies and wire shapes of webhooks (docs/api.md, Webhooks), and the event types."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import Field, StrictStr, field_validator
from typing_extensions import TypedDict

from leadwire.platform.validation import Metadata, RequestModel, small_metadata, with_examples

EVENT_TYPES = (
    "job.succeeded",
    "job.failed",
    "job.cancelled",
    "webset.items.added",
    "webset.completed",
    "webset.failed",
    "outreach.delivered",
    "outreach.failed",
    "monitor.paused",
)
ALL_EVENTS = "*"
DELIVERY_STATUSES = ("pending", "succeeded", "failed")
Url = Annotated[StrictStr, Field(min_length=1, max_length=2048)]
Description = Annotated[StrictStr, Field(max_length=500)]
EventType = Annotated[StrictStr, Field(min_length=1, max_length=64)]


def _known_events(events: list[str]) -> list[str]:
    unknown = [e for e in events if e != ALL_EVENTS and e not in EVENT_TYPES]
    if unknown:
        raise ValueError(f"unknown event types {unknown}: use {', '.join(EVENT_TYPES)} or *")
    return list(dict.fromkeys(events))


class WebhookCreate(RequestModel):
    model_config = with_examples(
        {"url": "https://hooks.example.com/leadwire", "events": ["job.succeeded", "webset.completed"]},
        {"url": "https://hooks.example.com/all", "events": ["*"], "description": "everything"},
    )
    missing_codes = {"url": "invalid_webhook_url"}
    invalid_codes = {"url": "invalid_webhook_url", "events": "invalid_webhook_events"}

    url: Url
    events: list[EventType] = Field(min_length=1, max_length=len(EVENT_TYPES) + 1)
    description: Description | None = None
    metadata: Metadata = Field(default_factory=dict)

    _events = field_validator("events")(_known_events)
    _metadata = field_validator("metadata")(small_metadata)


class WebhookUpdate(RequestModel):
    model_config = with_examples(
        {"status": "disabled"}, {"events": ["*"], "url": "https://hooks.example.com/v2"}
    )
    invalid_codes = {"url": "invalid_webhook_url", "events": "invalid_webhook_events"}

    url: Url | None = None
    events: list[EventType] | None = Field(default=None, min_length=1, max_length=len(EVENT_TYPES) + 1)
    status: Literal["active", "disabled"] | None = None
    description: Description | None = None
    metadata: Metadata | None = None

    @field_validator("events")
    @classmethod
    def _events(cls, events: list[str] | None) -> list[str] | None:
        return None if events is None else _known_events(events)

    _metadata = field_validator("metadata")(small_metadata)


class WebhookOut(TypedDict):
    id: str
    url: str
    events: list[str]
    status: Literal["active", "disabled"]
    description: str | None
    metadata: dict[str, str]
    disabled_reason: str | None
    created_at: str
    updated_at: str


class WebhookWithSecret(WebhookOut):
    """The creation's and rotate-secret's item: the only times the secret is shown (a replay of their
    `Idempotency-Key` answers without it: the secret is never stored in the clear)."""

    secret: NotRequired[str]


class DeliveryOut(TypedDict):
    id: str
    event_id: str
    event_type: str
    status: Literal["pending", "succeeded", "failed"]
    attempts: int
    last_status_code: int | None
    last_error: str | None
    next_attempt_at: str | None
    created_at: str


class EventBody(TypedDict):
    """What each delivery POSTs."""

    id: str
    type: str
    created_at: str
    data: dict[str, Any]
