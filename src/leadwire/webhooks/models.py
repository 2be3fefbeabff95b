"""Tables of webhooks: the endpoints an account registered, and one delivery row per event per endpoint
(the outbox, written in the transaction of the change the event reports, and the delivery log)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, JsonType, SeqType, UtcDateTime


class Webhook(Base):
    __tablename__ = "webhooks"
    __table_args__ = (Index("ix_webhooks_user_status", "user_id", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    url: Mapped[str] = mapped_column(Text)
    events: Mapped[list[str]] = mapped_column(JsonType)
    # active | disabled, or `listening`: the subscription of a `listen` stream (`listen.py`), shown by
    # no read and gone when its stream ends or `listen_expires_at` passes.
    status: Mapped[str] = mapped_column(String(16))
    description: Mapped[str | None] = mapped_column(Text, nullable=True)
    # `metadata` is SQLAlchemy's own attribute on a mapped class.
    meta: Mapped[dict[str, Any]] = mapped_column("metadata", JsonType, default=dict)
    # Sealed with the instance's key (`platform/crypto.py`); the previous one signs beside the new one
    # until `previous_secret_expires_at` after a rotation.
    sealed_secret: Mapped[str] = mapped_column(Text)
    previous_sealed_secret: Mapped[str | None] = mapped_column(Text, nullable=True)
    previous_secret_expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    # Since when every delivery has failed (None once one succeeds); past the limit the webhook is
    # disabled with `disabled_reason`.
    failing_since: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    disabled_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    listen_expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    # The key that registered it (a `listen` stream's: the streaming key) and that key's scopes then: its
    # events carry only what those scopes, narrowed to the key's as it stands, may read
    # (`outbox.readable_scopes`). None on webhooks registered before keys were recorded: every scope.
    creator_key_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    scopes: Mapped[list[str] | None] = mapped_column(JsonType, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class WebhookDelivery(Base):
    """One event for one webhook. `seq` orders a webhook's deliveries: the oldest pending one goes
    first, and the next waits for it (in order per webhook)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index("ix_webhook_deliveries_webhook_seq", "webhook_id", "seq"),
        # A webhook's pending rows alone: its head (`delivery._due`) and its backlog's count.
        Index(
            "ix_webhook_deliveries_pending",
            "webhook_id",
            "seq",
            postgresql_where=text("status = 'pending'"),
            sqlite_where=text("status = 'pending'"),
        ),
        Index("ix_webhook_deliveries_finished", "status", "updated_at"),  # the retention's prune
    )

    seq: Mapped[int] = mapped_column(SeqType, primary_key=True, autoincrement=True)
    id: Mapped[str] = mapped_column(String(32), unique=True)
    webhook_id: Mapped[str] = mapped_column(String(32), ForeignKey("webhooks.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(String(32))
    event_id: Mapped[str] = mapped_column(String(32))
    event_type: Mapped[str] = mapped_column(String(64))
    # The exact bytes sent (as text): every attempt signs and sends the same body.
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))  # pending | succeeded | failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_status_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    # Leased to a worker while it sends: a worker killed mid-delivery loses the lease, and the delivery
    # is sent again (at least once).
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())
