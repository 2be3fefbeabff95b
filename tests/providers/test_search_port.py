"""The search port's own rules: request validation, text capping, domain matching."""

from __future__ import annotations

import pytest

from leadwire.domains import domain_matches, normalise_domain
from leadwire.providers.search import (
    TRUNCATION_MARKER,
    SearchRequest,
    SearchSource,
    cap_text,
)


def test_short_text_is_unchanged() -> None:
    assert cap_text("hello world", 100) == "hello world"


def test_text_at_the_limit_is_unchanged() -> None:
    assert cap_text("x" * 3000) == "x" * 3000


def test_long_text_ends_with_the_marker_within_the_limit() -> None:
    capped = cap_text("lorem ipsum " * 1000)
    assert capped.endswith(TRUNCATION_MARKER)
    assert len(capped) <= 3000
    assert TRUNCATION_MARKER == "...[truncated]"


def test_cut_prefers_a_word_boundary() -> None:
    capped = cap_text("alpha beta gamma delta epsilon", 26)
    assert capped == "alpha beta" + TRUNCATION_MARKER


def test_cjk_text_without_spaces_is_cut_at_the_limit() -> None:
    capped = cap_text("深" * 100, 30)
    assert capped == "深" * 16 + TRUNCATION_MARKER


def test_a_limit_smaller_than_the_marker_is_refused() -> None:
    with pytest.raises(ValueError):
        cap_text("abc", 5)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("Acme.Example", "acme.example"),
        ("https://www.acme.example/about", "acme.example"),
        ("acme.example:443", "acme.example"),
        (" news.acme.example. ", "news.acme.example"),
    ],
)
def test_domains_are_normalised(given: str, expected: str) -> None:
    assert normalise_domain(given, strict=False) == expected


def test_subdomains_match_but_lookalikes_do_not() -> None:
    assert domain_matches("news.acme.example", ["acme.example"])
    assert domain_matches("ACME.example", ["acme.example"])
    assert not domain_matches("notacme.example", ["acme.example"])
    assert not domain_matches("acme.example.evil", ["acme.example"])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"query": " "},
        {"query": "q", "limit": 0},
        {"query": "q", "limit": 11},
        {"query": "q", "category": "pdf"},
        {"query": "q", "user_location": "USA"},
    ],
)
def test_invalid_requests_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SearchRequest(**kwargs)  # type: ignore[arg-type]


def test_source_serialises_in_the_api_shape() -> None:
    source = SearchSource(url="https://a.example/", title="A", highlights=["h"], text="t")
    assert source.as_dict() == {
        "url": "https://a.example/",
        "title": "A",
        "published_date": None,
        "author": None,
        "image": None,
        "highlights": ["h"],
        "text": "t",
    }
