"""Request bodies of the research endpoints (docs/api.md, Public-web research; Company contacts), their
rules, and the results of their jobs."""

from __future__ import annotations

from typing import Annotated, Literal

import pycountry
from pydantic import Field, StrictInt, StrictStr, field_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from leadwire.domains import normalise_domain
from leadwire.platform.validation import RequestModel, with_examples
from leadwire.research.hierarchy import HierarchyNode

Category = Literal["company", "news", "financial report", "people", "personal site"]
Query = Annotated[StrictStr, Field(min_length=1, max_length=500)]
Position = Annotated[StrictStr, Field(min_length=1, max_length=80)]


def _is_alpha2(code: str) -> bool:
    return len(code) == 2 and code.isalpha() and pycountry.countries.get(alpha_2=code.upper()) is not None


class PublicWebRequest(RequestModel):
    model_config = with_examples(
        {
            "queries": ["logistics software companies in Germany"],
            "search_limit": 5,
            "category": "company",
            "user_location": "DE",
        },
        {"queries": ["cold chain warehousing", "pharma logistics news"], "include_domains": []},
    )

    queries: list[Query] = Field(min_length=1, max_length=2)
    search_limit: StrictInt = Field(default=10, ge=1, le=10)
    category: Category | None = None
    include_domains: list[StrictStr] = Field(default_factory=list, max_length=5)
    user_location: StrictStr | None = None

    @field_validator("queries")
    @classmethod
    def _not_blank(cls, queries: list[str]) -> list[str]:
        if any(not q.strip() for q in queries):
            raise ValueError("queries must not be blank")
        return queries

    @field_validator("include_domains")
    @classmethod
    def _domains(cls, domains: list[str]) -> list[str]:
        try:
            return [normalise_domain(d) for d in domains]
        except ValueError:
            raise ValueError("include_domains must be domains like example.com") from None

    @field_validator("user_location")
    @classmethod
    def _alpha2(cls, code: str | None) -> str | None:
        if code is None:
            return None
        if not _is_alpha2(code):
            raise ValueError("user_location must be an ISO 3166-1 alpha-2 code")
        return code.upper()


class ContactsRequest(RequestModel):
    model_config = with_examples(
        {"domain": "acme-logistics.example", "positions": ["sales", "procurement"], "limit": 10}
    )
    missing_codes = {"domain": "invalid_domain"}
    invalid_codes = {"locale": "locale_invalid"}

    domain: StrictStr
    positions: list[Position] = Field(default_factory=list, max_length=30)
    limit: StrictInt = Field(default=20, ge=1, le=50)
    locale: Literal["en", "zh"] = "en"

    @field_validator("domain")
    @classmethod
    def _domain(cls, raw: str) -> str:
        try:
            return normalise_domain(raw)
        except ValueError:
            raise PydanticCustomError("invalid_domain", "a company domain such as example.com") from None


# -- job results -------------------------------------------------------------------------------


class PublicWebSource(TypedDict):
    url: str
    title: str
    published_date: str | None
    author: str | None
    image: str | None
    highlights: list[str]
    text: str  # length-limited; ends with `...[truncated]` when trimmed


class PublicWebQueryResult(TypedDict):
    query: str
    sources: list[PublicWebSource]


class PublicWebQueryError(TypedDict):
    query: str
    code: str


class PublicWebResult(TypedDict):
    """`research.public_web`: `partial` when a query failed (its code in `errors`); one credit per source."""

    status: Literal["complete", "partial"]
    queries: list[str]
    searched_queries: list[str]
    results_per_query: int
    results: list[PublicWebQueryResult]
    errors: list[PublicWebQueryError]


class Contact(TypedDict):
    email: str | None
    status: str | None  # the upstream's e-mail verification status (valid, accept_all, ...)
    position: str | None
    first_name: str | None
    last_name: str | None
    full_name: str | None
    linkedin_url: str | None


HierarchyEdge = TypedDict(
    "HierarchyEdge",
    # `from` reports to (or, for the top person, belongs to) `to`; inferred from titles, not verified.
    {"from": str, "to": str, "relation": str, "confidence": float, "sort_order": int},
)


class ContactsResult(TypedDict):
    """`research.contacts`: `done` with contacts, `no_result` for an empty search; a credit per contact
    with an email."""

    status: Literal["done", "no_result"]
    domain: str
    company_name: str | None
    contacts: list[Contact]
    # Documents the wire shape only: the payload holds each node's dict (`HierarchyNode.as_dict`).
    nodes: list[HierarchyNode]
    edges: list[HierarchyEdge]
    note: str
