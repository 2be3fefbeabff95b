"""Domain events: facts a capability reports in the transaction of the change it describes ("job X
succeeded", "webset Y got items"), handed in that same transaction to the sinks other capabilities
register (the webhooks' outbox). A fact is never reported for a change that rolls back, nor lost for one
that commits.

The platform names no sink: a capability declares its own (`Capability.event_sinks`). Each event's data
(the public job item, say) is a function a sink calls only for an account that subscribed to the type,
so a fact nobody listens for costs the sink one indexed read and no serialisation.

A fact may be readable only under a scope (a job's result under its capability's read scope): the event
names that `scope`, and its `brief`, what a receiver whose key lacks the scope is told instead.
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
Brief = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class DomainEvent:
    user_id: str
    type: str
    data: DataBuilder
    # The scope a receiver needs to be given `data` whole (None: any receiver of the account), and what
    # one without it is given instead (built from `data`).
    scope: str | None = None
    brief: Brief | None = None

    def readable(self, scopes: frozenset[str] | None) -> bool:
        """Whether a receiver holding `scopes` (None: every scope) reads `data` whole."""
        return self.scope is None or scopes is None or self.scope in scopes

    def shown(self, data: dict[str, Any], scopes: frozenset[str] | None) -> dict[str, Any]:
        """What a receiver holding `scopes` is given of the event's `data`."""
        if self.readable(scopes):
            return data
        return self.brief(data) if self.brief is not None else {}


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


def brief_of(*names: str) -> Brief:
    """The brief that keeps these fields of an event's data (those it has), in this order."""
    return lambda data: {name: data[name] for name in names if name in data}


def constant(data: dict[str, Any]) -> DataBuilder:
    """The builder of data known already when the event is reported."""

    async def build(_session: AsyncSession) -> dict[str, Any]:
        return data

    return build
