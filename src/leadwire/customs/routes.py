"""HTTP: the seven customs creation endpoints (v2 only; spec section 4, Customs)."""

from __future__ import annotations

from fastapi import APIRouter

from leadwire.customs import service
from leadwire.customs.schemas import CandidatesRequest, CompanySearchRequest, SectionRequest
from leadwire.platform.http import add_job_route, require
from leadwire.platform.validation import RequestModel

router = APIRouter(prefix="/api/v2/customs", tags=["customs"])

# (path, body, action, summary, what the job returns and bills); the prices are the defaults of spec
# section 8 (`LEADWIRE_PRICES` changes them).
_ROUTES: tuple[tuple[str, type[RequestModel], str, str, str], ...] = (
    (
        "/company-candidates",
        CandidatesRequest,
        service.CANDIDATES,
        "Company-name candidates in the customs records (not billed)",
        "Fuzzy-matches `company_name` against the names declared in the records of the checked "
        "(`company_role`, `catalog`) pairs — both common pairs when neither is given — and returns each "
        "candidate with its record counts per catalog. `identity_status: unverified` means the exact "
        "name is queryable, not that it is a verified legal entity. Not billed (`not_billable`).",
    ),
    (
        "/companies/search",
        CompanySearchRequest,
        service.COMPANIES_SEARCH,
        "Importers or exporters by product and country (3.6 credits per returned row)",
        "Ranks the companies of `company_role` by trade count, amount, quantity or weight, filtered by "
        "at least one of `hs_code`, `product_description`, `origin_country_code`, "
        "`destination_country_code`. Rows in `result.data.items`. Billing: 3.6 credits per returned "
        "row, `page_size` rows reserved at creation, the total rounded up once.",
    ),
    (
        "/counterparties",
        SectionRequest,
        service.SECTION_ACTIONS["counterparties"],
        "A company's trading partners (3.6 credits per returned row)",
        "The partners of the exact `company_name` on the other side of its trade, with counts, amounts "
        "and shares. Billing: 3.6 credits per returned row, `page_size` rows reserved at creation.",
    ),
    (
        "/categories",
        SectionRequest,
        service.SECTION_ACTIONS["categories"],
        "A company's product categories by HS code (3.0 credits per returned row)",
        "The HS codes the company trades, with English and Chinese descriptions, counts, amounts and "
        "shares. Billing: 3.0 credits per returned row, `page_size` rows reserved at creation.",
    ),
    (
        "/trends",
        SectionRequest,
        service.SECTION_ACTIONS["trends"],
        "A company's trade per month, quarter or year (3.6 credits per period with records)",
        "Every period (`period_unit`) of the date range, periods without records as zeros. Billing: "
        "3.6 credits per period with records (empty periods are free), `page_size` reserved.",
    ),
    (
        "/countries",
        SectionRequest,
        service.SECTION_ACTIONS["countries"],
        "A company's trade by partner country (3.0 credits per returned row)",
        "The company's trade grouped by partner country (ISO alpha-3), with counts, amounts and shares. "
        "Billing: 3.0 credits per returned row, `page_size` rows reserved at creation.",
    ),
    (
        "/trade-reports",
        SectionRequest,
        service.TRADE_REPORT,
        "All four sections at once; a failed section is marked, the others stand",
        "Counterparties, categories, trend and countries of one company in one job. A section the "
        "store cannot answer is `{status: failed, error: {code: customs_section_failed}}` and the "
        "report `partial` while the job still succeeds: check each section's status. Billing: each "
        "section's rows at its own price (3.6 / 3.0 / 3.6 per period with records / 3.0), "
        "`page_size` rows of each reserved at creation, the total rounded up once.",
    ),
)

for _path, _body, _action, _summary, _what in _ROUTES:
    add_job_route(
        router,
        _path,
        name=_action.replace(".", "_"),
        body=_body,
        permission=require("customs:write", "task"),
        start=service.starter(_action),
        error_codes=("membership_tier_insufficient",),
        summary=_summary,
        description=(
            f"Creates a `{_action}` job. {_what} Dates are YYYY-MM-DD at most one year apart; "
            "countries ISO 3166-1 alpha-3. Needs `customs:write` and a paid plan. 202 with the job, "
            "or 200 with the finished job within `Prefer: wait=N`; the result is read at "
            "`GET /api/v2/jobs/{id}`."
        ),
    )
