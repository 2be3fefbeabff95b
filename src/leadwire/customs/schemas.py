"""Request bodies of the seven customs endpoints (docs/api.md, Customs trade data; Limits), their
rules, and the results of their jobs.

The guide gives customs no codes of its own, so every broken rule is 400 `invalid_request` with `param`
naming the field and a `detail` saying what is expected (docs/api.md, Errors). Field rules
raise `PydanticCustomError("value_error", ...)`: its type is not a public code, so `platform.validation`
maps it to `invalid_request` and keeps the message, without pydantic's "Value error," prefix, as the
detail.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal, NotRequired

import pycountry
from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    GetJsonSchemaHandler,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError
from typing_extensions import TypedDict

from leadwire.platform.validation import RequestModel, with_examples
from leadwire.providers.trade import Catalog, PeriodUnit, Role
from leadwire.providers.trade import CompanySort as SortBy

SortOrder = Literal["asc", "desc"]

# The common pairs: an importer is found in the records its own country declares as imports, an
# exporter in those declared as exports. They give the default catalog of a role and the role of a catalog.
COMMON_CATALOG: dict[Role, Catalog] = {"importer": "imports", "exporter": "exports"}
COMMON_ROLE: dict[Catalog, Role] = {"imports": "importer", "exports": "exporter"}
OTHER_CATALOG: dict[Catalog, Catalog] = {"imports": "exports", "exports": "imports"}

MAX_PAGE = 1000
MAX_PAGE_SIZE = 20
FILTER_FIELDS = ("hs_code", "product_description", "origin_country_code", "destination_country_code")

# [0-9], not \d: \d also matches other scripts' digits, which are no part of a date or an HS code.
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_HS_CODE = re.compile(r"([0-9]{2}){1,5}")  # 2, 4, 6, 8 or 10 digits


def _invalid(detail: str) -> PydanticCustomError:
    return PydanticCustomError("value_error", detail)


def _iso_date(value: Any) -> date:
    # Only YYYY-MM-DD (docs/api.md, Customs trade data): pydantic alone would also take timestamps,
    # datetimes and 20240101.
    if not isinstance(value, str) or not _ISO_DATE.fullmatch(value):
        raise _invalid("a date written YYYY-MM-DD, such as 2024-01-31")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise _invalid(f"{value} is not a calendar date") from None


def latest_end_date(start: date) -> date:
    """The last `end_date` allowed after `start`: one calendar year on, Feb 29 landing on Feb 28."""
    if start.year == date.max.year:
        return date.max
    try:
        return start.replace(year=start.year + 1)
    except ValueError:  # Feb 29 has no twin in the next year
        return start.replace(year=start.year + 1, day=28)


def _alpha3(code: str) -> str:
    upper = code.upper()
    if len(upper) == 2 and pycountry.countries.get(alpha_2=upper) is not None:
        # Public-web's user_location takes alpha-2; customs never does (docs/api.md, Customs trade data).
        raise _invalid(f"{code} is alpha-2; customs takes ISO 3166-1 alpha-3 codes such as DEU")
    if not (len(upper) == 3 and upper.isascii() and upper.isalpha()) or not pycountry.countries.get(
        alpha_3=upper
    ):
        raise _invalid(f"{code!r} is not an ISO 3166-1 alpha-3 code such as DEU")
    return upper


def _alpha3_list(codes: str) -> str:
    """`DEU, fra,DEU` -> `DEU,FRA`: each code checked and upper-cased, repeats dropped, order kept."""
    checked = [_alpha3(part.strip()) for part in codes.split(",")]
    return ",".join(dict.fromkeys(checked))


def _hs_code(code: str) -> str:
    # A string, not a number: chapters 01-09 start with a zero a JSON number would lose.
    if not _HS_CODE.fullmatch(code):
        raise _invalid("one HS code of 2, 4, 6, 8 or 10 digits such as 8471 (no lists, spaces or ranges)")
    return code


def _clamp_page_size(value: Any) -> Any:
    # Section endpoints set an out-of-range page_size to the boundary (spec); non-integers stay
    # for StrictInt to refuse.
    if isinstance(value, int) and not isinstance(value, bool):
        return min(max(value, 1), MAX_PAGE_SIZE)
    return value


IsoDate = Annotated[date, BeforeValidator(_iso_date)]
# Surrounding blanks are dropped before counting, so a name of spaces is not two characters long.
CompanyName = Annotated[StrictStr, StringConstraints(strip_whitespace=True, min_length=2, max_length=300)]
# The patterns only document the rules in the JSON schema (OpenAPI, MCP); the validators enforce them.
Alpha3 = Annotated[
    StrictStr,
    AfterValidator(_alpha3),
    Field(json_schema_extra={"pattern": "^[A-Za-z]{3}$"}, examples=["DEU"]),
]
HsCode = Annotated[
    StrictStr,
    AfterValidator(_hs_code),
    Field(json_schema_extra={"pattern": f"^{_HS_CODE.pattern}$"}, examples=["8471"]),
]
# The guide sets no length (docs/api.md, Limits); a product keyword is bounded like a company name so a
# query stays cheap.
Description = Annotated[StrictStr, StringConstraints(strip_whitespace=True, min_length=1, max_length=300)]
Page = Annotated[StrictInt, Field(ge=1, le=MAX_PAGE)]
PageSize = Annotated[StrictInt, Field(ge=1, le=MAX_PAGE_SIZE)]
ClampedPageSize = Annotated[StrictInt, BeforeValidator(_clamp_page_size), Field(ge=1, le=MAX_PAGE_SIZE)]


class _NullAccepted:
    """Publishes `null` as an accepted value of a field whose validator maps it to the default."""

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"anyOf": [handler(schema), {"type": "null"}]}


def _catalog_by_role(data: dict[str, Any]) -> Catalog:
    # Called with the fields validated so far; a broken company_role has its own error already.
    return "exports" if data.get("company_role") == "exporter" else "imports"


# `null` is accepted as "not given" (`_CustomsRequest._absent_when_null`).
DefaultCatalog = Annotated[
    Catalog, _NullAccepted(), Field(default_factory=_catalog_by_role, description="default by role")
]


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
            raise _invalid("end_date must not be earlier than start_date")
        if end > latest_end_date(start):
            limit = latest_end_date(start).isoformat()
            raise _invalid(f"the span is at most one year: end_date {limit} at the latest")
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
    country_codes: Annotated[StrictStr, AfterValidator(_alpha3_list)] | None = Field(
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
            raise _invalid("give at least one of " + ", ".join(FILTER_FIELDS))
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
    filters: Annotated[SectionFilters, BeforeValidator(_no_filters), _NullAccepted()] = Field(
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
