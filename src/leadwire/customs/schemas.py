"""Request bodies of the seven customs endpoints (docs/api.md, Customs trade data; Limits), and the
results of their jobs; the fields' types and rules are in `fields.py`.

The guide gives customs no codes of its own, so every broken rule is 400 `invalid_request` with `param`
naming the field and a `detail` saying what is expected (docs/api.md, Errors). Field rules
raise `PydanticCustomError("value_error", ...)`: its type is not a public code, so `platform.validation`
maps it to `invalid_request` and keeps the message, without pydantic's "Value error," prefix, as the
detail.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal, NotRequired

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    StrictBool,
    StrictStr,
    ValidationInfo,
    field_validator,
    model_validator,
)
from typing_extensions import TypedDict

from leadwire.customs.fields import (
    FILTER_FIELDS,
    MAX_PAGE_SIZE,
    ClampedPageSize,
    CompanyName,
    DefaultCatalog,
    Description,
    NullAccepted,
    Page,
    PageSize,
)
from leadwire.platform.validation import RequestModel, with_examples
from leadwire.providers.trade import Catalog, PeriodUnit, Role
from leadwire.providers.trade import CompanySort as SortBy
from leadwire.providers.trade_terms import (
    COMMON_CATALOG,
    COMMON_ROLE,
    OTHER_CATALOG,
    Alpha3,
    HsCode,
    IsoDate,
    alpha3_list,
    invalid,
    latest_end_date,
)

SortOrder = Literal["asc", "desc"]


class _CustomsRequest(RequestModel):
    """The date rule every customs body shares."""

    @model_validator(mode="before")
    @classmethod
    def _absent_when_null(cls, data: Any) -> Any:
        # `"catalog": null` means "not given": the default by role applies, as when it is left out.
        if isinstance(data, dict) and "catalog" in data and data["catalog"] is None:
            return {k: v for k, v in data.items() if k != "catalog"}
        return data

    @field_validator("end_date", check_fields=False)
    @classmethod
    def _span(cls, end: date, info: ValidationInfo) -> date:
        start = info.data.get("start_date")
        if start is None:  # start_date is broken and reported first
            return end
        if end < start:
            raise invalid("end_date must not be earlier than start_date")
        if end > latest_end_date(start):
            limit = latest_end_date(start).isoformat()
            raise invalid(f"the span is at most one year: end_date {limit} at the latest")
        return end


class CandidatesRequest(_CustomsRequest):
    """`POST /api/v2/customs/company-candidates`."""

    model_config = with_examples(
        {"company_name": "Acme Logistics", "start_date": "2025-01-01", "end_date": "2025-12-31"},
        {
            "company_name": "Acme Logistics",
            "company_role": "importer",
            "catalog": "imports",
            "compare_catalogs": True,
            "start_date": "2025-01-01",
            "end_date": "2025-12-31",
            "country_codes": "DEU,FRA",
        },
    )

    company_name: CompanyName
    company_role: Role | None = None
    catalog: Catalog | None = None
    compare_catalogs: StrictBool | None = Field(
        default=None, description="true checks both catalogs, false only the given one"
    )
    start_date: IsoDate
    end_date: IsoDate
    page: Page = 1
    page_size: PageSize = MAX_PAGE_SIZE
    country_codes: Annotated[StrictStr, AfterValidator(alpha3_list)] | None = Field(
        default=None, description="comma-separated ISO 3166-1 alpha-3 codes, e.g. DEU,FRA"
    )

    @model_validator(mode="after")
    def _pair(self) -> CandidatesRequest:
        # One side given: the other is its common pairing (spec); neither: both common pairs, see pairs().
        if self.company_role is not None and self.catalog is None:
            self.catalog = COMMON_CATALOG[self.company_role]
        elif self.catalog is not None and self.company_role is None:
            self.company_role = COMMON_ROLE[self.catalog]
        return self

    @property
    def country_list(self) -> list[str]:
        return self.country_codes.split(",") if self.country_codes else []

    def pairs(self) -> list[tuple[Role, Catalog]]:
        """The (company_role, catalog) pairs to look the name up in, the given or filled pair first.

        Neither side given: both common pairs, which already cover both catalogs. A side given: that pair,
        and with `compare_catalogs` true the same role in the other catalog too (a cross pair).
        """
        if self.company_role is None or self.catalog is None:
            return [("importer", "imports"), ("exporter", "exports")]
        pairs: list[tuple[Role, Catalog]] = [(self.company_role, self.catalog)]
        if self.compare_catalogs:
            pairs.append((self.company_role, OTHER_CATALOG[self.catalog]))
        return pairs


class CompanySearchRequest(_CustomsRequest):
    """`POST /api/v2/customs/companies/search`: importers or exporters by product and country."""

    model_config = with_examples(
        {
            "company_role": "importer",
            "hs_code": "8471",
            "destination_country_code": "DEU",
            "start_date": "2025-01-01",
            "end_date": "2025-12-31",
            "page_size": 10,
            "sort_by": "amount_usd",
        }
    )

    company_role: Role = Field(
        description="importer (buyers) or exporter (suppliers): the returned companies"
    )
    catalog: DefaultCatalog
    start_date: IsoDate
    end_date: IsoDate
    hs_code: HsCode | None = None
    product_description: Description | None = None
    origin_country_code: Alpha3 | None = None
    destination_country_code: Alpha3 | None = None
    page: Page = 1
    page_size: PageSize = MAX_PAGE_SIZE
    sort_by: SortBy = "trade_count"
    sort_order: SortOrder = "desc"

    @model_validator(mode="after")
    def _one_filter(self) -> CompanySearchRequest:
        # A search without a product or a country would rank every company of the catalog.
        if all(getattr(self, name) is None for name in FILTER_FIELDS):
            raise invalid("give at least one of " + ", ".join(FILTER_FIELDS))
        return self

    def filters(self) -> dict[str, str]:
        """The filters given, by name."""
        return {name: value for name in FILTER_FIELDS if (value := getattr(self, name)) is not None}


class SectionFilters(RequestModel):
    """`filters` of a section request: the same rules as the company-search fields of the same names."""

    hs_code: HsCode | None = None
    product_description: Description | None = None
    origin_country_code: Alpha3 | None = None
    destination_country_code: Alpha3 | None = None


def _no_filters(value: Any) -> Any:
    return {} if value is None else value  # `filters: null` is the same as leaving it out


class SectionRequest(_CustomsRequest):
    """One body for counterparties, categories, trends, countries and trade-reports."""

    model_config = with_examples(
        {
            "company_name": "ACME LOGISTICS GMBH",
            "company_role": "importer",
            "start_date": "2025-01-01",
            "end_date": "2025-12-31",
            "page_size": 10,
        },
        {
            "company_name": "ACME LOGISTICS GMBH",
            "company_role": "exporter",
            "catalog": "exports",
            "start_date": "2025-01-01",
            "end_date": "2025-06-30",
            "period_unit": "quarters",
            "filters": {"hs_code": "8471", "destination_country_code": "USA"},
        },
    )

    company_name: CompanyName = Field(description="the exact name confirmed by company-candidates is advised")
    company_role: Role
    catalog: DefaultCatalog
    start_date: IsoDate
    end_date: IsoDate
    page: Page = 1
    page_size: ClampedPageSize = Field(
        default=MAX_PAGE_SIZE, description="out-of-range values are set to 1 or 20"
    )
    period_unit: PeriodUnit = "months"
    filters: Annotated[SectionFilters, BeforeValidator(_no_filters), NullAccepted()] = Field(
        default_factory=SectionFilters
    )


# -- what the jobs return ---------------------------------------------------------------------------
# Rows, pages, sections and reports, as typed results the OpenAPI document publishes per action (docs/api.md,
# "3.9 Customs trade data"). Row fields vary by data coverage; a null is a value not known.


class DateRange(TypedDict):
    start: str
    end: str


class PageData(TypedDict):
    total: int
    page: int
    page_size: int
    returned_rows: int


class Measures(TypedDict):
    tradeCount: int
    sumOfUSD: float
    weight: float
    quantity: float
    weightAvgPrice: float | None
    quantityAvgPrice: float | None
    amountSharePct: float


class CounterpartyRow(Measures):
    name: str
    country: str | None
    countryCode: str | None


class CategoryRow(Measures):
    hsCode: str | None
    hsDescriptionEn: str | None
    hsDescriptionCn: str | None
    companyCount: int | None


class CountryRow(Measures):
    country: str | None
    countryCode: str | None
    companyCount: int | None


class PeriodRow(Measures):
    date: str  # the period's first day; a period without records has zeros
    companyCount: int


class CounterpartiesData(PageData):
    items: list[CounterpartyRow]


class CategoriesData(PageData):
    items: list[CategoryRow]


class CountriesData(PageData):
    items: list[CountryRow]


class TrendData(PageData):
    items: list[PeriodRow]


class SectionHeading(TypedDict):
    company_name: str
    company_role: Role
    catalog: Catalog
    date_range: DateRange


class CounterpartiesResult(SectionHeading):
    """`customs.counterparties`: 3.6 credits per returned row."""

    section: Literal["counterparties"]
    data: CounterpartiesData


class CategoriesResult(SectionHeading):
    """`customs.categories`: 3.0 credits per returned row."""

    section: Literal["categories"]
    data: CategoriesData


class TrendsResult(SectionHeading):
    """`customs.trends`: 3.6 credits per period with records."""

    section: Literal["trends"]
    period_unit: PeriodUnit
    data: TrendData


class CountriesResult(SectionHeading):
    """`customs.countries`: 3.0 credits per returned row."""

    section: Literal["countries"]
    data: CountriesData


class SectionError(TypedDict):
    code: Literal["customs_section_failed"]


class CounterpartiesSection(TypedDict):
    status: Literal["complete", "failed"]
    data: NotRequired[CounterpartiesData]  # when complete
    error: NotRequired[SectionError]  # when failed


class CategoriesSection(TypedDict):
    status: Literal["complete", "failed"]
    data: NotRequired[CategoriesData]
    error: NotRequired[SectionError]


class TrendSection(TypedDict):
    status: Literal["complete", "failed"]
    data: NotRequired[TrendData]
    error: NotRequired[SectionError]


class CountriesSection(TypedDict):
    status: Literal["complete", "failed"]
    data: NotRequired[CountriesData]
    error: NotRequired[SectionError]


class ReportSections(TypedDict):
    counterparties: CounterpartiesSection
    categories: CategoriesSection
    trend: TrendSection
    countries: CountriesSection


class TradeReportResult(SectionHeading):
    """`customs.trade_report`: `partial` when a section failed; each section billed as its endpoint."""

    period_unit: PeriodUnit
    status: Literal["complete", "partial"]
    sections: ReportSections


class CompanyRow(TypedDict):
    company_name: str
    country: str | None
    country_code: str | None
    trade_count: int
    amount_usd: float
    quantity: float
    weight: float
    amount_share_pct: float


class CompaniesData(PageData):
    items: list[CompanyRow]


class SearchFilters(TypedDict, total=False):
    hs_code: str
    product_description: str
    origin_country_code: str
    destination_country_code: str


class CompaniesSearchResult(TypedDict):
    """`customs.companies_search`: 3.6 credits per returned row."""

    company_role: Role
    catalog: Catalog
    date_range: DateRange
    filters: SearchFilters
    sort_by: SortBy
    sort_order: SortOrder
    data: CompaniesData


class RoutingEvidence(TypedDict):
    mode: Literal["both_common_pairs", "compare_catalogs", "common_pair", "cross_pair"]
    company_role: Role | None
    catalogs_checked: list[Catalog]


class TradeCounts(TypedDict):
    start_date: str
    end_date: str
    company_role: Role
    catalog: Catalog  # the catalog to query this name in
    # Records per checked catalog, named `<catalog>_as_<role>`.
    imports_as_importer: NotRequired[int]
    exports_as_importer: NotRequired[int]
    imports_as_exporter: NotRequired[int]
    exports_as_exporter: NotRequired[int]
    total: int
    queryable: bool


class Candidate(TypedDict):
    name: str
    source: Literal["customs_records"]
    countries: list[str]
    company_ids: list[str]
    trade_counts: TradeCounts
    identity_status: Literal["unverified"]  # the exact name is queryable, not a verified legal entity
    match_score: float


class CandidatesResult(TypedDict):
    """`customs.company_candidates`: not billed."""

    query: str
    date_range: DateRange
    routing_evidence: RoutingEvidence
    identity_notice: str
    total: int
    page: int
    page_size: int
    candidates: list[Candidate]
