"""HTTP: the seven customs creation endpoints (v2 only; spec section 4, Customs)."""

from __future__ import annotations

from fastapi import APIRouter

from leadwire.customs import service
from leadwire.customs.schemas import CandidatesRequest, CompanySearchRequest, SectionRequest
from leadwire.platform.auth import require
from leadwire.platform.job_routes import add_job_route

router = APIRouter(prefix="/api/v2/customs", tags=["customs"])
_WRITER = require("customs:write", "task")
_ERRORS = ("membership_tier_insufficient",)


add_job_route(
    router,
    "/company-candidates",
    name="customs_company_candidates",
    body=CandidatesRequest,
    permission=_WRITER,
    start=service.starter(service.CANDIDATES),
    error_codes=_ERRORS,
    summary="Company-name candidates in the customs records (not billed)",
)
add_job_route(
    router,
    "/companies/search",
    name="customs_companies_search",
    body=CompanySearchRequest,
    permission=_WRITER,
    start=service.starter(service.COMPANIES_SEARCH),
    error_codes=_ERRORS,
    summary="Importers or exporters by product and country (3.6 credits per returned row)",
)
_SECTION_SUMMARIES = {
    "counterparties": "A company's trading partners (3.6 credits per returned row)",
    "categories": "A company's product categories by HS code (3.0 credits per returned row)",
    "trends": "A company's trade per month, quarter or year (3.6 credits per returned row)",
    "countries": "A company's trade by partner country (3.0 credits per returned row)",
}
for _section in service.SECTIONS:
    add_job_route(
        router,
        f"/{_section}",
        name=f"customs_{_section}",
        body=SectionRequest,
        permission=_WRITER,
        start=service.starter(service.SECTION_ACTIONS[_section]),
        error_codes=_ERRORS,
        summary=_SECTION_SUMMARIES[_section],
    )
add_job_route(
    router,
    "/trade-reports",
    name="customs_trade_report",
    body=SectionRequest,
    permission=_WRITER,
    start=service.starter(service.TRADE_REPORT),
    error_codes=_ERRORS,
    summary="All four sections at once; a failed section is marked, the others stand",
)
