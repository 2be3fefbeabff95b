"""Request bodies, wire shapes and job results of prospect lists (docs/api.md, Prospect lists
(websets))."""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, NotRequired, TypeVar

from pydantic import AfterValidator, BaseModel, Field, StrictInt, StrictStr, field_validator, model_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from leadwire.platform.validation import RequestModel, with_examples
from leadwire.providers.trade_terms import HsCode, IsoDate, alpha3_list, invalid, latest_end_date
from leadwire.websets.enrichment_schemas import MAX_ENRICHMENTS, CellOut, EnrichmentRequest

T = TypeVar("T")
COUNTS = (25, 100, 500, 1000)
TARGET_KINDS = ("company", "person")
MATCHES = ("qualified", "full", "partial", "rejected", "verified")
DETAIL_LIMITS = {"compact": 50, "standard": 25, "full": 10}
MAX_QUERY, MAX_TITLE = 2000, 200
MAX_EXCLUSIONS = 10
EXCLUSION_SOURCES = ("webset", "import")


class Exclusion(RequestModel):
    """A source whose prospects a run leaves out: another list of the account (its qualified items),
    or an import (its accepted rows)."""

    source: Literal["webset", "import"]
    id: StrictStr = Field(max_length=64)


SEED_TYPES = ("import", "customs")
MAX_MIN_TRADE_COUNT = 100_000
_CUSTOMS_FIELDS = ("role", "hs_code", "country_codes", "start_date", "end_date")


class Seed(RequestModel):
    """Where a list's candidates come from instead of a search, each verified against the criteria:
    the rows of one of the account's imports (`type: "import"`, `id`), or the companies the customs
    records show trading a product (`type: "customs"`: the role, HS code, countries and dates)."""

    type: Literal["import", "customs"]
    id: StrictStr | None = Field(default=None, max_length=64, description='`type: "import"`: the import')
    role: Literal["importer", "exporter"] | None = Field(
        default=None, description='`type: "customs"`: the side of the records the companies are on'
    )
    hs_code: HsCode | None = Field(default=None, description='`type: "customs"`: an HS code prefix')
    country_codes: Annotated[StrictStr, AfterValidator(alpha3_list)] | None = Field(
        default=None,
        description='`type: "customs"`: the companies\' own countries, ISO 3166-1 alpha-3, comma-separated',
        examples=["DEU,AUT"],
    )
    start_date: IsoDate | None = Field(default=None, description='`type: "customs"`: first day, YYYY-MM-DD')
    end_date: IsoDate | None = Field(
        default=None, description='`type: "customs"`: last day, YYYY-MM-DD, at most a year after the first'
    )
    min_trade_count: StrictInt | None = Field(
        default=None,
        ge=1,
        le=MAX_MIN_TRADE_COUNT,
        description='`type: "customs"`: the fewest records a company needs in the range (1)',
    )

    @model_validator(mode="after")
    def _one_kind(self) -> Seed:
        customs = {name: getattr(self, name) for name in (*_CUSTOMS_FIELDS, "min_trade_count")}
        if self.type == "import":
            if self.id is None:
                raise invalid('`seed: {type: "import"}` needs the import\'s `id`')
            if any(value is not None for value in customs.values()):
                raise invalid('`seed: {type: "import"}` takes only `id`')
            return self
        missing = [name for name in _CUSTOMS_FIELDS if customs[name] is None]
        if missing:
            raise invalid('`seed: {type: "customs"}` needs ' + ", ".join(missing))
        if self.id is not None:
            raise invalid('`seed: {type: "customs"}` takes no `id`')
        assert self.start_date is not None and self.end_date is not None
        if self.end_date < self.start_date:
            raise invalid("end_date is before start_date")
        if self.end_date > latest_end_date(self.start_date):
            raise invalid("the dates span at most one year")
        return self

    def stored(self) -> dict[str, Any]:
        """The seed as the list keeps and shows it: an import's id, or every customs term (defaults set)."""
        if self.type == "import":
            return {"type": "import", "id": self.id}
        return {
            "type": "customs",
            "role": self.role,
            "hs_code": self.hs_code,
            "country_codes": self.country_codes,
            "start_date": self.start_date.isoformat() if self.start_date else None,
            "end_date": self.end_date.isoformat() if self.end_date else None,
            "min_trade_count": self.min_trade_count or 1,
        }


def _exclusions() -> Any:
    """`exclude` of creation and Find More: what the list's runs leave out, by normalised domain (else
    normalised name and country) for companies and by profile for people; never verified or charged."""
    return Field(
        default_factory=list,
        max_length=MAX_EXCLUSIONS,
        description=(
            f'at most {MAX_EXCLUSIONS} sources, each `{{source: "webset" or "import", id}}`: that '
            "list's qualified items, or that import's rows, are left out of this list's runs"
        ),
    )


def _title(title: str | None) -> str | None:
    if title is not None and len(title) > MAX_TITLE:
        raise ValueError("title is at most 200 characters")
    return title


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in COUNTS:
        raise PydanticCustomError("webset_count_invalid", "count is one of 25, 100, 500, 1000")
    return value


class CreateWebsetRequest(RequestModel):
    model_config = with_examples(
        {
            "query": "Logistics software companies in Germany with more than 200 employees",
            "title": "DE logistics software",
            "count": 25,
            "target_kind": "company",
            "locale": "en",
        },
        {
            "query": "Heads of procurement at chemical companies in Switzerland",
            "target_kind": "person",
        },
    )
    missing_codes = {"query": "webset_query_required"}
    invalid_codes = {
        "query": "webset_query_required",
        "count": "webset_count_invalid",
        "target_kind": "webset_target_kind_unsupported",
        "locale": "locale_invalid",
        "exclude": "invalid_exclusion",
        "seed": "webset_seed_invalid",
        "enrichments": "invalid_enrichment",
    }

    # The published schema states the validators' rules, so clients (and fuzzers) know them.
    query: StrictStr = Field(json_schema_extra={"maxLength": MAX_QUERY, "pattern": r"\S"})
    title: StrictStr | None = Field(default=None, json_schema_extra={"maxLength": MAX_TITLE})
    count: StrictInt = Field(default=25, json_schema_extra={"enum": list(COUNTS)})
    target_kind: Literal["company", "person"] = "company"
    locale: Literal["en", "zh"] = "en"
    exclude: list[Exclusion] = _exclusions()
    seed: Seed | None = Field(
        default=None,
        description=(
            '`{type: "import", id}`: the candidates are that import\'s rows, in order, each matched to a '
            'company; `{type: "customs", role, hs_code, country_codes, start_date, end_date, '
            "min_trade_count?}`: the companies the customs records show trading that product, most records "
            "first, each with its trade facts. Either way each is verified against the criteria, instead "
            "of a search's candidates"
        ),
    )
    enrichments: list[EnrichmentRequest] = Field(
        default_factory=list,
        max_length=MAX_ENRICHMENTS,
        description=f"at most {MAX_ENRICHMENTS} columns asked of every qualified item, as `POST "
        "/api/v2/websets/{id}/enrichments` takes them",
    )

    @field_validator("query")
    @classmethod
    def _query(cls, query: str) -> str:
        if not query.strip():
            raise PydanticCustomError("webset_query_required", "query must not be blank")
        if len(query) > MAX_QUERY:
            raise PydanticCustomError("webset_query_too_long", "query is at most 2000 characters")
        return query

    @field_validator("title")
    @classmethod
    def _title(cls, title: str | None) -> str | None:
        return _title(title)

    @field_validator("count", mode="before")
    @classmethod
    def _count(cls, value: object) -> int:
        return _count(value)


class FindMoreRequest(RequestModel):
    model_config = with_examples({"count": 25})
    invalid_codes = {"count": "webset_count_invalid", "exclude": "invalid_exclusion"}

    count: StrictInt = Field(default=25, json_schema_extra={"enum": list(COUNTS)})
    exclude: list[Exclusion] = _exclusions()

    @field_validator("count", mode="before")
    @classmethod
    def _count(cls, value: object) -> int:
        return _count(value)


# -- wire shapes -----------------------------------------------------------------------------


class CriterionOut(TypedDict):
    id: str
    description: str
    type: str
    weight: float
    required: bool
    active: bool


class ProgressOut(TypedDict):
    stage: str
    goal: int
    verify_cap: int
    verified: int
    qualified: int
    full: int
    stop_reason: str | None
    updated_at: str


class FailureOut(TypedDict):
    code: str
    detail: NotRequired[str]


class WebsetListItem(TypedDict):
    id: str
    name: str
    query: str
    target_kind: str
    status: str
    count: int
    progress: ProgressOut
    created_at: str
    started_at: str | None
    finished_at: str | None
    updated_at: str


class SeedOut(TypedDict):
    type: str
    id: NotRequired[str]
    role: NotRequired[str]
    hs_code: NotRequired[str]
    country_codes: NotRequired[str]
    start_date: NotRequired[str]
    end_date: NotRequired[str]
    min_trade_count: NotRequired[int]


class WebsetOut(WebsetListItem):
    criteria: list[CriterionOut]
    exclude: list[ExclusionOut]
    seed: SeedOut | None
    failure: FailureOut | None
    locale: str
    preparation_job_id: str
    run_job_id: str | None


class ExclusionOut(TypedDict):
    source: str
    id: str


class CreatedWebset(TypedDict):
    id: str
    status: str
    count: int
    target_kind: str


class CreatedJob(TypedDict):
    id: str
    status: str


class CreateWebsetOut(TypedDict):
    webset: CreatedWebset
    preparation_job: CreatedJob


class PlannedQueryOut(TypedDict):
    text: str
    user_location: str


class QueryGroupOut(TypedDict):
    angle: str
    rationale: str
    queries: list[PlannedQueryOut]


class StrategyBody(TypedDict):
    query_groups: list[QueryGroupOut]
    additional_queries: list[PlannedQueryOut]
    rounds: list[dict[str, Any]]


class StrategyOut(TypedDict):
    webset_id: str
    webset_status: str
    readiness: str
    criteria_ready: bool
    strategy_ready: bool
    criteria: list[CriterionOut]
    strategy: StrategyBody | None
    criteria_updated_at: str | None
    strategy_available_at: str | None
    strategy_updated_at: str | None


class MatchOut(TypedDict):
    status: str
    score: float


class ChecksOut(TypedDict):
    """Criteria by verdict: met = yes, partial = unclear, unmet = no."""

    total: int
    met: int
    partial: int
    unmet: int
    required_unmet: int
    required_unclear: int


class CriterionResultOut(TypedDict):
    criterion_id: str
    type: str
    description: str
    verdict: Literal["yes", "no", "unclear"]
    outcome: Literal["met", "partial", "unmet"]  # the verdict in the words of `checks`
    score: float
    reasoning: NotRequired[str]
    confidence: NotRequired[float]
    references: NotRequired[list[str]]


class ItemOut(TypedDict):
    id: str
    target_kind: str
    entity: dict[str, Any]
    match: MatchOut
    provisional: bool
    created_at: str
    updated_at: str
    checks: NotRequired[ChecksOut]
    criteria: NotRequired[list[CriterionResultOut]]
    enrichments: NotRequired[list[CellOut]]


class WebsetsPage(BaseModel, Generic[T]):
    ok: Literal[True]
    request_id: str
    items: list[T]
    next_cursor: str | None
    has_more: bool


class ItemsPage(WebsetsPage[T], Generic[T]):
    detail: str
    webset_status: str
    items_revision: int
    stream_cursor: int


# -- job results -------------------------------------------------------------------------------


class PreparationResult(TypedDict):
    """`websets.prepare`: criteria and strategy are ready and the discovery run is started (its job id);
    the webset's status, not this job's, tells whether discovery is complete."""

    webset_id: str
    webset_status: str
    discovery_job_id: str | None


class RunResult(TypedDict):
    """`websets.discover` and `websets.find_more`: one discovery run, billed a credit per released
    qualified item. A run that found its list already finished reports only `webset_status`."""

    webset_id: str
    run: int
    released: NotRequired[int]
    stop_reason: NotRequired[
        Literal["cancelled", "goal_reached", "verify_cap_reached", "exhausted", "time_limit"]
    ]
    webset_status: NotRequired[str]


# -- imports -----------------------------------------------------------------------------------

MAX_IMPORT_ROWS = 100_000
# An import's body limit (`Capability.body_limits`): 100,000 rows of a few columns, with room.
MAX_IMPORT_BYTES = 50 * 1024 * 1024
IMPORT_FIELDS = ("name", "domain", "country")


class ImportColumns(RequestModel):
    """Which column (CSV header, or JSON key) holds each field, where its name is not the field's own
    (`name`; `domain` or `website`; `country`)."""

    name: StrictStr | None = Field(default=None, max_length=100)
    domain: StrictStr | None = Field(default=None, max_length=100)
    country: StrictStr | None = Field(default=None, max_length=100)


class ImportOptions(RequestModel):
    """What an import takes beside its rows: a CSV's query parameters, and a JSON body's other fields."""

    invalid_codes = {"columns": "invalid_import"}

    title: StrictStr | None = Field(default=None, json_schema_extra={"maxLength": MAX_TITLE})
    columns: ImportColumns | None = None

    @field_validator("title")
    @classmethod
    def _title(cls, title: str | None) -> str | None:
        return _title(title)


class ImportRequest(ImportOptions):
    model_config = with_examples(
        {
            "title": "Customers 2026",
            "rows": [
                {"name": "Acme Chemicals AG", "domain": "acme-chemicals.example", "country": "CH"},
                {"name": "Rheinwerk GmbH", "country": "DE"},
            ],
        }
    )
    invalid_codes = {"rows": "invalid_import", "columns": "invalid_import"}
    missing_codes = {"rows": "invalid_import"}

    # More than MAX_IMPORT_ROWS is 413 `import_too_large`, as for a CSV (the body is at most 10 MiB).
    rows: list[dict[str, Any]] = Field(
        min_length=1,
        description=f"1-{MAX_IMPORT_ROWS:,} objects, each with a `name` and/or a `domain` (or `website`)",
    )


class ImportErrorOut(TypedDict):
    line: int
    field: str
    code: str


class ImportOut(TypedDict):
    id: str
    title: str | None
    format: str
    status: str
    rows: int
    accepted: int
    rejected: int
    errors: list[ImportErrorOut]
    created_at: str
