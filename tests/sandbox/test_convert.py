"""Converting a loose company list into ingest files: values read the way people write them, rows
skipped with their line and reason, and the `leadwire ingest convert` command end to end (convert,
ingest both files, find the company by search)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from leadwire.cli import app
from leadwire.sandbox.convert import (
    company_page,
    company_row,
    convert_file,
    convert_records,
    parse_employees,
    parse_founded,
)
from leadwire.sandbox.ingest import ingest
from leadwire.search.index import LocalSearchIndex
from leadwire.search.types import SearchRequest

LAKESHORE: dict[str, Any] = {
    "name": "Lakeshore Heating",
    "headquarters": "Madison, Wisconsin , US",
    "website": "www.lakeshoreheating.com",
    "industries": ["Water heaters", " Boilers ", "Water heaters"],
    "products": ["water heaters", "boilers", "water treatment"],
    "employees": "12,700 (2024)",
    "founded": "1881 ; 145 years ago ( 1881 ) in Madison",
    "description": "Makes residential and commercial water heaters and boilers.",
}


def _jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("12,700 (2024)", 12700),
        ("c. 115,000 (2025)", 115000),
        ("approx. 3 500", 3500),
        ("3.500", 3500),
        ("about 250 employees", 250),
        (12700, 12700),
        (None, None),
        ("", None),
        ("n/a", None),
        ("(2024)", None),
        ("0", None),
        (12700.0, 12700),
        ("2.5k", 2500),
        ("1.2 million", 1200000),
        ("c. 3 million", 3000000),
    ],
)
def test_parse_employees(value: object, expected: int | None) -> None:
    assert parse_employees(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1881 ; 145 years ago ( 1881 ) in Madison", 1881),
        ("Founded in 1990 in Tokyo", 1990),
        (1990, 1990),
        ("2099", None),
        ("2099, refounded 1950", 1950),
        ("long ago", None),
        (None, None),
        ("", None),
    ],
)
def test_parse_founded(value: object, expected: int | None) -> None:
    assert parse_founded(value) == expected


def test_company_row_reads_every_field() -> None:
    row, reason = company_row(LAKESHORE)
    assert reason == ""
    assert row == {
        "domain": "lakeshoreheating.com",
        "name": "Lakeshore Heating",
        "country": "US",
        "industry": "Water heaters; Boilers",
        "employees": 12700,
        "founded_year": 1881,
        "city": "Madison",
        "description": "Makes residential and commercial water heaters and boilers.",
    }


@pytest.mark.parametrize(
    ("location", "country"),
    [
        ({"headquarters": "Madison, Wisconsin , US"}, "US"),
        ({"country_or_hq": "Lucerne, Switzerland"}, "CH"),
        ({"country": "de"}, "DE"),
        ({"country": "DEU"}, "DE"),
        ({"location": "Tokyo, Japan"}, "JP"),
        # The first location field that resolves wins.
        ({"country": "Atlantis", "headquarters": "Lyon, France"}, "FR"),
    ],
)
def test_company_row_reads_the_country_from_any_location_field(
    location: dict[str, str], country: str
) -> None:
    row, _ = company_row({"name": "Example Corp", **location})
    assert row is not None and row["country"] == country


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"name": "Nowhere Ltd"}, "no country could be read from its location fields"),
        (
            {"name": "Atlantis Ltd", "country": "Atlantis"},
            "no country could be read from its location fields",
        ),
        ({"country": "DE", "website": "example.de"}, "no name"),
        ({"name": "   ", "country": "DE"}, "no name"),
    ],
)
def test_company_row_skips_a_row_with_its_reason(raw: dict[str, Any], reason: str) -> None:
    assert company_row(raw) == (None, reason)


@pytest.mark.parametrize(
    ("website", "domain"),
    [
        ("www.lakeshoreheating.com", "lakeshoreheating.com"),
        ("https://www.rhinesteel.com/de/", "rhinesteel.com"),
        ("LAKESHOREHEATING.COM", "lakeshoreheating.com"),
        (None, "rhine-steel-ag.example"),
        ("", "rhine-steel-ag.example"),
        ("not a website", "rhine-steel-ag.example"),
    ],
)
def test_company_row_domain(website: str | None, domain: str) -> None:
    row, _ = company_row({"name": "Rhine Steel AG", "country": "DE", "website": website})
    assert row is not None and row["domain"] == domain


def test_company_row_accepts_domain_as_the_website_field() -> None:
    row, _ = company_row({"name": "Rhine Steel AG", "country": "DE", "domain": "rhinesteel.com"})
    assert row is not None and row["domain"] == "rhinesteel.com"


def test_company_page_says_what_where_since_when_how_big() -> None:
    row, _ = company_row(LAKESHORE)
    assert row is not None
    page = company_page(row, LAKESHORE)
    assert page["url"] == "https://lakeshoreheating.com/"
    assert page["category"] == "company"
    assert page["title"] == "Lakeshore Heating"
    assert page["company_domain"] == "lakeshoreheating.com" and page["country"] == "US"
    text = page["text"]
    assert text.startswith("Lakeshore Heating. Industry: Water heaters; Boilers.")
    assert "Products and services: water heaters, boilers, water treatment." in text
    assert "Headquarters: Madison, Wisconsin , US." in text
    assert "Founded in 1881." in text and "About 12,700 employees." in text
    assert text.endswith("Makes residential and commercial water heaters and boilers.")


def test_convert_records_skips_duplicates_and_non_objects_by_line() -> None:
    conversion = convert_records(
        [
            (1, {"name": "Rhine Steel AG", "country": "DE", "website": "rhinesteel.com"}),
            (2, None),
            (4, {"name": "Rhine Steel Germany", "country": "DE", "website": "https://www.rhinesteel.com/"}),
            (5, {"name": "Nowhere Ltd"}),
            (6, {"name": "Alpine Metals Trading", "country_or_hq": "Lucerne, Switzerland"}),
        ]
    )
    assert [c["domain"] for c in conversion.companies] == ["rhinesteel.com", "alpine-metals-trading.example"]
    assert [d["company_domain"] for d in conversion.documents] == [c["domain"] for c in conversion.companies]
    assert conversion.skipped == [
        (2, "not a JSON object"),
        (4, "domain rhinesteel.com already given on an earlier line"),
        (5, "no country could be read from its location fields"),
    ]


def test_convert_file_numbers_lines_and_skips_what_is_not_an_object(tmp_path: Path) -> None:
    source = tmp_path / "loose.jsonl"
    source.write_text(
        json.dumps({"name": "Rhine Steel AG", "country": "DE"})
        + "\n\n"  # a blank line is not a row, but it is a line
        + "{not json\n"
        + json.dumps(["a", "list"])
        + "\n"
        + json.dumps({"name": "Alpine Metals Trading", "country_or_hq": "Lucerne, Switzerland"})
        + "\n",
        encoding="utf-8",
    )
    conversion = convert_file(source)
    assert [c["name"] for c in conversion.companies] == ["Rhine Steel AG", "Alpine Metals Trading"]
    assert conversion.skipped == [(3, "not a JSON object"), (4, "not a JSON object")]


def test_convert_command_then_ingest_makes_the_company_searchable(tmp_path: Path) -> None:
    source = _jsonl(
        tmp_path / "loose.jsonl",
        [
            LAKESHORE,
            {"name": "Nowhere Ltd", "industry": "Widgets"},
            {**LAKESHORE, "name": "Lakeshore Heating Corp"},  # the same website again
            {
                "name": "Alpine Metals Trading",
                "country_or_hq": "Lucerne, Switzerland",
                "industries": "Mining; Commodity trading",
                "employees": "c. 150,000 (2023)",
            },
        ],
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["ingest", "convert", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    companies, documents = out / "companies.jsonl", out / "documents.jsonl"
    assert summary == {
        "companies": 2,
        "documents": 2,
        "skipped": [
            {"line": 2, "reason": "no country could be read from its location fields"},
            {"line": 3, "reason": "domain lakeshoreheating.com already given on an earlier line"},
        ],
        "files": [str(companies), str(documents)],
    }

    world = tmp_path / "world"
    for kind, path in (("companies", companies), ("documents", documents)):
        report = ingest(world, kind, path)
        assert report.accepted, report.errors
        assert report.inserted == 2

    found = LocalSearchIndex(world).search(SearchRequest(query="water heaters Madison", limit=5))
    assert found and found[0].url == "https://lakeshoreheating.com/"
    found = LocalSearchIndex(world).search(SearchRequest(query="mining companies in Switzerland", limit=5))
    assert found and found[0].url == "https://alpine-metals-trading.example/"


def test_convert_command_fails_on_a_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["ingest", "convert", str(tmp_path / "absent.jsonl"), "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 1
    assert "no such file" in result.stderr
    assert not (tmp_path / "out").exists()


def test_companies_without_a_website_and_a_name_in_another_script_stay_apart() -> None:
    conversion = convert_records(
        [
            (1, {"name": "中国银行", "country_or_hq": "Beijing, China"}),
            (2, {"name": "招商银行", "country_or_hq": "Shenzhen, China"}),
        ]
    )
    domains = [c["domain"] for c in conversion.companies]
    assert conversion.skipped == [] and len(set(domains)) == 2
    assert all(d.startswith("company-") and d.endswith(".example") for d in domains)
