"""A suppression CSV imported without holding the database: its lines are checked in a child process
(`platform.offload`: 100,000 addresses take seconds to validate), then written in batches of
`BATCH`, each its own short transaction (`platform.batches`), so another account's writes go on
meanwhile.

The import is one record (`SuppressionImport`) and whole by it: its entries count only once it
completed, which deletes the record in the transaction of the last batch (`suppressions.counted`), so
a list read mid-way, or an import cut off, shows none of them. An import that fails is marked
`failed` and its entries deleted; one cut off with its process is untouched for `STALE`, and the
account's next import gives it up and deletes its entries. An account runs one import at a time (409
`suppression_import_in_progress`): two at once could each take the other's line as listed already and
lose it if the other failed. While it runs, an import holds room under the account's bound for all
its lines.
"""

from __future__ import annotations

import csv
import io
import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.outreach import suppressions
from leadwire.outreach.models import Suppression, SuppressionImport
from leadwire.platform.batches import delete_in_batches, write_in_batches
from leadwire.platform.callers import Caller
from leadwire.platform.db import transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.offload import in_child
from leadwire.platform.time import utcnow
from leadwire.platform.users import lock_account_counts

log = logging.getLogger(__name__)

MAX_IMPORT_ROWS = 100_000
MAX_ERRORS = 100
BATCH = 250

Entry = tuple[str, str, str, str | None, str]  # channel, kind, value, reason, source


@dataclass
class Parsed:
    """A CSV's good lines, once each by (channel, value), and what was wrong with the others."""

    entries: list[Entry] = field(default_factory=list)
    accepted: int = 0
    rejected: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)


async def import_csv(maker: async_sessionmaker[AsyncSession], caller: Caller, text: str) -> dict[str, Any]:
    """Entries from CSV lines `channel,value[,reason]` (a header line names them): every good line
    added (or already listed), every bad one reported with its line and code (the first 100 listed)."""
    parsed = await in_child(parse, text, MAX_IMPORT_ROWS)  # the bound read here, where it is set
    record_id = await _begin(maker, caller.user_id, len(parsed.entries))
    added = 0

    async def write(session: AsyncSession, batch: Any) -> None:
        nonlocal added
        await _touch(session, record_id)
        added += await suppressions.insert_entries(session, caller.user_id, batch, import_id=record_id)

    try:
        await _clear_given_up(maker, caller.user_id)
        await write_in_batches(maker, parsed.entries, write, size=BATCH)
        async with transaction(maker) as session:
            await _touch(session, record_id, completed=True)
    except BaseException:
        await _give_up(maker, record_id)
        raise
    return {
        "accepted": parsed.accepted,
        "added": added,
        "already_listed": parsed.accepted - added,
        "rejected": parsed.rejected,
        "errors": parsed.errors,
    }


def parse(text: str, max_lines: int) -> Parsed:
    """The CSV's lines checked (in the child process); 400 `invalid_suppression` for a file no CSV
    reader takes, 413 `suppression_import_too_large` past `max_lines` lines."""
    if "\x00" in text:
        raise ApiError("invalid_suppression", detail="the CSV holds a NUL character")
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    header = {(h or "").strip().casefold() for h in reader.fieldnames or []}
    if not {"channel", "value"} <= header:
        raise ApiError(
            "invalid_suppression", detail="the CSV's header names no `channel` and `value` columns"
        )
    parsed = Parsed()
    seen: set[tuple[str, str]] = set()
    try:
        for row in reader:
            if parsed.accepted + parsed.rejected >= max_lines:
                raise ApiError("suppression_import_too_large", detail=f"at most {max_lines:,} lines")
            fields = {
                (k or "").strip().casefold(): (v or "").strip() for k, v in row.items() if isinstance(v, str)
            }
            outcome = _line(reader.line_num, fields)
            if isinstance(outcome, dict):
                parsed.rejected += 1
                if len(parsed.errors) < MAX_ERRORS:
                    parsed.errors.append(outcome)
                continue
            parsed.accepted += 1
            if (outcome[0], outcome[2]) not in seen:  # a line listed twice is listed already the second time
                seen.add((outcome[0], outcome[2]))
                parsed.entries.append(outcome)
    except csv.Error as exc:
        raise ApiError("invalid_suppression", detail=f"line {reader.line_num}: {exc}"[:200]) from None
    return parsed


def _line(line: int, fields: dict[str, str]) -> Entry | dict[str, Any]:
    channel = fields.get("channel", "").casefold()
    if channel not in suppressions.CHANNELS:
        return {"line": line, "field": "channel", "code": "invalid_channel"}
    reason = fields.get("reason") or None
    if reason is not None and len(reason) > suppressions.MAX_REASON:
        return {"line": line, "field": "reason", "code": "reason_too_long"}
    try:
        kind, value = suppressions.normalised(channel, fields.get("value", ""))
    except ApiError:
        return {"line": line, "field": "value", "code": "invalid_value"}
    return channel, kind, value, reason, "import"


async def _begin(maker: async_sessionmaker[AsyncSession], user_id: str, entries: int) -> str:
    """The import's record, `importing`, once the account has room for all its lines: under the
    account's row lock, so an addition or another import counts after it. An import of the account
    cut off is given up here."""
    now = utcnow()
    async with transaction(maker) as session:
        await lock_account_counts(session, user_id)
        await session.execute(
            update(SuppressionImport)
            .where(
                SuppressionImport.user_id == user_id,
                SuppressionImport.status == "importing",
                SuppressionImport.touched_at <= now - suppressions.STALE,
            )
            .values(status="failed")
        )
        running = await session.scalar(
            select(SuppressionImport.id).where(
                SuppressionImport.user_id == user_id, SuppressionImport.status == "importing"
            )
        )
        if running is not None:
            raise ApiError(
                "suppression_import_in_progress", detail=f"import {running} of this account is running"
            )
        await suppressions.room(session, user_id, entries)
        record = SuppressionImport(
            id=new_id("supi"),
            user_id=user_id,
            status="importing",
            entries=entries,
            created_at=now,
            touched_at=now,
        )
        session.add(record)
    return record.id


async def _touch(session: AsyncSession, record_id: str, *, completed: bool = False) -> None:
    """The import marked alive in the batch's transaction, or completed (its record deleted: its
    entries count from this commit on); 503 when it was given up meanwhile (untouched past `STALE`),
    so that nothing more of it is written."""
    mine = (SuppressionImport.id == record_id, SuppressionImport.status == "importing")
    if completed:
        moved = await session.execute(delete(SuppressionImport).where(*mine))
    else:
        moved = await session.execute(update(SuppressionImport).where(*mine).values(touched_at=utcnow()))
    if moved.rowcount != 1:  # type: ignore[attr-defined]
        raise ApiError("task_unavailable", detail="the import was interrupted; send the file again")


async def _give_up(maker: async_sessionmaker[AsyncSession], record_id: str) -> None:
    """A failed import: marked `failed` (its entries never count), its entries and record deleted. When
    the database is what failed, the account's next import finishes this."""
    try:
        async with transaction(maker) as session:
            await session.execute(
                update(SuppressionImport).where(SuppressionImport.id == record_id).values(status="failed")
            )
        await _delete(maker, record_id)
    except Exception as exc:  # the import's own failure is what its caller reports
        log.warning("a failed suppression import is left to the next one: %s", type(exc).__name__)


async def _clear_given_up(maker: async_sessionmaker[AsyncSession], user_id: str) -> None:
    async with transaction(maker) as session:
        given_up = list(
            await session.scalars(
                select(SuppressionImport.id).where(
                    SuppressionImport.user_id == user_id, SuppressionImport.status == "failed"
                )
            )
        )
    for record_id in given_up:
        await _delete(maker, record_id)


async def _delete(maker: async_sessionmaker[AsyncSession], record_id: str) -> None:
    """A failed import's entries, a batch at a time, then its record."""

    async def delete_batch(session: AsyncSession) -> int:
        ids = select(Suppression.id).where(Suppression.import_id == record_id).limit(BATCH)
        result = await session.execute(delete(Suppression).where(Suppression.id.in_(ids)))
        return int(result.rowcount)  # type: ignore[attr-defined]

    await delete_in_batches(maker, delete_batch, at_most=MAX_IMPORT_ROWS // BATCH + 2)
    async with transaction(maker) as session:
        await session.execute(delete(SuppressionImport).where(SuppressionImport.id == record_id))
