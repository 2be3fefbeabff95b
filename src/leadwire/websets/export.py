"""Exports: every item of a list, as CSV (one row per item, a column per criterion) or as JSON lines
(the items at `full` detail), read a page at a time so memory stays the same for any list size.

Each page is its own short read, in list order: an export never holds a transaction open while a slow
client reads, and an export of a list still discovering ends with the items released when its last
page was read.
"""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.websets import enrichments, service, states, views
from leadwire.websets.enrichment_schemas import CellOut
from leadwire.websets.models import Webset, WebsetEnrichment, WebsetItem
from leadwire.websets.schemas import MATCHES

# What an export reads of an item (`views.item` and `csv_row`).
EXPORTED = (
    WebsetItem.id,
    WebsetItem.position,
    WebsetItem.target_kind,
    WebsetItem.entity,
    WebsetItem.match_status,
    WebsetItem.score,
    WebsetItem.evaluations,
    WebsetItem.created_at,
    WebsetItem.updated_at,
)
FORMATS = {"csv": "text/csv; charset=utf-8", "jsonl": "application/x-ndjson"}
PAGE_ROWS = 500
# The entity's facts a CSV carries, by kind; lists (technologies, products) stay in JSON lines.
COMPANY_COLUMNS = (
    "name",
    "domain",
    "website",
    "industry",
    "country",
    "city",
    "employees",
    "founded",
    "linkedin_url",
    "description",
)
PERSON_COLUMNS = (
    "name",
    "title",
    "company",
    "company_domain",
    "email",
    "location",
    "linkedin_url",
    "industry",
)
# Line breaks JSON leaves raw in strings but splitlines-style readers (httpx's `iter_lines`, Python's
# `str.splitlines`) split on: escaped, so a JSON line is always one line.
LINE_BREAKS = ((b"\xc2\x85", b"\\u0085"), (b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))
# A cell a spreadsheet would run as a formula (OWASP's CSV injection): written with a leading quote.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Export:
    webset_id: str
    target_kind: str
    criteria: tuple[dict[str, Any], ...]
    match: str
    format: str
    # The list's enrichments when the export began: a column each (detached rows, read-only).
    enrichments: tuple[WebsetEnrichment, ...] = ()

    @property
    def media_type(self) -> str:
        return FORMATS[self.format]

    @property
    def filename(self) -> str:
        return f"{self.webset_id}-{self.match}.{self.format}"


async def prepare(
    session: AsyncSession, caller: Caller, webset_id: str, *, match: str, format: str
) -> Export:
    """What to export, checked before the first byte: 404 `webset_not_found`, 400 `invalid_request`
    naming `format` or `match`."""
    if format not in FORMATS:
        raise ApiError("invalid_request", param="format", detail="csv or jsonl")
    if match not in MATCHES:
        raise ApiError("invalid_request", param="match", detail=", ".join(MATCHES))
    webset = await service.get_readable(session, caller, webset_id)
    # Copies outside the session: the export outlives the request's transaction.
    columns = tuple(
        WebsetEnrichment(id=e.id, description=e.description, format=e.format, status=e.status)
        for e in await enrichments.of_webset(session, webset.id)
    )
    return Export(webset.id, webset.target_kind, tuple(webset.criteria), match, format, columns)


async def chunks(reader: async_sessionmaker[AsyncSession], export: Export) -> AsyncIterator[bytes]:
    """The file, a page of rows per chunk (the CSV's header first)."""
    if export.format == "csv":
        yield _csv([header(export)])
    async for page in _pages(reader, export, None):
        yield _render(export, page)


async def text(
    reader: async_sessionmaker[AsyncSession], export: Export, *, limit: int
) -> tuple[str, int, bool]:
    """The file of the first `limit` items as text, how many items it holds, and whether the list has
    more (the export for a face that cannot stream, MCP)."""
    pages = [page async for page in _pages(reader, export, limit + 1)]
    rows = [row for page in pages for row in page.rows]
    cells = {item_id: found for page in pages for item_id, found in page.cells.items()}
    finished = pages[-1].finished if pages else True
    body = (_csv([header(export)]) if export.format == "csv" else b"") + _render(
        export, Page(finished, rows[:limit], cells)
    )
    return body.decode(), min(len(rows), limit), len(rows) > limit


@dataclass(frozen=True)
class Page:
    finished: bool  # the list's run is over: its items are no longer provisional
    rows: list[Any]
    cells: dict[str, list[CellOut]]  # each row's enrichment cells, in the export's column order


def _render(export: Export, page: Page) -> bytes:
    if export.format == "csv":
        return _csv(csv_row(export, row, page.cells.get(row.id, [])) for row in page.rows)
    by_id = {c["id"]: c for c in export.criteria}
    items = []
    for row in page.rows:
        item = views.item(row, detail="full", finished=page.finished, criteria_by_id=by_id)
        item["enrichments"] = page.cells.get(row.id, [])
        items.append(item)
    return b"".join(json_line(item) for item in items)


async def _pages(
    reader: async_sessionmaker[AsyncSession], export: Export, limit: int | None
) -> AsyncIterator[Page]:
    after, left = 0, limit
    while left is None or left > 0:
        size = PAGE_ROWS if left is None else min(PAGE_ROWS, left)
        async with reader() as session:
            page = await _page(session, export, after, size)
        if page.rows:
            yield page
        if len(page.rows) < size:
            return
        after = page.rows[-1].position
        left = None if left is None else left - len(page.rows)


def _selected(export: Export) -> tuple[Any, ...]:
    return (
        WebsetItem.webset_id == export.webset_id,
        WebsetItem.match_status.in_(service.MATCH_FILTERS[export.match]),
        WebsetItem.released.is_(True),
    )


async def _page(session: AsyncSession, export: Export, after: int, size: int) -> Page:
    """Rows of the columns an item's views read, not ORM objects: a third of the time per item."""
    status = await session.scalar(select(Webset.status).where(Webset.id == export.webset_id))
    statement = (
        select(*EXPORTED)
        .where(*_selected(export), WebsetItem.position > after)
        .order_by(WebsetItem.position)
        .limit(size)
    )
    rows = list(await session.execute(statement))
    cells = await enrichments.cells_for(session, export.enrichments, [row.id for row in rows])
    return Page(status in states.FINISHED, rows, cells)


def entity_columns(export: Export) -> tuple[str, ...]:
    return PERSON_COLUMNS if export.target_kind == "person" else COMPANY_COLUMNS


def header(export: Export) -> list[str]:
    criteria = [f"criterion: {c['description']}" for c in export.criteria]
    columns = [f"enrichment: {e.description}" for e in export.enrichments]
    return ["id", *entity_columns(export), "match_status", "score", *criteria, *columns]


def csv_row(export: Export, row: Any, cells: list[CellOut]) -> list[Any]:
    """The item's cells: its facts, its match, each criterion's verdict (empty when not judged), and each
    enrichment's values (joined by `; `; empty when not found)."""
    verdicts = {e["criterion_id"]: views.verdict_of(e) for e in row.evaluations}
    facts = [row.entity.get(column) for column in entity_columns(export)]
    judged = [verdicts.get(c["id"]) for c in export.criteria]
    values = ["; ".join(cell["result"]) if cell["result"] else None for cell in cells]
    return [row.id, *facts, row.match_status, row.score, *judged, *values]


def json_line(value: Any) -> bytes:
    line = orjson.dumps(value)
    for raw, escaped in LINE_BREAKS:
        line = line.replace(raw, escaped)
    return line + b"\n"


def _csv(rows: Iterable[list[Any]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([_cell(value) for value in row] for row in rows)
    return out.getvalue().encode()


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
