"""The understanding of one query: every recogniser applied in turn, each taking the words it understood
out of what the next one (and the lexical match) sees."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

PlaceKind = Literal["country", "demonym", "city", "state", "region"]


@dataclass(frozen=True, slots=True)
class Place:
    """A place a query names, as written, and the countries it stands for."""

    text: str
    kind: PlaceKind
    countries: frozenset[str]  # ISO 3166-1 alpha-2
    # Written as a place: capitalised, in Chinese, or after "in"/"from"/... A lower-case "turkey farms"
    # or "french fries" may name no place at all, so such a mention only leans, it does not filter.
    explicit: bool = True


@dataclass(frozen=True, slots=True)
class IndustryMatch:
    """A NAICS 2022 class a query asks for, and how sure the match is (0..1)."""

    code: str
    title: str
    score: float
    phrase: str = ""  # the query's words that named it ("chemical"); "" for a guess by meaning


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

    @property
    def explicit_countries(self) -> frozenset[str]:
        """The countries of the places written unmistakably as places (see ``Place.explicit``)."""
        return frozenset(code for place in self.places if place.explicit for code in place.countries)


_PLACE_WORDS = r"(?:in|from|across|within|throughout|around|near|based in|headquartered in|located in)"


def _written_as_place(place: Place, query: str) -> bool:
    text = place.text
    if not text or not text[0].isascii() or text[0].isupper():
        return True  # Chinese, or capitalised as a name
    after_place_word = rf"\b{_PLACE_WORDS}\s+(?:the\s+)?{re.escape(text)}"
    return re.search(after_place_word, query, flags=re.IGNORECASE) is not None


@lru_cache(maxsize=1024)
def understand(query: str) -> Understanding:
    """Size and founding, then places (their words leave the query), then industries and people."""
    from leadwire.search.understand.attributes import find_company_attributes
    from leadwire.search.understand.geo import find_places
    from leadwire.search.understand.industry import find_industries
    from leadwire.search.understand.people import find_people_terms

    # Size and founding first, on the query as typed: "5,000 employees" needs its comma.
    company = find_company_attributes(query)
    rest, places = find_places(company.rest)
    places = tuple(replace(place, explicit=_written_as_place(place, query)) for place in places)
    # A word that may not be a place at all ("turkey farms") stays a word to match as well.
    rest = " ".join([rest, *(place.text.lower() for place in places if not place.explicit)]).strip()
    people = find_people_terms(rest)
    return Understanding(
        query=query,
        rest=rest,
        places=places,
        industries=find_industries(rest),
        employees=company.employees,
        founded=company.founded,
        hs_codes=company.hs_codes,
        products=company.products,
        roles=people.roles,
        departments=people.departments,
        seniorities=people.seniorities,
    )
