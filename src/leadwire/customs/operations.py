"""What the customs capability lets a caller do: one permission and seven creations (candidates,
company search, four company sections and the trade report), each declared once for REST, MCP and
(through OpenAPI) the SDK and the CLI. Prices are quoted from the defaults in `jobs.PRICE_PER_ROW`; the
operator's `LEADWIRE_PRICES` may change them (docs/api.md, Credits and per-row billing)."""

from __future__ import annotations

from typing import Any

from leadwire.customs import service
from leadwire.customs.jobs import PRICE_PER_ROW
from leadwire.customs.schemas import CandidatesRequest, CompanySearchRequest, SectionRequest
from leadwire.customs.service import Section
from leadwire.platform.callers import Permission
from leadwire.platform.jobs import Operation, job_operation
from leadwire.platform.validation import RequestModel

WRITE = Permission("customs:write", "task")
_DATES = "Dates are YYYY-MM-DD at most one year apart; countries ISO 3166-1 alpha-3."
_TOOL_DATES = "start_date and end_date are YYYY-MM-DD, at most one year apart."


def _per_row(kind: str, unit: str = "returned row") -> str:
    return f"{PRICE_PER_ROW[kind]} credits per {unit} (default price of `{kind}`)"


def _customs(
    action: str, body: type[RequestModel], summary: str, what: str, tool: str
) -> Operation[Any, Any]:
    return job_operation(
        name=action.replace(".", "_"),
        body=body,
        permission=WRITE,
        start=service.starter(action),
        error_codes=("membership_tier_insufficient",),
        summary=summary,
        description=(
            f"Creates a `{action}` job. {what} {_DATES} Needs `customs:write` and a paid plan. 202 with "
            "the job, or 200 with the finished job within `Prefer: wait=N`; the result is read at "
            "`GET /api/v2/jobs/{id}`."
        ),
        tool_description=f"{tool} {_TOOL_DATES} Returns the job.",
    )


def _section(section: Section, summary: str, what: str, tool: str, unit: str = "returned row") -> Any:
    billing = f"Billing: {_per_row(section, unit)}, `page_size` rows reserved at creation."
    return _customs(
        service.SECTION_ACTIONS[section],
        SectionRequest,
        f"{summary} ({_per_row(section, unit)})",
        f"{what} {billing}",
        f"{tool} ({_per_row(section, unit)}).",
    )


CANDIDATES = _customs(
    service.CANDIDATES,
    CandidatesRequest,
    "Company-name candidates in the customs records (not billed)",
    "Fuzzy-matches `company_name` against the names declared in the records of the checked "
    "(`company_role`, `catalog`) pairs — both common pairs when neither is given — and returns each "
    "candidate with its record counts per catalog. `identity_status: unverified` means the exact name is "
    "queryable, not that it is a verified legal entity. Not billed (`not_billable`).",
    "Names in the customs records that match a company name, with their record counts, so the exact "
    "name can be queried. Without company_role and catalog both common pairs are checked. Not billed.",
)
COMPANIES_SEARCH = _customs(
    service.COMPANIES_SEARCH,
    CompanySearchRequest,
    f"Importers or exporters by product and country ({_per_row('companies')})",
    "Ranks the companies of `company_role` by trade count, amount, quantity or weight, filtered by at "
    "least one of `hs_code`, `product_description`, `origin_country_code`, `destination_country_code`. "
    f"Rows in `result.data.items`. Billing: {_per_row('companies')}, `page_size` rows reserved at "
    "creation, the total rounded up once.",
    "Importers (buyers) or exporters (suppliers) by product (hs_code, product_description) and country "
    "(origin_country_code, destination_country_code: ISO alpha-3); at least one filter. "
    f"{_per_row('companies')}.",
)
COUNTERPARTIES = _section(
    "counterparties",
    "A company's trading partners",
    "The partners of the exact `company_name` on the other side of its trade, with counts, amounts and "
    "shares.",
    "A company's trading partners in the customs records",
)
CATEGORIES = _section(
    "categories",
    "A company's product categories by HS code",
    "The HS codes the company trades, with English and Chinese descriptions, counts, amounts and shares.",
    "A company's product categories by HS code, English and Chinese",
)
TRENDS = _section(
    "trends",
    "A company's trade per month, quarter or year",
    "Every period (`period_unit`) of the date range, periods without records as zeros; empty periods "
    "are free.",
    "A company's trade per period_unit (months, quarters, years); empty periods are zeros and free",
    unit="period with records",
)
COUNTRIES = _section(
    "countries",
    "A company's trade by partner country",
    "The company's trade grouped by partner country (ISO alpha-3), with counts, amounts and shares.",
    "A company's trade by partner country",
)
_SECTION_PRICES = " / ".join(
    _per_row(section, "period with records" if section == "trends" else "row") for section in service.SECTIONS
)
TRADE_REPORT = _customs(
    service.TRADE_REPORT,
    SectionRequest,
    "All four sections at once; a failed section is marked, the others stand",
    "Counterparties, categories, trend and countries of one company in one job. A section the store "
    "cannot answer is `{status: failed, error: {code: customs_section_failed}}` and the report "
    "`partial` while the job still succeeds: check each section's status. Billing: each section's rows "
    f"at its own price ({_SECTION_PRICES}), `page_size` rows of each reserved at creation, the total "
    "rounded up once.",
    "Counterparties, categories, trend and countries of a company at once; each section is complete or "
    "failed (customs_section_failed) and the job still succeeds.",
)
# In the order of their paths (`routes.py`) and tools.
OPERATIONS = (CANDIDATES, COMPANIES_SEARCH, COUNTERPARTIES, CATEGORIES, TRENDS, COUNTRIES, TRADE_REPORT)
