"""`understand` as a whole: which places filter and which only lean, and what is left to match."""

from __future__ import annotations

import pytest

from leadwire.search.understand import understand


@pytest.mark.parametrize(
    ("query", "explicit", "leaning", "rest"),
    [
        ("banks in Germany", {"DE"}, {"DE"}, "banks in"),
        ("banks in germany", {"DE"}, {"DE"}, "banks in"),
        ("German banks", {"DE"}, {"DE"}, "banks"),
        # Lower case before a noun may be no place at all: it leans, and stays a word to match.
        ("german banks", set(), {"DE"}, "banks german"),
        ("turkey farms", set(), {"TR"}, "farms turkey"),
        ("french fries suppliers", set(), {"FR"}, "fries suppliers french"),
        ("suppliers from the netherlands", {"NL"}, {"NL"}, "suppliers from"),
        ("深圳的半导体公司", {"CN"}, {"CN"}, "的半导体公司"),
        ("software companies", set(), set(), "software companies"),
    ],
)
def test_places_written_as_places_filter_and_others_lean(
    query: str, explicit: set[str], leaning: set[str], rest: str
) -> None:
    understood = understand(query)
    assert understood.explicit_countries == frozenset(explicit)
    assert understood.countries == frozenset(leaning)
    assert understood.rest == rest


def test_every_recogniser_contributes_to_one_understanding() -> None:
    understood = understand("CTOs at German chipmakers with more than 500 employees founded after 2010")
    assert understood.explicit_countries == {"DE"}
    assert [m.code for m in understood.industries] == ["3344"]
    assert understood.employees is not None and understood.employees.low == 501
    assert understood.founded is not None and understood.founded.low == 2011
    assert understood.roles == ("CTO",) and understood.seniorities == ("c_level",)
