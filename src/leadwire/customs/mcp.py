"""MCP tools of the customs capability: the seven operations as jobs, with the REST rules (their
argument schemas come from the same request models) and the same allowances and error codes."""

from __future__ import annotations

from typing import Annotated, Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.customs import service
from leadwire.customs.schemas import CandidatesRequest, CompanySearchRequest, SectionRequest
from leadwire.platform.http import ToolKit, field_schema, given
from leadwire.platform.jobs import NewJob, PublicJob
from leadwire.platform.validation import RequestModel

CompanyName = Annotated[Any, field_schema(SectionRequest, "company_name")]
Role = Annotated[Any, field_schema(SectionRequest, "company_role")]
Catalog = Annotated[Any, field_schema(SectionRequest, "catalog")]
StartDate = Annotated[Any, field_schema(SectionRequest, "start_date")]
EndDate = Annotated[Any, field_schema(SectionRequest, "end_date")]
Page = Annotated[Any, field_schema(SectionRequest, "page")]
SectionPageSize = Annotated[Any, field_schema(SectionRequest, "page_size")]
PeriodUnit = Annotated[Any, field_schema(SectionRequest, "period_unit")]
Filters = Annotated[Any, field_schema(SectionRequest, "filters")]
CompareCatalogs = Annotated[Any, field_schema(CandidatesRequest, "compare_catalogs")]
CountryCodes = Annotated[Any, field_schema(CandidatesRequest, "country_codes")]
PageSize = Annotated[Any, field_schema(CandidatesRequest, "page_size")]
HsCode = Annotated[Any, field_schema(CompanySearchRequest, "hs_code")]
Description = Annotated[Any, field_schema(CompanySearchRequest, "product_description")]
Origin = Annotated[Any, field_schema(CompanySearchRequest, "origin_country_code")]
Destination = Annotated[Any, field_schema(CompanySearchRequest, "destination_country_code")]
SortBy = Annotated[Any, field_schema(CompanySearchRequest, "sort_by")]
SortOrder = Annotated[Any, field_schema(CompanySearchRequest, "sort_order")]

_DATES = "start_date and end_date are YYYY-MM-DD, at most one year apart."
_SECTION_TOOLS = {
    "counterparties": "A company's trading partners in the customs records (3.6 credits per row).",
    "categories": "A company's product categories by HS code, English and Chinese (3.0 credits per row).",
    "trends": "A company's trade per period_unit (months, quarters, years); empty periods are zeros "
    "(3.6 credits per period with records; empty ones are free).",
    "countries": "A company's trade by partner country (3.0 credits per row).",
}


def register_tools(kit: ToolKit) -> None:
    async def start(
        action: str, model: type[RequestModel], arguments: dict[str, Any], wait: int
    ) -> PublicJob:
        caller = await kit.allowed("customs:write", "task")
        body = kit.validate(model, given(**arguments))
        runtime = kit.get_runtime()

        async def create(session: AsyncSession) -> NewJob:
            return await service.start(session, runtime, caller, action, body)

        return await kit.start_job(create, wait)

    @kit.server.tool(
        description="Names in the customs records that match a company name, with their record counts, "
        "so the exact name can be queried. Without company_role and catalog both common pairs are "
        f"checked. Not billed. {_DATES} Returns the job."
    )
    async def customs_company_candidates(
        company_name: CompanyName = None,
        start_date: StartDate = None,
        end_date: EndDate = None,
        company_role: Role = None,
        catalog: Catalog = None,
        compare_catalogs: CompareCatalogs = None,
        country_codes: CountryCodes = None,
        page: Page = None,
        page_size: PageSize = None,
        wait_seconds: int = 20,
    ) -> PublicJob:
        arguments = {
            "company_name": company_name,
            "start_date": start_date,
            "end_date": end_date,
            "company_role": company_role,
            "catalog": catalog,
            "compare_catalogs": compare_catalogs,
            "country_codes": country_codes,
            "page": page,
            "page_size": page_size,
        }
        return await start(service.CANDIDATES, CandidatesRequest, arguments, wait_seconds)

    @kit.server.tool(
        description="Importers (buyers) or exporters (suppliers) by product (hs_code, product_description) "
        "and country (origin_country_code, destination_country_code: ISO alpha-3); at least one filter. "
        f"3.6 credits per returned row. {_DATES} Returns the job."
    )
    async def customs_companies_search(
        company_role: Role = None,
        start_date: StartDate = None,
        end_date: EndDate = None,
        catalog: Catalog = None,
        hs_code: HsCode = None,
        product_description: Description = None,
        origin_country_code: Origin = None,
        destination_country_code: Destination = None,
        page: Page = None,
        page_size: PageSize = None,
        sort_by: SortBy = None,
        sort_order: SortOrder = None,
        wait_seconds: int = 20,
    ) -> PublicJob:
        arguments = {
            "company_role": company_role,
            "start_date": start_date,
            "end_date": end_date,
            "catalog": catalog,
            "hs_code": hs_code,
            "product_description": product_description,
            "origin_country_code": origin_country_code,
            "destination_country_code": destination_country_code,
            "page": page,
            "page_size": page_size,
            "sort_by": sort_by,
            "sort_order": sort_order,
        }
        return await start(service.COMPANIES_SEARCH, CompanySearchRequest, arguments, wait_seconds)

    def section_tool(action: str, name: str, description: str) -> None:
        async def section(
            company_name: CompanyName = None,
            company_role: Role = None,
            start_date: StartDate = None,
            end_date: EndDate = None,
            catalog: Catalog = None,
            page: Page = None,
            page_size: SectionPageSize = None,
            period_unit: PeriodUnit = None,
            filters: Filters = None,
            wait_seconds: int = 20,
        ) -> PublicJob:
            arguments = {
                "company_name": company_name,
                "company_role": company_role,
                "start_date": start_date,
                "end_date": end_date,
                "catalog": catalog,
                "page": page,
                "page_size": page_size,
                "period_unit": period_unit,
                "filters": filters,
            }
            return await start(action, SectionRequest, arguments, wait_seconds)

        kit.server.tool(name=name, description=f"{description} {_DATES} Returns the job.")(section)

    for section_name, description in _SECTION_TOOLS.items():
        section_tool(service.SECTION_ACTIONS[section_name], f"customs_{section_name}", description)  # type: ignore[index]
    section_tool(
        service.TRADE_REPORT,
        "customs_trade_report",
        "Counterparties, categories, trend and countries of a company at once; each section is complete "
        "or failed (customs_section_failed) and the job still succeeds.",
    )
