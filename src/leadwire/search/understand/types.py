"""What a query is understood to ask for: the places, industries, ranges and people terms the
recognisers find (`query.understand` applies them), as values every other search module reads."""

from __future__ import annotations

from dataclasses import dataclass
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
