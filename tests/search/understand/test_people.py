"""Roles, departments and seniority bands a query asks for (English and Chinese)."""

from __future__ import annotations

import pytest

from leadwire.search.understand.people import find_people_terms


@pytest.mark.parametrize(
    ("query", "roles", "departments", "seniorities"),
    [
        ("CTOs at fintech startups in Berlin", ("CTO",), ("engineering",), ("c_level",)),
        ("CEO's email", ("CEO",), ("executive",), ("c_level",)),
        ("head of sales", ("head of sales",), ("sales",), ("director",)),
        ("heads of the marketing", ("head of marketing",), ("marketing",), ("director",)),
        ("VP engineering", ("VP engineering",), ("engineering",), ("vp",)),
        ("vice presidents of finance", ("vice president of finance",), ("finance",), ("vp",)),
        ("procurement managers in Germany", ("procurement manager",), ("procurement",), ("manager",)),
        ("senior sales managers", ("senior sales manager",), ("sales",), ("manager",)),
        ("IT managers", ("IT manager",), ("it",), ("manager",)),
        ("HR directors", ("HR director",), ("hr",), ("director",)),
        ("R&D directors", ("R&D director",), ("engineering",), ("director",)),
        ("chief revenue officers", ("chief revenue officer",), ("sales",), ("c_level",)),
        ("founders of SaaS companies", ("founder",), ("executive",), ("c_level",)),
        ("co-founders", ("co-founder",), ("executive",), ("c_level",)),
        ("managing directors of family businesses", ("managing director",), ("executive",), ("c_level",)),
        (
            "VPs of Sales and heads of marketing",
            ("VP of sales", "head of marketing"),
            ("sales", "marketing"),
            ("vp", "director"),
        ),
        (
            "product managers and UX leads",
            ("product manager", "UX lead"),
            ("product",),
            ("manager", "senior"),
        ),
        ("C-level executives at banks", (), (), ("c_level",)),  # a band, not a title
        ("directors at logistics firms", ("director",), (), ("director",)),
        ("首席技术官", ("首席技术官",), ("engineering",), ("c_level",)),
        ("深圳的销售总监", ("销售总监",), ("sales",), ("director",)),
        ("采购经理", ("采购经理",), ("procurement",), ("manager",)),
        ("市场部经理", ("市场部经理",), ("marketing",), ("manager",)),
        ("找采购的总经理", ("总经理",), ("executive",), ("c_level",)),
        ("創始人", ("创始人",), ("executive",), ("c_level",)),  # traditional script too
        (
            "找财务总监和人力资源经理",
            ("财务总监", "人力资源经理"),
            ("finance", "hr"),
            ("director", "manager"),
        ),
        # Not roles.
        ("film directors", (), (), ()),  # a level word after another word is part of a name or trade
        ("asset managers in London", (), (), ()),
        ("marketing lead generation agencies", (), (), ()),
        ("software companies in Germany", (), (), ()),
        ("it is a company", (), (), ()),
    ],
)
def test_people_terms(
    query: str, roles: tuple[str, ...], departments: tuple[str, ...], seniorities: tuple[str, ...]
) -> None:
    found = find_people_terms(query)
    assert (found.roles, found.departments, found.seniorities) == (roles, departments, seniorities)


def test_people_words_stay_in_rest() -> None:
    assert find_people_terms("  CTOs   at fintech\tstartups ").rest == "CTOs at fintech startups"
