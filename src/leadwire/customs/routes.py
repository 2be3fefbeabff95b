"""HTTP: the seven customs creation endpoints (v2 only; spec section 4, Customs)."""

from __future__ import annotations

from fastapi import APIRouter

from leadwire.customs import service
from leadwire.customs.schemas import CandidatesRequest, CompanySearchRequest, SectionRequest
from leadwire.platform.auth import require
from leadwire.platform.body import RequestModel
from leadwire.platform.job_routes import add_job_route

router = APIRouter(prefix="/api/v2/customs", tags=["customs"])

# (path, body, action, summary); the prices are the defaults of spec section 8.
_ROUTES: tuple[tuple[str, type[RequestModel], str, str], ...] = (
    (
        "/company-candidates",
        CandidatesRequest,
        service.CANDIDATES,
        "Company-name candidates in the customs records (not billed)",
    ),
    (
        "/companies/search",
        CompanySearchRequest,
        service.COMPANIES_SEARCH,
        "Importers or exporters by product and country (3.6 credits per returned row)",
    ),
    (
        "/counterparties",
        SectionRequest,
        service.SECTION_ACTIONS["counterparties"],
        "A company's trading partners (3.6 credits per returned row)",
    ),
    (
        "/categories",
        SectionRequest,
        service.SECTION_ACTIONS["categories"],
        "A company's product categories by HS code (3.0 credits per returned row)",
    ),
    (
        "/trends",
        SectionRequest,
        service.SECTION_ACTIONS["trends"],
        "A company's trade per month, quarter or year (3.6 credits per period with records)",
    ),
    (
        "/countries",
        SectionRequest,
        service.SECTION_ACTIONS["countries"],
        "A company's trade by partner country (3.0 credits per returned row)",
    ),
    (
        "/trade-reports",
        SectionRequest,
        service.TRADE_REPORT,
        "All four sections at once; a failed section is marked, the others stand",
    ),
)

for _path, _body, _action, _summary in _ROUTES:
    add_job_route(
        router,
        _path,
        name=_action.replace(".", "_"),
        body=_body,
        permission=require("customs:write", "task"),
        start=service.starter(_action),
        error_codes=("membership_tier_insufficient",),
        summary=_summary,
    )
