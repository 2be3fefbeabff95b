"""Domain events: facts a capability reports in the transaction of the change it describes ("job X
succeeded", "webset Y got items"), handed in that same transaction to the sinks other capabilities
register (the webhooks' outbox). A fact is never reported for a change that rolls back, nor lost for one
that commits.

The platform names no sink: a capability declares its own (`Capability.event_sinks`). Each event's data
(the public job item, say) is a function a sink calls only for an account that subscribed to the type,
so a fact nobody listens for costs the sink one indexed read and no serialisation.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.notify import Notifier

# The event's data, built in the reporting transaction; None when the fact turned out not to hold (a
# job whose outcome this worker lost to another, say): the event is then dropped.
DataBuilder = Callable[[AsyncSession], Awaitable[dict[str, Any] | None]]


@dataclass(frozen=True, slots=True)
class DomainEvent:
    user_id: str
    type: str
    data: DataBuilder


class EventSink(Protocol):
    async def __call__(
        self, session: AsyncSession, notifier: Notifier, events: Sequence[DomainEvent]
    ) -> None: ...


_sinks: list[EventSink] = []


def register_sink(sink: EventSink) -> None:
    """Idempotent: a capability installed twice registers its sink once."""
    if sink not in _sinks:
        _sinks.append(sink)


def has_sinks() -> bool:
    return bool(_sinks)


async def emit(session: AsyncSession, notifier: Notifier, events: Sequence[DomainEvent]) -> None:
    """Hand `events` to every sink, in the caller's transaction."""
    if not events:
        return
    for sink in _sinks:
        await sink(session, notifier, events)


def constant(data: dict[str, Any]) -> DataBuilder:
    """The builder of data known already when the event is reported."""

    async def build(_session: AsyncSession) -> dict[str, Any]:
        return data

    return build
