"""The append-only event log of a topic (a webset's item changes) and its followers, and the domain
events a change reports to the sinks capabilities register (`domain.py`).

This module is the room's public face: a capability appends its events and follows a topic through
these functions; every query on the event table is in `log.py`.
"""

from leadwire.platform.events.domain import Brief, DomainEvent, EventSink, brief_of, constant, emit
from leadwire.platform.events.followers import follow
from leadwire.platform.events.log import append as append_event
from leadwire.platform.events.log import append_many as append_events
from leadwire.platform.events.log import head_seq, must_reset, payload_at
from leadwire.platform.events.models import Event

__all__ = [
    "Brief",
    "DomainEvent",
    "Event",
    "EventSink",
    "append_event",
    "append_events",
    "brief_of",
    "constant",
    "emit",
    "follow",
    "head_seq",
    "must_reset",
    "payload_at",
]
