"""The account's suppression list: recipients no dispatch may reach, checked before any job is created.

An entry is a channel (`email`, `linkedin`, `whatsapp`, or `any`) and a value, stored normalised so a
recipient is found however it was written:
- an email address (lower-cased) or a whole email domain (`normalise_domain`): email dispatches;
- a phone in E.164: WhatsApp;
- a LinkedIn profile (`https://www.linkedin.com/in/<slug>`): LinkedIn.
A dispatch whose recipient matches an entry of its channel or of `any` is refused with 409
`recipient_suppressed`, on v1 as on v2: an opt-out holds whatever version sends.

Entries are added by hand, by CSV (`suppression_import.py`), and by the deliveries themselves
(`learn`): a hard bounce (SMTP 5.1.x), a WhatsApp opt-out (131050). An entry a CSV import wrote counts
(is checked, listed, read, counted against the bound) only once that import completed (`counted`).
Every function runs in its caller's transaction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import phonenumbers
from email_validator import EmailNotValidError, validate_email
from sqlalchemy import ColumnElement, Select, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.domains import normalise_domain
from leadwire.outreach.models import Suppression, SuppressionImport
from leadwire.outreach.suppression_schemas import SuppressionOut
from leadwire.platform.callers import Caller
from leadwire.platform.db import dialect_insert
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.pagination import CursorCodec, newest_first
from leadwire.platform.time import iso, utcnow
from leadwire.platform.users import lock_account_counts
from leadwire.providers.channels import linkedin_profile_url

CHANNELS = ("email", "linkedin", "whatsapp", "any")
MAX_PER_ACCOUNT = 1_000_000
MAX_REASON = 500
_BATCH = 2000
# An import untouched this long was cut off (its process ended): it holds no room, and is deleted.
STALE = timedelta(seconds=60)
# An SMTP reply's enhanced status 5.1.x: the address does not exist (RFC 3463) — a hard bounce.
HARD_BOUNCE = re.compile(r"\b5\.1\.\d{1,3}\b")


def normalised(channel: str, value: str) -> tuple[str, str]:
    """(kind, value) of an entry, or 400 `invalid_suppression` naming what is wrong."""
    text = value.strip()
    if not text:
        raise _invalid("value is empty")
    if len(text) > 320:
        raise _invalid("value is at most 320 characters")
    kinds = _kinds_of(channel, text)
    for kind in kinds:
        found = _as(kind, text)
        if found is not None:
            return kind, found
    raise _invalid(f"{text!r} is not {' or '.join(_NAMES[k] for k in kinds)}")


_NAMES = {
    "address": "an email address",
    "domain": "an email domain",
    "phone": "a phone number in international form",
    "profile_url": "a LinkedIn profile URL",
}


def _kinds_of(channel: str, text: str) -> tuple[str, ...]:
    # `@acme.example`, an at sign only in front, is the whole domain.
    if channel == "email":
        return ("address",) if "@" in text[1:] else ("domain",)
    if channel == "whatsapp":
        return ("phone",)
    if channel == "linkedin":
        return ("profile_url",)
    if "@" in text[1:]:
        return ("address",)
    if "linkedin" in text.casefold():
        return ("profile_url",)
    if text.startswith("+") or text.replace(" ", "").isdigit():
        return ("phone",)
    return ("domain",)


def _as(kind: str, text: str) -> str | None:
    if kind == "address":
        return email_address(text)
    if kind == "domain":
        try:
            return normalise_domain(text.removeprefix("@"))
        except ValueError:
            return None
    if kind == "phone":
        return e164(text)
    try:
        return linkedin_profile_url(text)
    except ValueError:
        return None


def email_address(text: str) -> str | None:
    try:
        checked = validate_email(text.strip(), check_deliverability=False)
    except EmailNotValidError:
        return None
    return checked.normalized.casefold()


def e164(text: str) -> str | None:
    try:
        number = phonenumbers.parse(text.strip(), None)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_possible_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def _invalid(detail: str, param: str = "value") -> ApiError:
    return ApiError("invalid_suppression", param=param, detail=detail)


def recipient_values(channel: str, recipient: dict[str, Any]) -> list[str]:
    """The values a dispatch's recipient is listed under: its address and the address's domain, its
    phone, or its profile."""
    if channel == "email":
        address = email_address(str(recipient.get("address") or ""))
        return [address, address.rsplit("@", 1)[1]] if address else []
    if channel == "whatsapp":
        phone = e164(str(recipient.get("phone") or ""))
        return [phone] if phone else []
    try:
        return [linkedin_profile_url(str(recipient.get("profile_url") or ""))]
    except ValueError:
        return []


async def check(session: AsyncSession, user_id: str, channel: str, recipient: dict[str, Any]) -> None:
    """409 `recipient_suppressed` when the recipient is listed for this channel or for any."""
    values = recipient_values(channel, recipient)
    if not values:
        return
    listed = (
        await session.execute(
            select(Suppression.value, Suppression.channel, Suppression.reason)
            .where(
                Suppression.user_id == user_id,
                Suppression.value.in_(values),
                Suppression.channel.in_((channel, "any")),
                counted(),
            )
            .limit(1)
        )
    ).first()
    if listed is not None:
        value, on, reason = listed
        why = f": {reason}" if reason else ""
        raise ApiError(
            "recipient_suppressed", param="recipient", detail=f"{value} is suppressed on {on}{why}"
        )


async def learn(
    session: AsyncSession, user_id: str, channel: str, recipient: dict[str, Any], *, source: str, reason: str
) -> None:
    """What a delivery taught: the recipient (its address, phone or profile, not its domain) suppressed
    on the channel. Added once; an entry already there is kept as it is."""
    values = recipient_values(channel, recipient)
    if values:
        kind = {"email": "address", "whatsapp": "phone"}.get(channel, "profile_url")
        await insert_entries(session, user_id, [(channel, kind, values[0], reason[:MAX_REASON], source)])


def counted() -> ColumnElement[bool]:
    """An entry that counts: added by hand or learned, or written by an import that completed (whose
    record is gone: only unfinished imports keep one, so the set looked up is a handful of rows)."""
    return or_(Suppression.import_id.is_(None), Suppression.import_id.not_in(_unfinished()))


def _unfinished() -> Select[tuple[str]]:
    return select(SuppressionImport.id)


async def insert_entries(
    session: AsyncSession,
    user_id: str,
    entries: Sequence[tuple[str, str, str, str | None, str]],
    *,
    import_id: str | None = None,
) -> int:
    """Insert-or-nothing by (channel, value); the number added. An entry already there that does not
    count yet (an unfinished import's) is taken over by the new one, so it counts as this one does."""
    added, now = 0, utcnow()
    for start in range(0, len(entries), _BATCH):
        rows = [
            {
                "id": new_id("sup"),
                "user_id": user_id,
                "channel": channel,
                "kind": kind,
                "value": value,
                "reason": reason,
                "source": source,
                "created_at": now,
                "import_id": import_id,
            }
            for channel, kind, value, reason, source in entries[start : start + _BATCH]
        ]
        # One statement, compiled once and cached, run over the rows (SQLAlchemy's "insertmanyvalues"
        # sends them as a few multi-row INSERTs): `.values(rows)` would build and compile a statement of
        # nine parameters a row at every call, 0.4 ms of CPU a row.
        statement = dialect_insert(session)(Suppression)
        new = statement.excluded
        inserted = await session.execute(
            statement.on_conflict_do_update(
                index_elements=[Suppression.user_id, Suppression.channel, Suppression.value],
                set_={
                    "kind": new.kind,
                    "reason": new.reason,
                    "source": new.source,
                    "created_at": new.created_at,
                    "import_id": new.import_id,
                },
                where=Suppression.import_id.in_(_unfinished())
                & Suppression.import_id.is_distinct_from(new.import_id),
            ).returning(Suppression.id),
            rows,
        )
        added += len(inserted.scalars().all())
    return added


async def held(session: AsyncSession, user_id: str) -> int:
    """The account's entries against its bound: those that count, and the room each running import
    holds for its lines."""
    now = utcnow()
    total = int(await session.scalar(select(func.count()).where(Suppression.user_id == user_id)) or 0)
    unfinished = (
        await session.execute(
            select(
                SuppressionImport.id,
                SuppressionImport.status,
                SuppressionImport.entries,
                SuppressionImport.touched_at,
            ).where(SuppressionImport.user_id == user_id)
        )
    ).all()
    if not unfinished:
        return total
    written = int(
        await session.scalar(
            select(func.count()).where(Suppression.import_id.in_([row.id for row in unfinished]))
        )
        or 0
    )
    running = sum(
        row.entries for row in unfinished if row.status == "importing" and row.touched_at > now - STALE
    )
    return total - written + running


async def room(session: AsyncSession, user_id: str, wanted: int) -> None:
    """409 `suppression_limit_exceeded` when `wanted` more entries would pass the account's bound. The
    account's row is locked first: two additions at once count one after the other."""
    await lock_account_counts(session, user_id)
    if await held(session, user_id) + wanted > MAX_PER_ACCOUNT:
        raise ApiError(
            "suppression_limit_exceeded", detail=f"an account holds at most {MAX_PER_ACCOUNT:,} entries"
        )


async def add(
    session: AsyncSession, caller: Caller, *, channel: str, value: str, reason: str | None
) -> tuple[SuppressionOut, bool]:
    """The entry, and whether it is new (an entry already listed is answered as it is)."""
    kind, normal = normalised(channel, value)
    await room(session, caller.user_id, 1)
    added = await insert_entries(session, caller.user_id, [(channel, kind, normal, reason, "manual")])
    entry = (
        await session.execute(
            select(Suppression).where(
                Suppression.user_id == caller.user_id,
                Suppression.channel == channel,
                Suppression.value == normal,
            )
        )
    ).scalar_one()
    return view(entry), added == 1


def view(entry: Suppression) -> SuppressionOut:
    return {
        "id": entry.id,
        "object": "suppression",
        "channel": entry.channel,
        "kind": entry.kind,
        "value": entry.value,
        "reason": entry.reason,
        "source": entry.source,
        "created_at": iso(entry.created_at),
    }


async def get_owned(session: AsyncSession, caller: Caller, suppression_id: str) -> Suppression:
    entry = await session.scalar(
        select(Suppression).where(
            Suppression.id == suppression_id[:32], Suppression.user_id == caller.user_id, counted()
        )
    )
    if entry is None:
        raise ApiError("suppression_not_found")
    return entry


async def delete(session: AsyncSession, caller: Caller, suppression_id: str) -> None:
    await session.delete(await get_owned(session, caller, suppression_id))


async def list_entries(
    session: AsyncSession,
    codec: CursorCodec,
    caller: Caller,
    *,
    channel: str | None,
    value: str | None,
    limit: int,
    cursor: str | None,
) -> tuple[list[SuppressionOut], str | None]:
    """Newest first; `value` finds one recipient's entries (normalised as the entries are)."""
    statement = select(Suppression).where(Suppression.user_id == caller.user_id, counted())
    if channel is not None:
        statement = statement.where(Suppression.channel == channel)
    if value is not None:
        statement = statement.where(Suppression.value.in_(_lookups(value)))
    rows, next_cursor = await newest_first(
        session, codec, statement, Suppression.id, limit=limit, cursor=cursor, bound_to=caller.user_id
    )
    return [view(row) for row in rows], next_cursor


def _lookups(value: str) -> list[str]:
    """Every normal form `value` may be stored under."""
    found = {value.strip()}
    for kind in ("address", "domain", "phone", "profile_url"):
        normal = _as(kind, value.strip())
        if normal is not None:
            found.add(normal)
    return sorted(found)
