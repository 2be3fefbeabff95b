"""What the customs jobs return (docs/api.md, Customs trade data): rows, pages, sections and reports, as
typed results the OpenAPI document publishes per action. Row fields vary by data coverage; a null is a
value not known."""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from leadwire.customs.schemas import SortOrder
from leadwire.providers.trade import Catalog, PeriodUnit, Role
from leadwire.providers.trade import CompanySort as SortBy


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
