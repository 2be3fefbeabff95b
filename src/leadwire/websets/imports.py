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
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.domains import normalise_domain
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.pagination import CursorCodec, newest_first
from leadwire.platform.time import iso, utcnow
from leadwire.platform.users import User
from leadwire.websets.models import Import, ImportRow
from leadwire.websets.schemas import MAX_IMPORT_ROWS, ImportColumns, ImportOut

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
_BATCH = 2000

Row = tuple[int, Mapping[str, Any]]  # (line, the row's values by column)


def csv_rows(text: str) -> tuple[list[str], list[Row]]:
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
            if len(rows) > MAX_IMPORT_ROWS:
                raise _too_large()
    except csv.Error as exc:
        raise ApiError("invalid_import", detail=f"line {reader.line_num}: {exc}"[:200]) from None
    return header, rows


def _too_large() -> ApiError:
    return ApiError("import_too_large", detail=f"at most {MAX_IMPORT_ROWS:,} rows")


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
    session: AsyncSession,
    caller: Caller,
    *,
    title: str | None,
    source_format: str,
    rows: list[Row],
    columns: Mapping[str, str] | None,
) -> ImportOut:
    """The import with its accepted rows (`columns`: the import's mapping, or None to read each row by
    its own names), every row checked before the first statement so a write holds the database briefly;
    413 `import_too_large` past `MAX_IMPORT_ROWS` rows, 409 `import_limit_exceeded` past the account's
    imports."""
    if len(rows) > MAX_IMPORT_ROWS:
        raise _too_large()
    accepted: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    rejected = 0
    for line, raw in rows:
        outcome = checked(line, raw, columns if columns is not None else row_columns(raw))
        if "code" not in outcome:
            accepted.append(outcome)
        else:
            rejected += 1
            if len(errors) < MAX_ERRORS:
                errors.append(outcome)
    # The account's row locked first: two imports at once count one after the other, never both under.
    await session.execute(select(User.id).where(User.id == caller.user_id).with_for_update())
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
        rows=len(rows),
        accepted=len(accepted),
        rejected=rejected,
        errors=errors,
        created_at=utcnow(),
    )
    session.add(record)
    await session.flush()
    for start in range(0, len(accepted), _BATCH):
        batch = [{**row, "import_id": record.id} for row in accepted[start : start + _BATCH]]
        await session.execute(insert(ImportRow), batch)
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
        select(Import).where(Import.id == import_id[:64], Import.user_id == caller.user_id)
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
    statement = select(Import).where(Import.user_id == caller.user_id)
    found, next_cursor = await newest_first(
        session, codec, statement, Import.id, limit=limit, cursor=cursor, bound_to="imports"
    )
    return [view(r) for r in found], next_cursor


async def delete(session: AsyncSession, caller: Caller, import_id: str) -> None:
    """The import and its rows; lists that exclude it leave out nothing of it from then on."""
    await session.delete(await get_owned(session, caller, import_id))
    await session.flush()
