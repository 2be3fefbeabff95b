"""Imports: a list of companies a user brings (CSV or JSON rows), checked line by line and kept for
prospect lists to leave out (`exclude: [{source: "import", id}]`).

Columns are found by name — `name` (or `company`, `company_name`), `domain` (or `website`, `url`),
`country` (or `country_code`) — unless `columns` maps them. A row needs a name or a domain; a domain is
normalised and a country is an ISO 3166 alpha-2 code. A bad row is rejected with its line, field and
code, and the rest are kept: the first `MAX_ERRORS` errors are listed, all are counted.

A body is read and checked in a child process (`platform.offload`: a 50 MB CSV takes seconds), and its
rows written in batches of `BATCH`, each its own short transaction (`platform.batches`), so that
another account's writes go on meanwhile. The import is whole by its status: `importing` while its
rows are written, read by nothing (not listed, not found, no list's seed or exclusion), `completed` in
the transaction of its last batch. One that fails is marked `failed`, its rows and then itself
deleted; one cut off with its process is untouched for `STALE`, and the account's next import deletes
it.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as default
from datetime import timedelta
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import Table, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.domains import normalise_domain
from leadwire.platform.batches import delete_in_batches, write_in_batches
from leadwire.platform.callers import Caller
from leadwire.platform.db import insert_rows, transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.pagination import CursorCodec, newest_first
from leadwire.platform.time import iso, utcnow
from leadwire.platform.users import lock_account_counts
from leadwire.platform.validation import validate
from leadwire.websets.models import Import, ImportRow
from leadwire.websets.schemas import MAX_IMPORT_ROWS, ImportColumns, ImportOut, ImportRequest

log = logging.getLogger(__name__)

MAX_ERRORS = 100
MAX_IMPORTS_PER_ACCOUNT = 200
MAX_NAME = 300
MAX_JSON_KEYS = 50
# The header names each field is found under when `columns` does not say (compared case-insensitively).
KNOWN_COLUMNS = {
    "name": ("name", "company", "company_name", "company name", "organization"),
    "domain": ("domain", "website", "url", "company_domain", "web"),
    "country": ("country", "country_code", "country code"),
}
BATCH = 2000
COMPLETED = "completed"
# An import untouched this long while importing was cut off (its process ended).
STALE = timedelta(seconds=60)

Row = tuple[int, Mapping[str, Any]]  # (line, the row's values by column)
_ROWS = cast(Table, ImportRow.__table__)


@dataclass
class Checked:
    """A body's rows checked: those to keep, and what was wrong with the others."""

    rows: int = 0
    accepted: list[dict[str, Any]] = default(default_factory=list)
    rejected: int = 0
    errors: list[dict[str, Any]] = default(default_factory=list)


def from_csv(text: str, columns: ImportColumns | None, max_rows: int) -> Checked:
    """A CSV body checked (in the child process): its header mapped, every row checked."""
    header, rows = csv_rows(text, max_rows)
    return check_all(rows, mapping(header, columns))


def from_json(body: dict[str, Any], max_rows: int) -> tuple[ImportRequest, Checked]:
    """A JSON body validated and checked (in the child process). Each row is read by its own key
    names unless `columns` maps them."""
    request = validate(ImportRequest, body)
    return request, from_rows(request.rows, request.columns, max_rows)


def from_rows(given: list[dict[str, Any]], columns: ImportColumns | None, max_rows: int) -> Checked:
    header, rows = json_rows(given)
    mapped = mapping(header, columns)
    if len(rows) > max_rows:
        raise _too_large(max_rows)
    return check_all(rows, mapped if columns is not None else None)


def check_all(rows: list[Row], columns: Mapping[str, str] | None) -> Checked:
    """Every row checked (`columns`: the import's mapping, or None to read each row by its own names);
    400 `invalid_import` for none."""
    if not rows:
        raise ApiError("invalid_import", param="rows", detail="no rows")
    checked_rows = Checked(rows=len(rows))
    for line, raw in rows:
        outcome = checked(line, raw, columns if columns is not None else row_columns(raw))
        if "code" not in outcome:
            checked_rows.accepted.append(outcome)
        else:
            checked_rows.rejected += 1
            if len(checked_rows.errors) < MAX_ERRORS:
                checked_rows.errors.append(outcome)
    return checked_rows


def csv_rows(text: str, max_rows: int = MAX_IMPORT_ROWS) -> tuple[list[str], list[Row]]:
    """The header and the rows of a CSV text, each with its line number (the header is line 1); 400
    `invalid_import` for text no CSV reader takes (NUL, a field past `csv.field_size_limit`)."""
    if "\x00" in text:
        raise ApiError("invalid_import", detail="the CSV holds a NUL character")
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    try:
        header = [h for h in (reader.fieldnames or []) if h is not None]
        if not header:
            raise ApiError("invalid_import", detail="the CSV has no header line")
        rows: list[Row] = []
        for row in reader:
            rows.append((reader.line_num, row))
            if len(rows) > max_rows:
                raise _too_large(max_rows)
    except csv.Error as exc:
        raise ApiError("invalid_import", detail=f"line {reader.line_num}: {exc}"[:200]) from None
    return header, rows


def _too_large(max_rows: int) -> ApiError:
    return ApiError("import_too_large", detail=f"at most {max_rows:,} rows")


def json_rows(rows: list[dict[str, Any]]) -> tuple[list[str], list[Row]]:
    """The keys the rows use, and the rows numbered from 1; 400 `invalid_import` past
    `MAX_JSON_KEYS` keys in all (a row is a company's few fields, not a document)."""
    header: dict[str, None] = {}
    for row in rows:
        header.update(dict.fromkeys(row))
        if len(header) > MAX_JSON_KEYS:
            raise ApiError("invalid_import", param="rows", detail=f"rows use at most {MAX_JSON_KEYS} keys")
    return list(header), list(enumerate(rows, start=1))


def mapping(header: Iterable[str], columns: ImportColumns | None = None) -> dict[str, str]:
    """Field -> the column holding it; 400 `invalid_import` when a named column is missing or no
    column holds a name or a domain."""
    present = {h.strip().casefold(): h for h in header}
    found: dict[str, str] = {}
    for field, known in KNOWN_COLUMNS.items():
        wanted = getattr(columns, field, None) if columns is not None else None
        if wanted is not None:
            if wanted.strip().casefold() not in present:
                raise ApiError("invalid_import", param=f"columns.{field}", detail=f"no column {wanted!r}")
            found[field] = present[wanted.strip().casefold()]
        elif (column := next((present[k] for k in known if k in present), None)) is not None:
            found[field] = column
    if "name" not in found and "domain" not in found:
        raise ApiError("invalid_import", param="columns", detail="no column holds a name or a domain")
    return found


def row_columns(raw: Mapping[str, Any]) -> dict[str, str]:
    """A JSON row's own columns: each field under the first of its known names the row uses (any case),
    so rows that name a field differently (`domain` here, `website` there) are all read."""
    present = {str(key).strip().casefold(): key for key in raw}
    found: dict[str, str] = {}
    for field, known in KNOWN_COLUMNS.items():
        name = next((name for name in known if name in present), None)
        if name is not None:
            found[field] = present[name]
    return found


def checked(line: int, raw: Mapping[str, Any], columns: Mapping[str, str]) -> dict[str, Any]:
    """The row to keep (`{line, name, domain, country}`), or the error `{line, field, code}` of the
    first bad field (`code` present)."""
    values = {field: _text(raw.get(column)) for field, column in columns.items()}
    name, domain, country = values.get("name"), values.get("domain"), values.get("country")
    if not name and not domain:
        return {"line": line, "field": "name", "code": "name_or_domain_required"}
    if name and len(name) > MAX_NAME:
        return {"line": line, "field": "name", "code": "name_too_long"}
    if domain:
        try:
            domain = normalise_domain(domain)
        except ValueError:
            return {"line": line, "field": "domain", "code": "invalid_domain"}
    if country:
        if len(country) != 2 or not country.isascii() or not country.isalpha():
            return {"line": line, "field": "country", "code": "invalid_country"}
        country = country.upper()
    return {"line": line, "name": name, "domain": domain or None, "country": country or None}


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


async def create(
    maker: async_sessionmaker[AsyncSession],
    caller: Caller,
    *,
    title: str | None,
    source_format: str,
    rows: Checked,
) -> ImportOut:
    """The import of checked rows, written a batch at a time; 409 `import_limit_exceeded` past the
    account's imports."""
    record = await _begin(maker, caller.user_id, title=title, source_format=source_format, rows=rows)

    async def write(session: AsyncSession, batch: Sequence[dict[str, Any]]) -> None:
        await _touch(session, record.id)
        await insert_rows(session, _ROWS, [{**row, "import_id": record.id} for row in batch])

    try:
        await write_in_batches(maker, rows.accepted, write, size=BATCH)
        async with transaction(maker) as session:
            await _touch(session, record.id, status=COMPLETED)
    except BaseException:
        await _give_up(maker, record.id)
        raise
    record.status = COMPLETED
    return view(record)


async def _begin(
    maker: async_sessionmaker[AsyncSession],
    user_id: str,
    *,
    title: str | None,
    source_format: str,
    rows: Checked,
) -> Import:
    """The import's record, `importing`, under the account's row lock: two imports at once count one
    after the other, never both under. The account's imports cut off are given up here."""
    now = utcnow()
    async with transaction(maker) as session:
        await lock_account_counts(session, user_id)
        await session.execute(
            update(Import)
            .where(Import.user_id == user_id, Import.status == "importing", Import.touched_at <= now - STALE)
            .values(status="failed")
        )
        given_up = list(
            await session.scalars(
                select(Import.id).where(Import.user_id == user_id, Import.status == "failed")
            )
        )
        held = await session.scalar(
            select(Import.id)
            .where(Import.user_id == user_id, Import.status != "failed")
            .offset(MAX_IMPORTS_PER_ACCOUNT - 1)
            .limit(1)
        )
        if held is not None:
            raise ApiError("import_limit_exceeded")
        record = Import(
            id=new_id("imp"),
            user_id=user_id,
            title=title,
            source_format=source_format,
            status="importing",
            rows=rows.rows,
            accepted=len(rows.accepted),
            rejected=rows.rejected,
            errors=rows.errors,
            created_at=now,
            touched_at=now,
        )
        session.add(record)
    for import_id in given_up:
        await _delete(maker, import_id)
    return record


async def _touch(session: AsyncSession, import_id: str, *, status: str = "importing") -> None:
    """The import marked alive (or completed) in the batch's transaction; 503 when it was given up
    meanwhile (untouched past `STALE`), so that nothing more of it is written."""
    moved = await session.execute(
        update(Import)
        .where(Import.id == import_id, Import.status == "importing")
        .values(status=status, touched_at=utcnow())
    )
    if moved.rowcount != 1:  # type: ignore[attr-defined]
        raise ApiError("task_unavailable", detail="the import was interrupted; send it again")


async def _give_up(maker: async_sessionmaker[AsyncSession], import_id: str) -> None:
    """A failed import marked `failed` (read by nothing), then deleted; when the database is what
    failed, the account's next import finishes this."""
    try:
        async with transaction(maker) as session:
            await session.execute(update(Import).where(Import.id == import_id).values(status="failed"))
        await _delete(maker, import_id)
    except Exception as exc:  # the import's own failure is what its caller reports
        log.warning("a failed import is left to the next one: %s", type(exc).__name__)


async def _delete(maker: async_sessionmaker[AsyncSession], import_id: str) -> None:
    """An import's rows a batch at a time, then the import."""

    async def delete_batch(session: AsyncSession) -> int:
        lines = select(ImportRow.line).where(ImportRow.import_id == import_id).limit(BATCH)
        result = await session.execute(
            sa.delete(ImportRow).where(ImportRow.import_id == import_id, ImportRow.line.in_(lines))
        )
        return int(result.rowcount)  # type: ignore[attr-defined]

    await delete_in_batches(maker, delete_batch, at_most=MAX_IMPORT_ROWS // BATCH + 2)
    async with transaction(maker) as session:
        await session.execute(sa.delete(Import).where(Import.id == import_id))


def view(record: Import) -> ImportOut:
    return {
        "id": record.id,
        "title": record.title,
        "format": record.source_format,
        "status": record.status,
        "rows": record.rows,
        "accepted": record.accepted,
        "rejected": record.rejected,
        "errors": [{"line": e["line"], "field": e["field"], "code": e["code"]} for e in record.errors],
        "created_at": iso(record.created_at),
    }


async def get_owned(
    session: AsyncSession,
    caller: Caller,
    import_id: str,
    *,
    code: str = "import_not_found",
    param: str = "import_id",
) -> Import:
    """The caller's import, or 404 `code` (also for another account's)."""
    record = await session.scalar(
        select(Import).where(
            Import.id == import_id[:64], Import.user_id == caller.user_id, Import.status == COMPLETED
        )
    )
    if record is None:
        raise ApiError(code, param=param)
    return record


async def rows_from(session: AsyncSession, import_id: str, *, offset: int, limit: int) -> list[ImportRow]:
    """`limit` accepted rows of an import in line order, after the first `offset` (none once deleted)."""
    statement = (
        select(ImportRow)
        .where(ImportRow.import_id == import_id)
        .order_by(ImportRow.line)
        .offset(offset)
        .limit(limit)
    )
    return list((await session.execute(statement)).scalars())


async def row_count(session: AsyncSession, import_id: str) -> int:
    return int(await session.scalar(select(func.count()).where(ImportRow.import_id == import_id)) or 0)


async def list_imports(
    session: AsyncSession, codec: CursorCodec, caller: Caller, *, limit: int, cursor: str | None
) -> tuple[list[ImportOut], str | None]:
    """Newest first; `next_cursor` resumes after the last one shown."""
    statement = select(Import).where(Import.user_id == caller.user_id, Import.status == COMPLETED)
    found, next_cursor = await newest_first(
        session, codec, statement, Import.id, limit=limit, cursor=cursor, bound_to="imports"
    )
    return [view(r) for r in found], next_cursor


async def delete(maker: async_sessionmaker[AsyncSession], caller: Caller, import_id: str) -> None:
    """The import and its rows; lists that exclude it leave out nothing of it from then on. It is
    marked `failed` first (read by nothing from that commit on), then deleted a batch at a time."""
    async with transaction(maker) as session:
        (await get_owned(session, caller, import_id)).status = "failed"
    await _delete(maker, import_id)
