"""A candidate page as the ranking scores it, the query as the ranking reads it, and the filters that
what the query understood applies to candidates: a place, a size, a founding year."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from leadwire.domains import normalise_domain
from leadwire.search.industry_table import IndustryTable
from leadwire.search.store import IndexArrays, locate
from leadwire.search.text import ParsedQuery, parse_query
from leadwire.search.types import SearchRequest
from leadwire.search.understand import understand
from leadwire.search.understand.industry import GENERIC_WORDS
from leadwire.search.understand.types import IndustryMatch, Range


@dataclass(slots=True)
class Candidate:
    """One page in the running: what each signal gave it, then the fused score."""

    rowid: int
    bm25: float = 0.0
    cjk: float = 0.0
    coverage: float = 0.0
    cosine: float = 0.0
    industry: float = 0.0
    in_place: bool = False  # from the place the query names, and about what it asks
    employees: int = -1  # its company's head count and founding year, -1 when unknown
    founded: int = -1
    country: str = ""
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class RankedQuery:
    """A request as the ranking sees it: terms without the place names, which become a constraint."""

    parsed: ParsedQuery
    countries: frozenset[str]  # places that filter
    leaning: frozenset[str]  # every place named, explicit or not: a boost
    industries: tuple[IndustryMatch, ...]
    only_place: bool  # nothing to match but the place ("companies in Germany")
    employees: Range | None
    founded: Range | None
    category: str | None
    domains: list[str]
    location: str | None

    @classmethod
    def of(cls, request: SearchRequest) -> RankedQuery:
        understood = understand(request.query)
        parsed = parse_query(understood.rest)
        only_place = bool(understood.places) and not understood.industries and _generic_only(parsed)
        if parsed.empty:  # the query is only a place: its words are all there is to match
            parsed = parse_query(request.query)
        return cls(
            parsed=parsed,
            countries=understood.explicit_countries,
            leaning=understood.countries,
            industries=understood.industries,
            only_place=only_place,
            employees=understood.employees,
            founded=understood.founded,
            category=request.category,
            domains=[normalise_domain(d, strict=False) for d in request.include_domains],
            location=request.user_location.upper() if request.user_location else None,
        )


def within_place(candidates: list[Candidate], query: RankedQuery) -> list[Candidate]:
    """A place the query names is a filter: only its pages that answer the query, when it has any.

    When it has none, every candidate stays, those from the place ahead by the ``geo`` boost,
    rather than an empty answer; when it has a few, the answer is those few.
    """
    if not query.countries or not any(c.in_place for c in candidates):
        return candidates
    return [c for c in candidates if c.in_place]


def within_ranges(candidates: list[Candidate], query: RankedQuery) -> list[Candidate]:
    """Size and founding the query asks for filter like a place: to the pages whose company is known
    to fit, when there are any; a page of unknown size does not pass a size filter."""
    if query.employees is None and query.founded is None:
        return candidates
    fitting = [
        c for c in candidates if _fits(query.employees, c.employees) and _fits(query.founded, c.founded)
    ]
    return fitting or candidates


def _fits(wanted: Range | None, value: int) -> bool:
    return wanted is None or wanted.contains(value if value >= 0 else None)


def fill_company_facts(arrays: IndexArrays, candidates: list[Candidate]) -> None:
    if not candidates or len(arrays.rowids) == 0:
        return
    wanted = np.fromiter((c.rowid for c in candidates), dtype=np.int64, count=len(candidates))
    rows, present = locate(arrays.rowids, wanted)
    employees = np.asarray(arrays.employees)[rows].tolist()
    founded = np.asarray(arrays.founded)[rows].tolist()
    for candidate, ok, size, year in zip(candidates, present.tolist(), employees, founded, strict=True):
        candidate.employees, candidate.founded = (int(size), int(year)) if ok else (-1, -1)


def answers_topic(candidate: Candidate, query: RankedQuery, cjk: float) -> bool:
    """A page about what the query asks for: of its industry, or carrying most of its words.

    Such a page from the named place outranks every page from elsewhere; a page from there
    about something else does not (a hotel in Zurich is no answer to "banks in Switzerland").
    """
    if query.only_place:
        return True
    # An industry guessed by meaning ranks, but does not decide what answers (it can be wrong).
    known_industry = any(m.score >= 1.0 for m in query.industries)
    return (known_industry and candidate.industry >= 0.5) or candidate.coverage >= 0.5 or cjk >= 0.5


def _generic_only(parsed: ParsedQuery) -> bool:
    return not parsed.bigrams and all(term in GENERIC_WORDS for term in parsed.terms)


def fill_industries(
    table: IndustryTable, wanted: tuple[IndustryMatch, ...], candidates: list[Candidate]
) -> None:
    if not candidates or len(table.rowids) == 0:
        return
    wanted_rowids = np.fromiter((c.rowid for c in candidates), dtype=np.int64, count=len(candidates))
    rows, present = locate(table.rowids, wanted_rowids)
    scores = table.scores(wanted, rows)
    for candidate, ok, score in zip(candidates, present.tolist(), scores.tolist(), strict=True):
        candidate.industry = score if ok else 0.0
