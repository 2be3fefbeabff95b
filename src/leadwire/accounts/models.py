"""Connected accounts: the mailboxes, LinkedIn and WhatsApp senders a user sends through."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, JsonType, UtcDateTime

CHANNELS = ("email", "linkedin", "whatsapp")
PROVIDERS_BY_CHANNEL = {
    "email": ("sandbox", "smtp"),
    "linkedin": ("sandbox", "unipile"),
    "whatsapp": ("sandbox", "whatsapp_cloud"),
}
STATUSES = ("connected", "reconnect_required", "disconnected")


class ConnectAccount(Base):
    __tablename__ = "connect_accounts"
    __table_args__ = (Index("ix_connect_accounts_user_channel", "user_id", "channel"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    provider: Mapped[str] = mapped_column(String(32))
    display_name: Mapped[str] = mapped_column(String(200))
    identifier: Mapped[str] = mapped_column(String(320))
    status: Mapped[str] = mapped_column(String(32))
    can_send: Mapped[bool] = mapped_column(Boolean)
    can_receive: Mapped[bool] = mapped_column(Boolean)
    # Provider settings that are not secret (host, port, account ids) in clear, secrets Fernet-encrypted.
    settings: Mapped[dict[str, Any]] = mapped_column(JsonType)
    encrypted_secret: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())
