"""A monitor runs in the name of the key that set it up (`Monitor.api_key_id`), with that key's scopes:
when the key is revoked or expires, its monitors pause (`pause_reason: key_revoked`) and report
`monitor.paused`. A revocation through the API pauses them in its own transaction (the `keys.revoked`
fact it reports, `on_keys_revoked`); every scheduler tick first pauses the monitors whose key expired or
was revoked elsewhere (the operator's CLI), so no run starts in a dead key's name. Resuming one needs a
key that manages the account's keys (`keys:write`), and the monitor then runs in that key's name.

Every function here runs in its caller's transaction and knows nothing of HTTP.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller, scope_missing
from leadwire.platform.events import DomainEvent, brief_of, constant, emit
from leadwire.platform.notify import Notifier
from leadwire.platform.time import iso, utcnow
from leadwire.platform.users import KEYS_REVOKED, ApiKey
from leadwire.websets import data_use
from leadwire.websets.models import Monitor, Webset

KEY_REVOKED = "key_revoked"  # the pause reason
PAUSED_EVENT = "monitor.paused"
RESUME_SCOPE = "keys:write"  # resuming moves the monitor's runs (and spending) to the resuming key
READ_SCOPE = "websets:read"


async def on_keys_revoked(session: AsyncSession, notifier: Notifier, events: Sequence[DomainEvent]) -> None:
    """The event sink (`Capability.event_sinks`): the monitors of the keys a revocation took, paused in
    its transaction."""
    key_ids: list[str] = []
    for event in events:
        if event.type == KEYS_REVOKED:
            data = await event.data(session)
            key_ids.extend((data or {}).get("key_ids", ()))
    if key_ids:
        await _pause(session, notifier, Monitor.api_key_id.in_(sorted(set(key_ids))), utcnow())


async def pause_orphaned(session: AsyncSession, notifier: Notifier, now: datetime) -> int:
    """Pause the active monitors whose key is revoked, expired or gone at `now` (monitors a scheduler
    holds are left to it); how many."""
    dead_keys = (
        select(Monitor.id)
        .outerjoin(ApiKey, ApiKey.id == Monitor.api_key_id)
        .where(
            Monitor.status == "active",
            or_(ApiKey.id.is_(None), ApiKey.revoked_at.is_not(None), ApiKey.expires_at <= now),
        )
    )
    return await _pause(session, notifier, Monitor.id.in_(dead_keys), now, skip_locked=True)


async def pause_dead_key(session: AsyncSession, notifier: Notifier, monitor: Monitor, now: datetime) -> None:
    """Pause one monitor the caller holds locked, whose key was found revoked, expired or gone."""
    await _pause(session, notifier, Monitor.id == monitor.id, now)


async def _pause(
    session: AsyncSession, notifier: Notifier, where: Any, now: datetime, *, skip_locked: bool = False
) -> int:
    statement = select(Monitor).where(Monitor.status == "active", where).order_by(Monitor.id)
    monitors = list((await session.execute(statement.with_for_update(skip_locked=skip_locked))).scalars())
    for monitor in monitors:
        monitor.status = "paused"
        monitor.pause_reason = KEY_REVOKED
        monitor.updated_at = now
    await session.flush()
    await emit(session, notifier, [_paused(monitor) for monitor in monitors])
    return len(monitors)


def _paused(monitor: Monitor) -> DomainEvent:
    data = {
        "id": monitor.id,
        "webset_id": monitor.webset_id,
        "status": monitor.status,
        "pause_reason": monitor.pause_reason,
        "api_key_id": monitor.api_key_id,
        "updated_at": iso(monitor.updated_at),
    }
    brief = brief_of("id", "status", "pause_reason")
    return DomainEvent(monitor.user_id, PAUSED_EVENT, constant(data), scope=READ_SCOPE, brief=brief)


async def resume(session: AsyncSession, monitor: Monitor, caller: Caller) -> None:
    """A monitor set active again. Its slots' runs read what the list reads, so the resuming key must
    read it too (`data_use.check_webset`: 403 `membership_tier_insufficient` or `permission_denied`). One
    its key's revocation paused goes on in the name of the resuming key, which must also manage the
    account's keys (403 `permission_denied` naming `keys:write`)."""
    webset = await session.get(Webset, monitor.webset_id)
    if webset is not None:
        await data_use.check_webset(session, caller, webset)
    if monitor.pause_reason == KEY_REVOKED:
        if not caller.can(RESUME_SCOPE):
            raise scope_missing(RESUME_SCOPE)
        monitor.api_key_id = caller.key_id
    monitor.pause_reason = None


def scoped(caller: Caller, key: ApiKey) -> Caller:
    """The caller a monitor's run acts as: its account, with the scopes of its key (not every scope)."""
    return Caller(user_id=caller.user_id, key_id=key.id, plan=caller.plan, scopes=frozenset(key.scopes))
