"""Job handlers of the customs actions, and their prices (docs/api.md, Customs trade data).

A row returned costs 3.6 credits in companies/search, counterparties and trends and 3.0 in
categories and countries (a trend's empty periods are not charged); candidates are free. The
reservation at creation is the most a request
can return — `page_size` rows of each section it asks for — and the job is charged for the rows it
returned, all kinds together rounded up once; the rest of the reservation is released.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from leadwire.customs import candidates, service
from leadwire.customs.schemas import (
    CandidatesRequest,
    CandidatesResult,
    CategoriesResult,
    CompaniesSearchResult,
    CompanySearchRequest,
    CounterpartiesResult,
    CountriesResult,
    SectionRequest,
    TradeReportResult,
    TrendsResult,
)
from leadwire.customs.service import SECTIONS, Section
from leadwire.platform.billing import NOT_BILLABLE, per_kind
from leadwire.platform.jobs import ActionSpec, Handler, JobContext, JobFailure
from leadwire.providers.trade import TradeStore, TradeStoreError
from leadwire.providers.trade_terms import COMPANY_ROW_KIND, COMPANY_ROW_PRICE

PRICE_PER_ROW = {
    COMPANY_ROW_KIND: COMPANY_ROW_PRICE,  # also a trade-seeded list's candidate
    "counterparties": "3.6",
    "trends": "3.6",
    "categories": "3.0",
    "countries": "3.0",
}
TIMEOUT_SECONDS = 120.0
SECTION_RESULTS: dict[Section, type[Any]] = {
    "counterparties": CounterpartiesResult,
    "categories": CategoriesResult,
    "trends": TrendsResult,
    "countries": CountriesResult,
}


def _store(ctx: JobContext) -> TradeStore:
    store: TradeStore = ctx.adapter("trade")
    return store


def _answering(run: Callable[[JobContext, dict[str, Any]], Awaitable[dict[str, Any]]]) -> Handler:
    """A handler whose trade-store failure fails the job with the store's code."""

    async def handle(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
        await ctx.progress("querying", 10.0)
        try:
            return await run(ctx, payload)
        except TradeStoreError as exc:
            raise JobFailure(exc.code, exc.detail) from None

    return handle


@_answering
async def run_candidates(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    return await candidates.find_candidates(_store(ctx), CandidatesRequest.model_validate(payload))


@_answering
async def run_companies_search(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    result = await service.search_companies(_store(ctx), CompanySearchRequest.model_validate(payload))
    ctx.bill(result["data"]["returned_rows"], kind="companies")
    return result


def _section_handler(section: Section) -> Handler:
    @_answering
    async def run_section(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
        result = await service.one_section(_store(ctx), section, SectionRequest.model_validate(payload))
        ctx.bill(service.billable_rows(section, result["data"]), kind=section)
        return result

    return run_section


@_answering
async def run_trade_report(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    result = await service.trade_report(_store(ctx), SectionRequest.model_validate(payload))
    for section, returned in service.report_rows(result).items():
        ctx.bill(returned, kind=section)
    return result


def _page_rows(kinds: tuple[str, ...]) -> Callable[[dict[str, Any]], dict[str, float]]:
    return lambda payload: {kind: float(payload["page_size"]) for kind in kinds}


CANDIDATES_ACTION = ActionSpec(
    action=service.CANDIDATES,
    scopes="customs",
    handler=run_candidates,
    timeout_seconds=TIMEOUT_SECONDS,
    price=NOT_BILLABLE,
    result=CandidatesResult,
)
COMPANIES_SEARCH_ACTION = ActionSpec(
    action=service.COMPANIES_SEARCH,
    scopes="customs",
    handler=run_companies_search,
    timeout_seconds=TIMEOUT_SECONDS,
    max_units=_page_rows(("companies",)),
    price=per_kind(companies=PRICE_PER_ROW["companies"]),
    result=CompaniesSearchResult,
)
SECTION_ACTIONS = tuple(
    ActionSpec(
        action=service.SECTION_ACTIONS[section],
        scopes="customs",
        handler=_section_handler(section),
        timeout_seconds=TIMEOUT_SECONDS,
        max_units=_page_rows((section,)),
        price=per_kind(**{section: PRICE_PER_ROW[section]}),
        result=SECTION_RESULTS[section],
    )
    for section in SECTIONS
)
TRADE_REPORT_ACTION = ActionSpec(
    action=service.TRADE_REPORT,
    scopes="customs",
    handler=run_trade_report,
    timeout_seconds=TIMEOUT_SECONDS,
    max_units=_page_rows(SECTIONS),
    price=per_kind(**{section: PRICE_PER_ROW[section] for section in SECTIONS}),
    result=TradeReportResult,
)
ACTIONS = (CANDIDATES_ACTION, COMPANIES_SEARCH_ACTION, *SECTION_ACTIONS, TRADE_REPORT_ACTION)
