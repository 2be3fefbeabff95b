"""Request bodies of the research endpoints (spec section 4, Research) and their rules."""

from __future__ import annotations

from typing import Annotated, Literal

import pycountry
from pydantic import Field, StrictInt, StrictStr, field_validator
from pydantic_core import PydanticCustomError

from leadwire.domains import normalise_domain
from leadwire.platform.body import RequestModel

Category = Literal["company", "news", "financial report", "people", "personal site"]
Query = Annotated[StrictStr, Field(min_length=1, max_length=500)]
Position = Annotated[StrictStr, Field(min_length=1, max_length=80)]


def _is_alpha2(code: str) -> bool:
    return len(code) == 2 and code.isalpha() and pycountry.countries.get(alpha_2=code.upper()) is not None


class PublicWebRequest(RequestModel):
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
