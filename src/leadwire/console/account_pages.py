"""What the console's account pages show and do, through the services the API uses: the credits with
their ledger, the webhooks with their delivery log (create with the secret shown once, delete, retry a
delivery), and the account's API keys (create with the key shown once, revoke)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.console import web
from leadwire.keys import service as keys
from leadwire.keys.schemas import KeyCreate
from leadwire.platform.billing import ENTRY_KINDS, LedgerEntry, list_entries, read_balance
from leadwire.platform.callers import Caller
from leadwire.platform.pagination import CursorCodec
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import iso
from leadwire.platform.validation import validate
from leadwire.webhooks import service as webhooks
from leadwire.webhooks.schemas import ALL_EVENTS, DELIVERY_STATUSES, EVENT_TYPES, DeliveryOut, WebhookCreate

ENTRIES_PER_PAGE = 50
WEBHOOKS_PER_PAGE = 50
DELIVERIES_PER_PAGE = 50
# How each kind of entry moves the account's credits, as the ledger page says it.
KIND_EFFECTS = {
    "grant": ("+", "balance"),
    "charge": ("−", "balance"),
    "reserve": ("−", "available"),
    "release": ("+", "available"),
}


def _codec(runtime: Runtime) -> CursorCodec:
    return CursorCodec.for_instance(runtime.settings.resolved_secret_key)


async def credits(
    session: AsyncSession, runtime: Runtime, caller: Caller, *, kind: str | None, cursor: str | None
) -> dict[str, Any]:
    """The balance and a page of the ledger, newest first (`GET /api/v2/credits/ledger`)."""
    view = await read_balance(session, caller.user_id)
    kind = kind if kind in ENTRY_KINDS else None

    async def read(at: str | None) -> tuple[list[LedgerEntry], str | None]:
        return await list_entries(
            session, _codec(runtime), caller.user_id, kind=kind, limit=ENTRIES_PER_PAGE, cursor=at
        )

    entries, next_cursor = await web.first_page_if_stale(read, cursor)
    shown = [
        {
            "kind": e.kind,
            "sign": KIND_EFFECTS[e.kind][0],
            "moves": KIND_EFFECTS[e.kind][1],
            "amount": e.amount,
            "job_id": e.job_id,
            "created_at": iso(e.created_at),
        }
        for e in entries
    ]
    return {
        "credits": {"balance": view.balance, "reserved": view.reserved, "available": view.available},
        "entries": shown,
        "next_cursor": next_cursor,
        "kind": kind,
        "kinds": ENTRY_KINDS,
    }


async def webhook_list(session: AsyncSession, runtime: Runtime, caller: Caller) -> dict[str, Any]:
    rows, _ = await webhooks.list_webhooks(
        session, webhooks.cursor_codec(runtime), caller, limit=WEBHOOKS_PER_PAGE, cursor=None
    )
    return {
        "webhooks": rows,
        "event_types": EVENT_TYPES,
        "all_events": ALL_EVENTS,
        "can_write": caller.can("webhooks:write"),
        "limit": runtime.settings.webhook_limit_per_account,
    }


async def create_webhook(
    session: AsyncSession, runtime: Runtime, caller: Caller, fields: dict[str, Any]
) -> dict[str, Any]:
    """The new webhook with its signing secret (shown this once), refused as the API refuses it."""
    body = validate(WebhookCreate, fields)
    created = await webhooks.create(
        session,
        webhooks.secret_box(runtime),
        caller,
        body,
        allow_private=runtime.settings.webhook_allow_private_networks,
        lookup_timeout=runtime.settings.egress_lookup_timeout_seconds,
        limit=runtime.settings.webhook_limit_per_account,
    )
    return dict(created)


async def delete_webhook(session: AsyncSession, caller: Caller, webhook_id: str) -> None:
    await webhooks.delete(session, caller, webhook_id)


async def webhook_page(
    session: AsyncSession,
    runtime: Runtime,
    caller: Caller,
    webhook_id: str,
    *,
    status: str | None,
    cursor: str | None,
) -> dict[str, Any]:
    """A webhook and a page of its delivery log, newest first."""
    detail = await webhooks.detail(session, caller, webhook_id)
    status = status if status in DELIVERY_STATUSES else None
    codec = webhooks.cursor_codec(runtime)

    async def read(at: str | None) -> tuple[list[DeliveryOut], str | None]:
        return await webhooks.list_deliveries(
            session, codec, caller, webhook_id, limit=DELIVERIES_PER_PAGE, cursor=at, status=status
        )

    deliveries, next_cursor = await web.first_page_if_stale(read, cursor)
    return {
        "webhook": detail,
        "deliveries": deliveries,
        "next_cursor": next_cursor,
        "status": status,
        "statuses": DELIVERY_STATUSES,
        "can_write": caller.can("webhooks:write"),
    }


async def retry_delivery(
    session: AsyncSession, runtime: Runtime, caller: Caller, webhook_id: str, delivery_id: str
) -> None:
    await webhooks.retry_delivery(session, runtime.notifier, caller, webhook_id, delivery_id)


KEYS_PER_PAGE = 50


async def key_list(
    session: AsyncSession, runtime: Runtime, caller: Caller, cursor: str | None = None
) -> dict[str, Any]:
    """The account's keys (`GET /api/v2/keys`), and the scopes a new one may hold: the calling key's."""

    async def read(at: str | None) -> tuple[list[Any], str | None]:
        return await keys.list_keys(
            session, keys.cursor_codec(runtime), caller, limit=KEYS_PER_PAGE, cursor=at
        )

    rows, next_cursor = await web.first_page_if_stale(read, cursor)
    return {
        "keys": rows,
        "next_cursor": next_cursor,
        "grantable": sorted(caller.scopes),
        "can_write": caller.can("keys:write"),
    }


async def create_key(session: AsyncSession, caller: Caller, fields: dict[str, Any]) -> dict[str, Any]:
    """The new key with the key itself (shown this once), refused as `POST /api/v2/keys` refuses."""
    return dict(await keys.create_key(session, caller, validate(KeyCreate, fields)))


async def revoke_key(session: AsyncSession, runtime: Runtime, caller: Caller, key_id: str) -> bool:
    """Revoke one of the account's keys; True when it was the key this session signed in with (the
    session ends with it)."""
    revoked = await keys.revoke(session, runtime.notifier, caller, key_id)
    return bool(revoked["current"])
