"""The account's suppression list: recipients no dispatch may reach, checked before any job is created.

An entry is a channel (`email`, `linkedin`, `whatsapp`, or `any`) and a value, stored normalised so a
recipient is found however it was written:
- an email address (lower-cased) or a whole email domain (`normalise_domain`): email dispatches;
- a phone in E.164: WhatsApp;
- a LinkedIn profile (`https://www.linkedin.com/in/<slug>`): LinkedIn.
A dispatch whose recipient matches an entry of its channel or of `any` is refused with 409
`recipient_suppressed`, on v1 as on v2: an opt-out holds whatever version sends.

Entries are added by hand, by CSV, and by the deliveries themselves (`learn`): a hard bounce (SMTP
5.1.x), a WhatsApp opt-out (131050). Every function runs in its caller's transaction.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

import phonenumbers
from email_validator import EmailNotValidError, validate_email
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.domains import normalise_domain
from leadwire.outreach.models import Suppression
from leadwire.outreach.suppression_schemas import SuppressionOut
from leadwire.platform.callers import Caller
from leadwire.platform.db import dialect_insert
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.pagination import CursorCodec, newest_first
from leadwire.platform.time import iso, utcnow
from leadwire.platform.users import User
from leadwire.providers.channels import linkedin_profile_url

CHANNELS = ("email", "linkedin", "whatsapp", "any")
MAX_PER_ACCOUNT = 1_000_000
MAX_IMPORT_ROWS = 100_000
MAX_ERRORS = 100
MAX_REASON = 500
_BATCH = 2000
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


async def insert_entries(
    session: AsyncSession, user_id: str, entries: Sequence[tuple[str, str, str, str | None, str]]
) -> int:
    """Insert-or-nothing by (channel, value); the number added."""
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
            }
            for channel, kind, value, reason, source in entries[start : start + _BATCH]
        ]
        inserted = await session.execute(
            dialect_insert(session)(Suppression)
            .values(rows)
            .on_conflict_do_nothing()
            .returning(Suppression.id)
        )
        added += len(inserted.scalars().all())
    return added


async def _room(session: AsyncSession, user_id: str, wanted: int) -> None:
    """409 `suppression_limit_exceeded` when `wanted` more entries would pass the account's bound. The
    account's row is locked first: two additions at once count one after the other."""
    await session.execute(select(User.id).where(User.id == user_id).with_for_update())
    held = int(await session.scalar(select(func.count()).where(Suppression.user_id == user_id)) or 0)
    if held + wanted > MAX_PER_ACCOUNT:
        raise ApiError(
            "suppression_limit_exceeded", detail=f"an account holds at most {MAX_PER_ACCOUNT:,} entries"
        )


async def add(
    session: AsyncSession, caller: Caller, *, channel: str, value: str, reason: str | None
) -> tuple[SuppressionOut, bool]:
    """The entry, and whether it is new (an entry already listed is answered as it is)."""
    kind, normal = normalised(channel, value)
    await _room(session, caller.user_id, 1)
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
    entry = await session.get(Suppression, suppression_id[:32])
    if entry is None or entry.user_id != caller.user_id:
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
    statement = select(Suppression).where(Suppression.user_id == caller.user_id)
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


async def import_csv(session: AsyncSession, caller: Caller, text: str) -> dict[str, Any]:
    """Entries from CSV lines `channel,value[,reason]` (a header line names them): every good line
    added (or already listed), every bad one reported with its line and code (the first 100 listed)."""
    if "\x00" in text:
        raise ApiError("invalid_suppression", detail="the CSV holds a NUL character")
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    header = {(h or "").strip().casefold() for h in reader.fieldnames or []}
    if not {"channel", "value"} <= header:
        raise ApiError(
            "invalid_suppression", detail="the CSV's header names no `channel` and `value` columns"
        )
    entries: list[tuple[str, str, str, str | None, str]] = []
    errors: list[dict[str, Any]] = []
    rejected = 0
    try:
        for row in reader:
            if len(entries) + rejected >= MAX_IMPORT_ROWS:
                raise ApiError("suppression_import_too_large", detail=f"at most {MAX_IMPORT_ROWS:,} lines")
            line = reader.line_num
            fields = {
                (k or "").strip().casefold(): (v or "").strip() for k, v in row.items() if isinstance(v, str)
            }
            outcome = _line(line, fields)
            if isinstance(outcome, dict):
                rejected += 1
                if len(errors) < MAX_ERRORS:
                    errors.append(outcome)
            else:
                entries.append(outcome)
    except csv.Error as exc:
        raise ApiError("invalid_suppression", detail=f"line {reader.line_num}: {exc}"[:200]) from None
    await _room(session, caller.user_id, len(entries))
    added = await insert_entries(session, caller.user_id, entries)
    return {
        "accepted": len(entries),
        "added": added,
        "already_listed": len(entries) - added,
        "rejected": rejected,
        "errors": errors,
    }


def _line(line: int, fields: dict[str, str]) -> tuple[str, str, str, str | None, str] | dict[str, Any]:
    channel = fields.get("channel", "").casefold()
    if channel not in CHANNELS:
        return {"line": line, "field": "channel", "code": "invalid_channel"}
    reason = fields.get("reason") or None
    if reason is not None and len(reason) > MAX_REASON:
        return {"line": line, "field": "reason", "code": "reason_too_long"}
    try:
        kind, value = normalised(channel, fields.get("value", ""))
    except ApiError:
        return {"line": line, "field": "value", "code": "invalid_value"}
    return channel, kind, value, reason, "import"
