"""Position keywords against English and Chinese job titles."""

from __future__ import annotations

import pytest

from leadwire.providers.positions import title_matches


@pytest.mark.parametrize(
    ("keyword", "title", "title_zh"),
    [
        ("sales", "VP of Sales", None),
        ("SALES", "Sales Representative", None),
        ("vp sales", "Vice President, Sales", None),
        ("engineering", "Senior Software Engineer", None),
        ("engineer", "Director of Engineering", None),
        ("ceo", "Founder & CEO", None),
        ("chief executive officer", "CEO", None),
        ("hr", "Chief Human Resources Officer", None),
        ("销售", "Sales Director", "销售总监"),
        ("sales", "", "销售总监"),
        ("engineering", "", "工程副总裁"),
        ("marketing", "", "市场经理"),
        ("finance", "", "首席财务官"),
        ("ceo", "", "总经理"),
        ("cto", "", "首席技术官"),
        ("procurement", "", "采购专员"),
        ("operations", "", "运营总监"),
        ("hr", "", "人力资源经理"),
        ("sales director", "", "销售总监"),
        ("销售总监", "Sales Director", None),
        ("首席技术官", "CTO", None),
        ("采购", "Purchasing Manager", None),
        ("销售", "销售代表", None),
        ("销售", "", "銷售總監"),
        ("sales", "", "銷售總監"),
        ("銷售", "Sales Director", None),
        ("procurement", "", "採購專員"),
    ],
)
def test_keyword_matches_title(keyword: str, title: str, title_zh: str | None) -> None:
    assert title_matches([keyword], title, title_zh)


@pytest.mark.parametrize(
    ("keyword", "title", "title_zh"),
    [
        ("marketing", "VP of Sales", "销售副总裁"),
        ("hr", "Three Sigma Analyst", None),
        ("sales director", "Sales Representative", "销售代表"),
        ("财务", "Sales Manager", "销售经理"),
        ("cto", "Chief Financial Officer", "首席财务官"),
    ],
)
def test_keyword_does_not_match_unrelated_title(keyword: str, title: str, title_zh: str | None) -> None:
    assert not title_matches([keyword], title, title_zh)


def test_no_positions_matches_everything() -> None:
    assert title_matches([], "Anything", None)
    assert title_matches(["", "  "], None, None)


def test_any_keyword_is_enough() -> None:
    assert title_matches(["legal", "finance"], "Financial Analyst", None)
