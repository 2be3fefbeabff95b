"""The understanding of one query: every recogniser applied in turn, each taking the words it understood
out of what the next one (and the lexical match) sees."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

PlaceKind = Literal["country", "demonym", "city", "state", "region"]


@dataclass(frozen=True, slots=True)
class Place:
    """A place a query names, as written, and the countries it stands for."""

    text: str
    kind: PlaceKind
    countries: frozenset[str]  # ISO 3166-1 alpha-2


@dataclass(frozen=True, slots=True)
class IndustryMatch:
    """A NAICS 2022 class a query asks for, and how sure the match is (0..1)."""

    code: str
    title: str
    score: float


@dataclass(frozen=True, slots=True)
class Range:
    """An inclusive numeric range; ``None`` leaves that end open."""

    low: int | None = None
    high: int | None = None

    def contains(self, value: int | None) -> bool:
        if value is None:
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


@dataclass(frozen=True, slots=True)
class Understanding:
    """What a query asks for beyond its words; ``rest`` is what is left for lexical matching."""

    query: str
    rest: str
    places: tuple[Place, ...] = ()
    industries: tuple[IndustryMatch, ...] = ()
    employees: Range | None = None
    founded: Range | None = None
    hs_codes: tuple[str, ...] = ()
    products: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    departments: tuple[str, ...] = ()
    seniorities: tuple[str, ...] = ()

    @property
    def countries(self) -> frozenset[str]:
        """Every country the query's places stand for (a region stands for several)."""
        return frozenset(code for place in self.places for code in place.countries)


@lru_cache(maxsize=1024)
def understand(query: str) -> Understanding:
    """Places first (their words leave the query), then size and founding, then industries and people."""
    from leadwire.search.understand.attributes import find_company_attributes
    from leadwire.search.understand.geo import find_places
    from leadwire.search.understand.industry import find_industries
    from leadwire.search.understand.people import find_people_terms

    rest, places = find_places(query)
    company = find_company_attributes(rest)
    people = find_people_terms(company.rest)
    return Understanding(
        query=query,
        rest=company.rest,
        places=places,
        industries=find_industries(company.rest),
        employees=company.employees,
        founded=company.founded,
        hs_codes=company.hs_codes,
        products=company.products,
        roles=people.roles,
        departments=people.departments,
        seniorities=people.seniorities,
    )
