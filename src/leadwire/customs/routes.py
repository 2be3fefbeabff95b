"""HTTP: the seven customs creation endpoints (v2 only; docs/api.md, Customs trade data)."""

from __future__ import annotations

from fastapi import APIRouter

from leadwire.customs import operations
from leadwire.platform.http import add_creation_route

router = APIRouter(prefix="/api/v2/customs", tags=["customs"])

for _path, _operation in (
    ("/company-candidates", operations.CANDIDATES),
    ("/companies/search", operations.COMPANIES_SEARCH),
    ("/counterparties", operations.COUNTERPARTIES),
    ("/categories", operations.CATEGORIES),
    ("/trends", operations.TRENDS),
    ("/countries", operations.COUNTRIES),
    ("/trade-reports", operations.TRADE_REPORT),
):
    add_creation_route(router, _path, _operation)
