"""Industries in queries and documents: the lexicon, its longest-match reading, document classes
and how close two NAICS classes are. The embedding fallback (which loads the encoder) is kept to
the few tests that need it."""

from __future__ import annotations

import pytest

from leadwire.search.understand.industry import (
    DOCUMENT_CODES,
    affinity,
    classify_text,
    find_industries,
    lexicon_hits,
    singular,
)

# (query, NAICS code the first match starts with)
NAMED_INDUSTRIES = [
    ("banks", "5221"),
    ("Banks", "5221"),
    ("lenders", "5221"),
    ("insurers", "524"),
    ("chipmakers", "3344"),
    ("semiconductor companies", "3344"),
    ("半导体公司", "3344"),
    ("银行", "5221"),
    ("drugmakers", "3254"),
    ("pharmaceutical companies", "3254"),
    ("制药企业", "3254"),
    ("defence contractors", "3364"),
    ("defense contractors", "3364"),
    ("car makers", "3361"),
    ("automakers", "3361"),
    ("oil and gas companies", "211"),
    ("utilities", "22"),
    ("REITs", "525"),
    ("software companies", "5132"),
    ("telecom operators", "517"),
    ("investment banks", "523"),
    ("chemical companies", "3251"),
    ("Other Motor Vehicle Parts Manufacturing", "336390"),
]


@pytest.mark.parametrize(("query", "prefix"), NAMED_INDUSTRIES)
def test_a_named_industry_is_its_naics_class(query: str, prefix: str) -> None:
    found = find_industries(query)
    assert found, query
    assert found[0].code.startswith(prefix), (query, found)
    assert found[0].score == 1.0  # a lexicon hit is an understanding, not a guess
    assert found[0].title  # every class carries its NAICS title


def test_a_full_naics_title_names_exactly_that_class() -> None:
    found = find_industries("Other Motor Vehicle Parts Manufacturing")
    assert [m.code for m in found] == ["336390"]
    assert found[0].title == "Other Motor Vehicle Parts Manufacturing"


def test_reits_name_both_of_their_classes() -> None:
    assert [m.code for m in find_industries("REITs")] == ["525", "531"]


def test_matches_are_capped_by_limit() -> None:
    query = "banks insurers chipmakers drugmakers automakers utilities software"
    assert len(find_industries(query)) == 6
    assert [m.code for m in find_industries(query, limit=2)] == ["5221", "524"]


@pytest.mark.parametrize("query", ["companies", "firms", "top companies", "leading businesses"])
def test_generic_words_alone_name_no_industry(query: str) -> None:
    assert find_industries(query) == ()


@pytest.mark.parametrize("query", ["list of firms", "companies in", "the list of companies"])
def test_generic_words_with_stop_words_name_no_industry(query: str) -> None:
    """Function words left beside generic ones ("of", "in", "the") are no topic either.

    "companies in" is what ``understand`` leaves of "companies in Germany" once the place is taken
    out; an industry found there turns a place-only query into an industry query.
    """
    assert find_industries(query) == ()


def test_an_unknown_phrase_is_a_guess_at_most() -> None:
    found = find_industries("water heater")
    assert found == () or all(0 < m.score < 1 for m in found)


def test_a_chinese_query_without_a_known_industry_is_not_guessed() -> None:
    assert find_industries("公司名单") == ()


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("banks", "bank"),
        ("companies", "company"),
        ("refineries", "refinery"),
        ("glasses", "glass"),
        ("businesses", "business"),
        ("churches", "church"),
        ("boxes", "box"),
        ("wishes", "wish"),
        ("glass", "glass"),
        ("status", "status"),
        ("analysis", "analysis"),
        ("gas", "gas"),
        ("bus", "bus"),
        ("ties", "tie"),
        ("bank", "bank"),
    ],
)
def test_singular(token: str, expected: str) -> None:
    assert singular(token) == expected


def test_lexicon_hits_take_the_longest_phrase() -> None:
    assert lexicon_hits("investment bank") == [("investment bank", frozenset({"523"}))]
    assert lexicon_hits("Investment Banks") == [("investment bank", frozenset({"523"}))]
    assert lexicon_hits("a bank") == [("bank", frozenset({"5221"}))]


def test_lexicon_hits_do_not_overlap_and_keep_text_order() -> None:
    hits = lexicon_hits("investment bank and commercial bank in oil and gas")
    assert hits == [
        ("investment bank", frozenset({"523"})),
        ("commercial bank", frozenset({"5221"})),
        ("oil and gas", frozenset({"211"})),
    ]


def test_lexicon_hits_in_chinese_are_substrings() -> None:
    assert lexicon_hits("德国的银行") == [("银行", frozenset({"5221"}))]
    assert lexicon_hits("companies") == []


def test_classify_text_counts_the_first_part_double() -> None:
    assert classify_text("Hotels", "Banking") == [("721", 1.0), ("5221", 0.5)]
    assert classify_text("Banking", "Hotels") == [("5221", 1.0), ("721", 0.5)]
    # One passing mention does not outweigh the title; three do.
    assert classify_text("Hotels", "Guests may use the bank next door")[0] == ("721", 1.0)
    assert classify_text("Hotels", "banks, lenders and a savings bank") == [("5221", 1.0), ("721", 0.667)]


def test_classify_text_reads_a_company_page() -> None:
    """ "Chemicals" names one industry in five classes (not pharmaceuticals): each gets its full weight."""
    classes = classify_text("Chemicals", "Products: flavours and fragrances")
    assert classes[:5] == [(code, 1.0) for code in ("3251", "3252", "3253", "3255", "3259")]
    assert ("3256", 0.5) in classes


def test_classify_text_shares_a_broad_label_among_its_classes() -> None:
    classes = dict(classify_text("Machinery", "Industrials"))
    assert classes["333"] == 1.0
    assert all(weight < 0.1 for code, weight in classes.items() if code != "333")


def test_classify_text_gives_each_class_of_a_specific_phrase_its_weight() -> None:
    assert classify_text("REITs") == [("525", 1.0), ("531", 1.0)]
    # "reits" counts 2 for each of its classes (the first part counts double), "real estate" 1 more to 531.
    assert classify_text("REITs", "real estate") == [("531", 1.0), ("525", 0.667)]


def test_classify_text_keeps_the_strongest_few() -> None:
    text = "banks insurers hotels restaurants airlines shipping software hospitals schools farming"
    assert len(classify_text(text)) == DOCUMENT_CODES


def test_classify_text_without_hits_is_empty() -> None:
    assert classify_text("", "Nothing here names a trade.") == []
    assert classify_text() == []


@pytest.mark.parametrize(
    ("wanted", "found", "expected"),
    [
        ("5221", "5221", 1.0),  # same class
        ("5221", "522110", 1.0),  # the document's class is inside the wanted one
        ("522110", "5221", 0.6),  # the document's class is broader: likely, not certain
        ("325", "32", 0.6),
        ("5221", "5222", 0.4),  # siblings under the same 3-digit subsector
        ("3344", "334511", 0.4),
        ("5221", "5231", 0.15),  # same 2-digit sector only
        ("5221", "3344", 0.0),  # unrelated
        ("5221", "", 0.0),  # a document without a class
    ],
)
def test_affinity(wanted: str, found: str, expected: float) -> None:
    assert affinity(wanted, found) == expected


@pytest.mark.parametrize("query", ["manufacturing companies", "manufacturers in Germany", "制造业公司"])
def test_manufacturing_alone_names_the_whole_sector(query: str) -> None:
    assert [m.code for m in find_industries(query)] == ["31"]


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("food manufacturing companies", "311"),
        ("chemical manufacturers", "3251"),
        ("software manufacturers", "5132"),
    ],
)
def test_manufacturing_beside_an_industry_only_qualifies_it(query: str, code: str) -> None:
    assert find_industries(query)[0].code == code
    assert "31" not in [m.code for m in find_industries(query)]


@pytest.mark.parametrize(
    ("wanted", "found", "expected"),
    [("31", "3344", 1.0), ("31", "311", 1.0), ("44", "455", 1.0), ("48", "492", 1.0), ("3344", "33", 0.6)],
)
def test_a_ranged_sector_holds_every_code_of_its_range(wanted: str, found: str, expected: float) -> None:
    assert affinity(wanted, found) == expected


def test_sector_siblings_across_a_range_are_related_but_not_matches() -> None:
    assert 0 < affinity("3111", "3344") < 0.6
    assert affinity("5221", "3344") == 0.0
