"""A console session: a browser signed in with an API key. The browser holds only a random token (an
HTTP-only cookie); the row holds its hash and the key's digest, never the key."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, UtcDateTime


class ConsoleSession(Base):
    __tablename__ = "console_sessions"
    __table_args__ = (
        Index("ix_console_sessions_key", "key_digest", "created_at"),
        Index("ix_console_sessions_user", "user_id"),
    )

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    key_digest: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime())
