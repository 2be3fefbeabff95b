"""The understanding of one query: every recogniser applied in turn, each taking the words it understood
out of what the next one (and the lexical match) sees."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from leadwire.search.understand.types import Place, Understanding

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
    # Imported at the first query, not with the module: their tables (and the industry finder's
    # numerics) would cost every process that only names the types, a worker's start-up among them.
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
