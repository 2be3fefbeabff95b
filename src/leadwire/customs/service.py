"""Customs rules: start customs jobs, and answer them from the trade store.

Each section asks the store one question and turns the groups into public rows (`views.py`); the
trade report asks all four and keeps the ones that answered (docs/api.md, Customs trade data: a
failed section is reported as `customs_section_failed`, the job still succeeds). Billing counts the rows
returned, by kind: the job's handler bills them (`jobs.py`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.customs import views
from leadwire.customs.schemas import CompanySearchRequest, SectionRequest
from leadwire.platform.callers import Caller
from leadwire.platform.jobs import JobFailure, NewJob, create_job
from leadwire.platform.runtime import Runtime
from leadwire.platform.validation import RequestModel
from leadwire.providers.trade import GroupPage, TradeFilters, TradeScope, TradeStore, TradeStoreError

log = logging.getLogger(__name__)

Section = Literal["counterparties", "categories", "trends", "countries"]
SECTIONS: tuple[Section, ...] = ("counterparties", "categories", "trends", "countries")
# The trade report names the trends section `trend` (docs/api.md, Customs trade data).
REPORT_KEYS: dict[Section, str] = {
    "counterparties": "counterparties",
    "categories": "categories",
    "trends": "trend",
    "countries": "countries",
}
SECTION_FAILED = "customs_section_failed"

CANDIDATES = "customs.company_candidates"
COMPANIES_SEARCH = "customs.companies_search"
TRADE_REPORT = "customs.trade_report"
SECTION_ACTIONS: dict[Section, str] = {section: f"customs.{section}" for section in SECTIONS}


async def start(
    session: AsyncSession, runtime: Runtime, caller: Caller, action: str, body: RequestModel
) -> NewJob:
    """Create the customs job for a validated request, in the request's transaction."""
    return await create_job(
        session,
        runtime.notifier,
        caller,
        action=action,
        payload=body.model_dump(mode="json"),
        draining=runtime.draining,
    )


Start = Callable[[AsyncSession, Runtime, Caller, RequestModel], Awaitable[NewJob]]


def starter(action: str) -> Start:
    """`start` bound to one action: what a creation route or tool calls with the validated body."""

    async def start_action(
        session: AsyncSession, runtime: Runtime, caller: Caller, body: RequestModel
    ) -> NewJob:
        return await start(session, runtime, caller, action, body)

    return start_action


def _date_range(body: SectionRequest | CompanySearchRequest) -> dict[str, str]:
    return {"start": body.start_date.isoformat(), "end": body.end_date.isoformat()}


def _page_data(items: list[dict[str, Any]], total: int, page: int, page_size: int) -> dict[str, Any]:
    return {"total": total, "page": page, "page_size": page_size, "returned_rows": len(items), "items": items}


async def search_companies(store: TradeStore, body: CompanySearchRequest) -> dict[str, Any]:
    scope = TradeScope(
        body.catalog,
        body.start_date,
        body.end_date,
        TradeFilters(
            body.hs_code, body.product_description, body.origin_country_code, body.destination_country_code
        ),
    )
    found = await store.companies(
        body.company_role,
        scope,
        sort_by=body.sort_by,
        descending=body.sort_order == "desc",
        page=body.page,
        page_size=body.page_size,
    )
    items = [views.company_row(group, found.amount_usd) for group in found.groups]
    return {
        "company_role": body.company_role,
        "catalog": body.catalog,
        "date_range": _date_range(body),
        "filters": body.filters(),
        "sort_by": body.sort_by,
        "sort_order": body.sort_order,
        "data": _page_data(items, found.total, body.page, body.page_size),
    }


def _scope(body: SectionRequest) -> TradeScope:
    f = body.filters
    return TradeScope(
        body.catalog,
        body.start_date,
        body.end_date,
        TradeFilters(f.hs_code, f.product_description, f.origin_country_code, f.destination_country_code),
    )


_GroupQuery = Callable[..., Awaitable[GroupPage]]
_RowOf = Callable[[Any, float], dict[str, Any]]


def _grouped_section(store: TradeStore, section: Section) -> tuple[_GroupQuery, _RowOf]:
    if section == "counterparties":
        return store.counterparties, views.counterparty_row
    if section == "categories":
        return store.categories, views.category_row
    return store.countries, views.country_row


async def section_data(store: TradeStore, section: Section, body: SectionRequest) -> dict[str, Any]:
    """`{total, page, page_size, returned_rows, items}` of one section; raises TradeStoreError."""
    if section == "trends":
        return await _trend_data(store, body)
    query, row_of = _grouped_section(store, section)
    found = await query(
        body.company_name, body.company_role, _scope(body), page=body.page, page_size=body.page_size
    )
    items = [row_of(group, found.amount_usd) for group in found.groups]
    return _page_data(items, found.total, body.page, body.page_size)


async def _trend_data(store: TradeStore, body: SectionRequest) -> dict[str, Any]:
    """Every period of the range, empty ones with zeros — unless the company has no record at all in
    it, which is an empty answer like any other section's (and costs nothing)."""
    groups = await store.periods(body.company_name, body.company_role, _scope(body), body.period_unit)
    if not groups:
        return _page_data([], 0, body.page, body.page_size)
    by_start = {group.key[0]: group for group in groups}
    total_usd = sum(group.amount_usd for group in groups)
    starts = views.period_starts(body.start_date, body.end_date, body.period_unit)
    first = (body.page - 1) * body.page_size
    items = [
        views.period_row(day, by_start.get(day), total_usd) for day in starts[first : first + body.page_size]
    ]
    return _page_data(items, len(starts), body.page, body.page_size)


def billable_rows(section: Section, data: dict[str, Any]) -> int:
    """Rows a section is charged for: every returned row, except a trend's empty periods (padding the
    calendar, not data)."""
    if section == "trends":
        return sum(1 for item in data["items"] if item["tradeCount"] > 0)
    return int(data["returned_rows"])


def _heading(body: SectionRequest) -> dict[str, Any]:
    return {
        "company_name": body.company_name,
        "company_role": body.company_role,
        "catalog": body.catalog,
        "date_range": _date_range(body),
    }


async def one_section(store: TradeStore, section: Section, body: SectionRequest) -> dict[str, Any]:
    extra = {"period_unit": body.period_unit} if section == "trends" else {}
    return {**_heading(body), "section": section, **extra, "data": await section_data(store, section, body)}


async def trade_report(store: TradeStore, body: SectionRequest) -> dict[str, Any]:
    """All four sections at once; one that fails is marked failed and the others stand."""
    outcomes = await asyncio.gather(
        *(section_data(store, section, body) for section in SECTIONS), return_exceptions=True
    )
    sections: dict[str, Any] = {}
    failures: list[BaseException] = []
    for section, outcome in zip(SECTIONS, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            if not isinstance(outcome, Exception):
                raise outcome  # cancellation and exits are not section failures
            log.warning("trade report section %s failed: %r", section, outcome)
            failures.append(outcome)
            sections[REPORT_KEYS[section]] = {"status": "failed", "error": {"code": SECTION_FAILED}}
        else:
            sections[REPORT_KEYS[section]] = {"status": "complete", "data": outcome}
    if len(failures) == len(SECTIONS):
        # Nothing to report: the job fails, with the store's own code and detail when it gave them.
        store_error = next((f for f in failures if isinstance(f, TradeStoreError)), None)
        if store_error is not None:
            raise JobFailure(store_error.code, store_error.detail)
        raise JobFailure(SECTION_FAILED)
    return {
        **_heading(body),
        "period_unit": body.period_unit,
        "status": "partial" if failures else "complete",
        "sections": sections,
    }


def report_rows(result: dict[str, Any]) -> dict[str, int]:
    """Billable rows per section kind (a failed section has none): the units the report bills."""
    returned: dict[str, int] = {}
    for section in SECTIONS:
        part = result["sections"][REPORT_KEYS[section]]
        returned[section] = billable_rows(section, part["data"]) if part["status"] == "complete" else 0
    return returned
