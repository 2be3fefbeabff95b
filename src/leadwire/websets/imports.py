"""Imports: a list of companies a user brings (CSV or JSON rows), checked line by line and kept for
prospect lists to leave out (`exclude: [{source: "import", id}]`).

Columns are found by name — `name` (or `company`, `company_name`), `domain` (or `website`, `url`),
`country` (or `country_code`) — unless `columns` maps them. A row needs a name or a domain; a domain is
normalised and a country is an ISO 3166 alpha-2 code. A bad row is rejected with its line, field and
code, and the rest are kept: the first `MAX_ERRORS` errors are listed, all are counted. The import is
written in the request's transaction, whole or not at all.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.domains import normalise_domain
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.pagination import CursorCodec, newest_first
from leadwire.platform.time import iso, utcnow
from leadwire.websets.models import Import, ImportRow
from leadwire.websets.schemas import MAX_IMPORT_ROWS, ImportColumns, ImportOut

MAX_ERRORS = 100
MAX_IMPORTS_PER_ACCOUNT = 200
MAX_NAME = 300
# The header names each field is found under when `columns` does not say (compared case-insensitively).
KNOWN_COLUMNS = {
    "name": ("name", "company", "company_name", "company name", "organization"),
    "domain": ("domain", "website", "url", "company_domain", "web"),
    "country": ("country", "country_code", "country code"),
}
_BATCH = 2000

Row = tuple[int, Mapping[str, Any]]  # (line, the row's values by column)


def csv_rows(text: str) -> tuple[list[str], Iterator[Row]]:
    """The header and the rows of a CSV text, each with its line number (the header is line 1)."""
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    header = [h for h in (reader.fieldnames or []) if h is not None]
    if not header:
        raise ApiError("invalid_import", detail="the CSV has no header line")
    return header, ((reader.line_num, row) for row in reader)


def json_rows(rows: list[dict[str, Any]]) -> tuple[list[str], Iterator[Row]]:
    header = list(dict.fromkeys(key for row in rows for key in row))
    return header, ((n, row) for n, row in enumerate(rows, start=1))


def mapping(header: Iterable[str], columns: ImportColumns | None) -> dict[str, str]:
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


def checked(line: int, raw: Mapping[str, Any], columns: Mapping[str, str]) -> ImportRow | dict[str, Any]:
    """The row to keep, or the error `{line, field, code}` of the first bad field."""
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
    return ImportRow(line=line, name=name, domain=domain or None, country=country or None)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


async def create(
    session: AsyncSession,
    caller: Caller,
    *,
    title: str | None,
    source_format: str,
    rows: Iterator[Row],
    columns: Mapping[str, str],
) -> ImportOut:
    """The import with its accepted rows: 409 `import_limit_exceeded` past the account's imports,
    413 `import_too_large` past `MAX_IMPORT_ROWS` rows."""
    held = await session.scalar(
        select(Import.id).where(Import.user_id == caller.user_id).offset(MAX_IMPORTS_PER_ACCOUNT - 1).limit(1)
    )
    if held is not None:
        raise ApiError("import_limit_exceeded")
    record = Import(
        id=new_id("imp"),
        user_id=caller.user_id,
        title=title,
        source_format=source_format,
        status="completed",
        rows=0,
        accepted=0,
        rejected=0,
        errors=[],
        created_at=utcnow(),
    )
    session.add(record)
    await session.flush()
    errors: list[dict[str, Any]] = []
    batch: list[ImportRow] = []
    for line, raw in rows:
        record.rows += 1
        if record.rows > MAX_IMPORT_ROWS:
            raise ApiError("import_too_large", detail=f"at most {MAX_IMPORT_ROWS:,} rows")
        outcome = checked(line, raw, columns)
        if isinstance(outcome, dict):
            record.rejected += 1
            if len(errors) < MAX_ERRORS:
                errors.append(outcome)
            continue
        record.accepted += 1
        outcome.import_id = record.id
        batch.append(outcome)
        if len(batch) >= _BATCH:
            session.add_all(batch)
            await session.flush()
            batch = []
    session.add_all(batch)
    record.errors = errors
    await session.flush()
    return view(record)


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


async def get_owned(session: AsyncSession, caller: Caller, import_id: str) -> Import:
    record = await session.scalar(
        select(Import).where(Import.id == import_id[:64], Import.user_id == caller.user_id)
    )
    if record is None:
        raise ApiError("import_not_found", param="import_id")
    return record


async def list_imports(
    session: AsyncSession, codec: CursorCodec, caller: Caller, *, limit: int, cursor: str | None
) -> tuple[list[ImportOut], str | None]:
    """Newest first; `next_cursor` resumes after the last one shown."""
    statement = select(Import).where(Import.user_id == caller.user_id)
    found, next_cursor = await newest_first(
        session, codec, statement, Import.id, limit=limit, cursor=cursor, bound_to="imports"
    )
    return [view(r) for r in found], next_cursor


async def delete(session: AsyncSession, caller: Caller, import_id: str) -> None:
    """The import and its rows; lists that exclude it leave out nothing of it from then on."""
    await session.delete(await get_owned(session, caller, import_id))
    await session.flush()
