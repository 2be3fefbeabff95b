"""Appending to and reading the event log.

`append` runs in the caller's transaction (an event commits with the change it describes) and wakes
followers through the notifier once that transaction commits.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import ScalarSelect, case, delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.db import dialect_insert
from leadwire.platform.events.models import Event, EventTopic
from leadwire.platform.notify import EVENT_CHANNEL, Notifier
from leadwire.platform.time import utcnow


async def append(
    session: AsyncSession, notifier: Notifier, topic: str, type_: str, payload: dict[str, Any]
) -> int:
    """Add one event to `topic`; returns its `seq`. Appends to one topic are serialised by a row lock."""
    return (await append_many(session, notifier, topic, [(type_, payload)]))[-1]


async def append_many(
    session: AsyncSession, notifier: Notifier, topic: str, events: Sequence[tuple[str, dict[str, Any]]]
) -> list[int]:
    """Add events to `topic` in order, under one lock of the topic and one flush; their `seq`s."""
    await session.execute(
        dialect_insert(session)(EventTopic)
        .values(topic=topic, pruned_through=0, created_at=utcnow())
        .on_conflict_do_nothing()
    )
    await session.execute(select(EventTopic.topic).where(EventTopic.topic == topic).with_for_update())
    now = utcnow()
    rows = [Event(topic=topic, type=type_, payload=payload, created_at=now) for type_, payload in events]
    session.add_all(rows)
    await session.flush()
    await notifier.publish(session, EVENT_CHANNEL, topic)
    return [row.seq for row in rows]


async def read_after(session: AsyncSession, topic: str, after: int, *, limit: int = 500) -> list[Event]:
    result = await session.execute(
        select(Event).where(Event.topic == topic, Event.seq > after).order_by(Event.seq).limit(limit)
    )
    return list(result.scalars())


async def latest_seq(session: AsyncSession, topic: str) -> int:
    """The checkpoint that delivers only future events (0 for an empty topic)."""
    value = await session.scalar(select(func.max(Event.seq)).where(Event.topic == topic))
    return int(value or 0)


def head_seq(topic: str) -> ScalarSelect[int]:
    """`latest_seq` as a scalar subquery, for a caller that reads it in the same statement as its own
    state (both then describe one moment, even under READ COMMITTED)."""
    return select(func.coalesce(func.max(Event.seq), 0)).where(Event.topic == topic).scalar_subquery()


async def payload_at(session: AsyncSession, topic: str, seq: int) -> dict[str, Any]:
    """The payload of the last event of `topic` at or before `seq` (empty when there is none)."""
    payload = await session.scalar(
        select(Event.payload)
        .where(Event.topic == topic, Event.seq <= seq)
        .order_by(Event.seq.desc())
        .limit(1)
    )
    return dict(payload or {})


async def must_reset(session: AsyncSession, topic: str, after: int) -> bool:
    """True when events after `after` were pruned: the follower must take a fresh snapshot."""
    pruned = await session.scalar(select(EventTopic.pruned_through).where(EventTopic.topic == topic))
    return after < int(pruned or 0)


async def prune(session: AsyncSession, *, older_than: timedelta) -> int:
    """Delete old events, remembering per topic how far the log was cut."""
    cutoff = utcnow() - older_than
    cut = (
        await session.execute(
            select(Event.topic, func.max(Event.seq)).where(Event.created_at < cutoff).group_by(Event.topic)
        )
    ).all()
    for topic, seq in cut:
        await session.execute(
            update(EventTopic)
            .where(EventTopic.topic == topic)
            .values(
                pruned_through=case((EventTopic.pruned_through < seq, seq), else_=EventTopic.pruned_through)
            )
        )
    result = await session.execute(delete(Event).where(Event.created_at < cutoff))
    return int(result.rowcount or 0)  # type: ignore[attr-defined]
