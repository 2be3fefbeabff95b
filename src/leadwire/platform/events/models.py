"""Event log tables: one row per event (global `seq`), one row per topic to serialise its appends."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, JsonType, SeqType, UtcDateTime


class EventTopic(Base):
    """Locked by every append to its topic, so a topic's events commit in `seq` order."""

    __tablename__ = "event_topics"

    topic: Mapped[str] = mapped_column(String(128), primary_key=True)
    # Events up to this seq were pruned: a follower resuming from before it must reset.
    pruned_through: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Event(Base):
    __tablename__ = "events"
    __table_args__ = (Index("ix_events_topic_seq", "topic", "seq"),)

    seq: Mapped[int] = mapped_column(SeqType, primary_key=True, autoincrement=True)
    topic: Mapped[str] = mapped_column(String(128))
    type: Mapped[str] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
