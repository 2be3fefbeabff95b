"""Company size, founding year, HS codes and products understood in a query (English and Chinese)."""

from __future__ import annotations

from datetime import date

import pytest

from leadwire.search.understand.attributes import CompanyAttributes, find_company_attributes
from leadwire.search.understand.types import Range

TODAY = date(2025, 6, 1)  # ages ("5 years old") and "startup" count back from this year


@pytest.mark.parametrize(
    ("query", "employees", "rest"),
    [
        (
            "software companies with more than 500 employees in Germany",
            Range(501, None),
            "software companies in Germany",
        ),
        ("over 1,000 staff", Range(1001, None), ""),
        ("logistics firms with 50-200 employees", Range(50, 200), "logistics firms"),
        ("between 10 and 50 employees", Range(10, 50), ""),
        ("agencies with fewer than 50 people", Range(None, 49), "agencies"),
        ("up to 20 employees", Range(None, 20), ""),
        ("at least 10k employees", Range(10_000, None), ""),
        ("1000+ employees", Range(1000, None), ""),
        ("banks 5k+", Range(5000, None), "banks"),
        ("headcount 200-500", Range(200, 500), ""),
        ("small companies", Range(None, 49), "companies"),
        ("mid-sized manufacturers", Range(50, 249), "manufacturers"),
        ("medium sized businesses", Range(50, 249), "businesses"),
        ("small and medium-sized enterprises", Range(None, 249), "enterprises"),
        ("SMEs in France", Range(None, 249), "in France"),
        ("mid-market SaaS", Range(100, 999), "SaaS"),
        ("large companies", Range(250, None), "companies"),
        ("enterprise customers", Range(1000, None), "customers"),
        ("fintech startups in Berlin", Range(None, 200), "fintech in Berlin"),
        ("员工超过500人的公司", Range(501, None), "公司"),
        ("员工少于50人", Range(None, 49), ""),
        ("员工50-200人", Range(50, 200), ""),
        ("500人以上企业", Range(500, None), "企业"),
        ("中小企业", Range(None, 249), "企业"),
        ("大型企业", Range(250, None), "企业"),
        # Explicit figures win over a size word.
        ("small companies with fewer than 10 employees", Range(None, 9), "companies"),
        # Not sizes.
        ("top 500 companies", None, "top 500 companies"),  # a bare number is not a size
        ("500 Startups", None, "500 Startups"),  # a number before "startups" reads as a name
        ("enterprise software companies", None, "enterprise software companies"),  # a topic, not a size
        ("small engines", None, "small engines"),  # "small" only sizes a company noun
    ],
)
def test_employees(query: str, employees: Range | None, rest: str) -> None:
    found = find_company_attributes(query, today=TODAY)
    assert (found.employees, found.rest) == (employees, rest)


@pytest.mark.parametrize(
    ("query", "founded", "rest"),
    [
        ("software companies founded after 2010", Range(2011, None), "software companies"),
        ("founded in 1998", Range(1998, 1998), ""),
        ("banks established before 1950", Range(None, 1949), "banks"),
        ("companies that were founded before 1900", Range(None, 1899), "companies"),
        ("breweries since 2015", Range(2015, None), "breweries"),
        ("founded in the 1990s", Range(1990, 1999), ""),
        ("breweries founded in the 90s", Range(1990, 1999), "breweries"),
        ("founded between 2000 and 2005", Range(2000, 2005), ""),
        ("companies less than 5 years old", Range(2021, None), "companies"),
        ("founded in the last 3 years", Range(2022, None), ""),
        ("wineries older than 100 years", Range(None, 1924), "wineries"),
        ("at least 50 years old", Range(None, 1975), ""),
        ("fintech startups", Range(2015, None), "fintech"),  # a startup is at most 10 years old
        ("startups founded in 2005", Range(2005, 2005), ""),  # an explicit year wins over "startup"
        ("成立于2010年以后的软件公司", Range(2010, None), "软件公司"),  # 以后 includes the year, as 以上 does
        ("2015年之后成立的公司", Range(2016, None), "公司"),
        ("成立于1998年", Range(1998, 1998), ""),
        ("成立不到5年", Range(2021, None), ""),
        # Not founding constraints.
        ("2010 annual report", None, "2010 annual report"),
        ("revenue 2020", None, "revenue 2020"),
    ],
)
def test_founded(query: str, founded: Range | None, rest: str) -> None:
    found = find_company_attributes(query, today=TODAY)
    assert (found.founded, found.rest) == (founded, rest)


def test_size_and_founding_together_leave_the_topic() -> None:
    found = find_company_attributes(
        "companies founded after 2010 and with more than 500 employees in Germany", today=TODAY
    )
    assert found == CompanyAttributes(
        rest="companies in Germany", employees=Range(501, None), founded=Range(2011, None)
    )


def test_the_clock_defaults_to_today() -> None:
    found = find_company_attributes("companies less than 5 years old")
    assert found.founded == Range(date.today().year - 4, None)


@pytest.mark.parametrize(
    ("query", "codes", "rest"),
    [
        ("HS 8471", ("8471",), ""),
        ("exporters HS code 850760", ("850760",), "exporters"),
        ("hs8542", ("8542",), ""),
        ("HS-codes 8471, 8473 and 8542", ("8471", "8473", "8542"), ""),
        ("HS 8471.30", ("847130",), ""),
        ("HTS 8471300000", ("8471300000",), ""),
        ("海关编码8471", ("8471",), ""),
        ("HS编码 847130 出口商", ("847130",), "出口商"),
        # Not HS codes: an odd length, or no HS word.
        ("HS 847", (), "HS 847"),
        ("8471 laptops", (), "8471 laptops"),
    ],
)
def test_hs_codes(query: str, codes: tuple[str, ...], rest: str) -> None:
    found = find_company_attributes(query, today=TODAY)
    assert (found.hs_codes, found.rest) == (codes, rest)


@pytest.mark.parametrize(
    ("query", "products", "rest"),
    [
        (
            "exporters of lithium batteries in China",
            ("lithium batteries",),
            "exporters of lithium batteries in China",
        ),
        ("importers of coffee with more than 50 employees", ("coffee",), "importers of coffee"),
        ("suppliers of auto parts, founded since 2000", ("auto parts",), "suppliers of auto parts"),
        ("manufacturers of the steel pipes and other products", ("steel pipes",), None),
        ("exporters of coffee and tea", ("coffee and tea",), None),
        ("Manufacturers of solar panels that export to Europe", ("solar panels",), None),
        ("coffee exporters", (), None),  # only the "X of Y" form names a product
    ],
)
def test_products(query: str, products: tuple[str, ...], rest: str | None) -> None:
    found = find_company_attributes(query, today=TODAY)
    assert found.products == products
    assert found.rest == (query if rest is None else rest)  # the product is the topic: it stays
