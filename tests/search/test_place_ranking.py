"""Places and industries in queries, on a small hand-built world where the right answer is known.

The world is made the way a user makes one: companies.jsonl and documents.jsonl ingested into an
empty directory (which creates the world and builds its search index). Some companies carry a
NAICS code, others only an industry label, so both ways a page gets its classes are exercised.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from leadwire.sandbox.ingest import ingest
from leadwire.search.index import LocalSearchIndex
from leadwire.search.types import SearchRequest

DACH = {"DE", "AT", "CH"}


@dataclass(frozen=True)
class Co:
    domain: str
    name: str
    country: str
    kind: str  # what the test knows the company is: bank, chemicals, chips, hotel, ...
    text: str
    industry: str | None = None  # the company's own label
    industry_code: str | None = None
    employees: int | None = None
    founded_year: int | None = None


COMPANIES = [
    # Banks: Germany, Austria, Switzerland, France, US.
    Co(
        "hanse-commercial.example",
        "Hanse Commercial Bank AG",
        "DE",
        "bank",
        "Hanse Commercial Bank is a commercial bank headquartered in Hamburg, Germany. "
        "It serves small and mid-sized companies with loans, deposits and payments.",
        industry_code="522110",
        employees=12_000,
        founded_year=1870,
    ),
    Co(
        "rheinland-sparkasse.example",
        "Rheinland Sparkasse",
        "DE",
        "bank",
        "Industry: Savings bank. Headquarters: Cologne, Germany. Private and business customers "
        "across the Rhineland.",
        industry="Savings bank",
        employees=800,
        founded_year=1952,
    ),
    Co(
        "bayerische-kreditbank.example",
        "Bayerische Kreditbank",
        "DE",
        "bank",
        "Industry: Banking. Retail bank with 80 branches in Bavaria. Headquarters: Munich, Germany.",
        industry="Banking",
    ),
    Co(
        "wiener-landesbank.example",
        "Wiener Landesbank",
        "AT",
        "bank",
        "Industry: Banking. Regional bank for Vienna and Lower Austria. Headquarters: Vienna, Austria.",
        industry="Banking",
    ),
    Co(
        "alpen-privatbank.example",
        "Alpen Privatbank",
        "CH",
        "bank",
        "Alpen Privatbank is a Swiss bank offering private banking and deposits. Headquarters: Zurich.",
        industry_code="522110",
    ),
    Co(
        "lemanbank.example",
        "Banque du Léman",
        "CH",
        "bank",
        "Industry: Banking. Cantonal bank for the Lake Geneva region. Headquarters: Geneva, Switzerland.",
        industry="Banking",
    ),
    Co(
        "banque-lyonnaise.example",
        "Banque Lyonnaise",
        "FR",
        "bank",
        "Industry: Banking. Retail bank in the Auvergne-Rhône-Alpes region. Headquarters: Lyon, France.",
        industry="Banking",
    ),
    Co(
        "credit-parisien.example",
        "Crédit Parisien",
        "FR",
        "bank",
        "Crédit Parisien is a lender to households and small firms. Headquarters: Paris, France.",
        industry_code="522110",
    ),
    Co(
        "great-lakes-bancorp.example",
        "Great Lakes Bancorp",
        "US",
        "bank",
        "Industry: Banking. A regional bank with branches in Michigan and Ohio. Headquarters: Detroit.",
        industry="Banking",
    ),
    Co(
        "hudson-valley-bank.example",
        "Hudson Valley Bank",
        "US",
        "bank",
        "Hudson Valley Bank is a community bank in upstate New York.",
        industry_code="522110",
    ),
    # Swiss chemicals: one says only "flavours and fragrances" beside its industry label.
    Co(
        "aromatique.example",
        "Aromatique SA",
        "CH",
        "chemicals",
        "Aromatique SA. Industry: Chemicals. Products: flavours and fragrances. Headquarters: Vernier, "
        "Geneva.",
        industry="Chemicals",
    ),
    Co(
        "rheintal-chemie.example",
        "Rheintal Chemie AG",
        "CH",
        "chemicals",
        "Rheintal Chemie AG makes specialty chemicals for coatings and textiles. Headquarters: Basel.",
        industry="Specialty chemicals",
    ),
    # German chemicals.
    Co(
        "rhein-chemiewerke.example",
        "Rhein Chemiewerke",
        "DE",
        "chemicals",
        "Industry: Chemicals. Petrochemicals and industrial gases. Headquarters: Ludwigshafen, Germany.",
        industry="Chemicals",
    ),
    Co(
        "saxonia-chemicals.example",
        "Saxonia Chemicals GmbH",
        "DE",
        "chemicals",
        "Saxonia Chemicals produces commodity chemicals in Leuna, Germany.",
        industry_code="325199",
    ),
    # A US chemical company: chemicals, but not Swiss.
    Co(
        "gulfcoast-chemical.example",
        "Gulf Coast Chemical Corp",
        "US",
        "chemicals",
        "Industry: Chemicals. A chemical company in Houston, Texas.",
        industry="Chemicals",
    ),
    # Chips: a Japanese maker that says only "Semiconductors", and a US chipmaker that says "chipmaker".
    Co(
        "kanto-devices.example",
        "Kanto Devices",
        "JP",
        "chips",
        "Kanto Devices. Industry: Semiconductors. Headquarters: Kawasaki, Kanagawa.",
        industry="Semiconductors",
    ),
    Co(
        "silicon-prairie.example",
        "Silicon Prairie Inc",
        "US",
        "chips",
        "Silicon Prairie is a chipmaker; its Japanese customers buy its chips for cars.",
        industry="Chipmaker",
    ),
    # Other Japanese companies: Japan has pages, but no bank.
    Co(
        "mikawa-motors.example",
        "Mikawa Motors",
        "JP",
        "cars",
        "Industry: Automobiles. Mikawa Motors is a Japanese carmaker in Toyota City, Aichi.",
        industry="Automobiles",
    ),
    Co(
        "sakura-hotels.example",
        "Sakura Hotels",
        "JP",
        "hotel",
        "Industry: Hotels. Business hotels across Japan.",
        industry="Hotels",
    ),
    # Others in the named places.
    Co(
        "bellevue-zermatt.example",
        "Hotel Bellevue Zermatt",
        "CH",
        "hotel",
        "Hotel Bellevue is a hotel in Zermatt, Switzerland, with views of the Matterhorn. Swiss hospitality "
        "since 1890.",
        industry="Hotels",
    ),
    Co(
        "nordsoft.example",
        "Nordsoft GmbH",
        "DE",
        "software",
        "Industry: Software. Enterprise software for German manufacturers. Headquarters: Berlin, Germany.",
        industry="Software",
    ),
    Co(
        "schwaben-auto.example",
        "Schwaben Automobilwerke",
        "DE",
        "cars",
        "Schwaben Automobilwerke is a German carmaker in Stuttgart, Germany.",
        industry_code="336110",
    ),
    Co(
        "lyon-cosmetiques.example",
        "Lyon Cosmétiques",
        "FR",
        "cosmetics",
        "Industry: Cosmetics. Skincare and fragrances. Headquarters: Lyon, France.",
        industry="Cosmetics",
    ),
    # US firms of other industries whose pages repeat the words of other queries.
    Co(
        "meridian-research.example",
        "Meridian Research LLC",
        "US",
        "research",
        "Meridian Research. Market research for investors. Headquarters: Boston, Massachusetts.",
        industry_code="541910",
    ),
    Co(
        "atlas-advisory.example",
        "Atlas Advisory Partners",
        "US",
        "research",
        "Atlas Advisory Partners. Management consulting. Headquarters: Chicago, Illinois.",
        industry_code="541611",
    ),
]

# Pages beyond the home pages: a report by a US firm about Swiss chemicals that repeats the
# words, and one about German banks.
EXTRA_PAGES: list[dict[str, object]] = [
    {
        "url": "https://meridian-research.example/reports/switzerland-chemicals",
        "category": "financial report",
        "title": "Switzerland chemical industry outlook: Swiss chemical companies in Switzerland",
        "text": " ".join(
            [
                "Switzerland chemical companies. Chemical exports from Switzerland grew. "
                "Swiss chemical makers in Switzerland and the chemical cluster of Switzerland."
            ]
            * 8
        ),
        "company_domain": "meridian-research.example",
    },
    {
        "url": "https://atlas-advisory.example/insights/german-banks",
        "category": "news",
        "title": "German banks in Germany: what German banks must do",
        "text": " ".join(
            ["Banks in Germany face margin pressure. German banks and banking in Germany, banks, banks."] * 8
        ),
        "company_domain": "atlas-advisory.example",
    },
]
US_DECOYS = {str(page["url"]) for page in EXTRA_PAGES}

BY_URL: dict[str, Co] = {f"https://{co.domain}/": co for co in COMPANIES}
for _page in EXTRA_PAGES:
    BY_URL[str(_page["url"])] = next(co for co in COMPANIES if co.domain == _page["company_domain"])


def _company_row(co: Co) -> dict[str, object]:
    row: dict[str, object] = {"domain": co.domain, "name": co.name, "country": co.country}
    if co.industry:
        row["industry"] = co.industry
    if co.industry_code:
        row["industry_code"] = co.industry_code
    if co.employees is not None:
        row["employees"] = co.employees
    if co.founded_year is not None:
        row["founded_year"] = co.founded_year
    return row


def _home_page(co: Co) -> dict[str, object]:
    return {
        "url": f"https://{co.domain}/",
        "category": "company",
        "title": co.name,
        "text": co.text,
        "company_domain": co.domain,
    }


def _jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> LocalSearchIndex:
    root = tmp_path_factory.mktemp("place-ranking")
    world = root / "world"
    companies = _jsonl(root / "companies.jsonl", [_company_row(co) for co in COMPANIES])
    documents = _jsonl(root / "documents.jsonl", [*map(_home_page, COMPANIES), *EXTRA_PAGES])
    for kind, path in (("companies", companies), ("documents", documents)):
        report = ingest(world, kind, path)
        assert report.accepted, report.errors
    return LocalSearchIndex(world)


def search(index: LocalSearchIndex, query: str, limit: int = 10) -> list[Co]:
    return [BY_URL[s.url] for s in index.search(SearchRequest(query=query, limit=limit))]


def urls(index: LocalSearchIndex, query: str, limit: int = 10) -> list[str]:
    return [s.url for s in index.search(SearchRequest(query=query, limit=limit))]


def leading(found: list[Co], kind: str) -> list[Co]:
    """The results before the first one that is not of ``kind``."""
    out: list[Co] = []
    for co in found:
        if co.kind != kind:
            break
        out.append(co)
    return out


@pytest.mark.parametrize("query", ["banks in Germany", "German banks", "Banks in Germany"])
def test_banks_in_germany_are_german_banks_only(index: LocalSearchIndex, query: str) -> None:
    found = search(index, query)
    german_banks = {co.domain for co in COMPANIES if co.kind == "bank" and co.country == "DE"}
    assert found, query
    assert {co.country for co in found} == {"DE"}, [(co.name, co.country) for co in found]
    assert {co.domain for co in leading(found, "bank")} == german_banks
    assert not US_DECOYS & set(urls(index, query))


@pytest.mark.parametrize("query", ["banks in the DACH region", "DACH banks"])
def test_dach_banks_come_from_germany_austria_and_switzerland(index: LocalSearchIndex, query: str) -> None:
    found = search(index, query)
    dach_banks = {co.domain for co in COMPANIES if co.kind == "bank" and co.country in DACH}
    assert {co.country for co in found} <= DACH, [(co.name, co.country) for co in found]
    assert {co.domain for co in leading(found, "bank")} == dach_banks
    assert "bellevue-zermatt.example" not in {co.domain for co in found}  # a Swiss hotel is no bank


def test_the_us_page_repeating_the_words_does_not_outrank_german_banks(index: LocalSearchIndex) -> None:
    found = urls(index, "German banks")
    assert "https://atlas-advisory.example/insights/german-banks" not in found


def test_chemical_companies_in_switzerland_include_the_flavours_maker(index: LocalSearchIndex) -> None:
    found = search(index, "chemical companies in Switzerland")
    swiss_chemicals = {"aromatique.example", "rheintal-chemie.example"}
    assert {co.domain for co in found[:2]} == swiss_chemicals, [co.name for co in found]
    assert {co.country for co in found} == {"CH"}, [(co.name, co.country) for co in found]
    assert "https://meridian-research.example/reports/switzerland-chemicals" not in urls(
        index, "chemical companies in Switzerland"
    )


def test_japanese_chipmakers_finds_the_page_that_says_semiconductors(index: LocalSearchIndex) -> None:
    found = search(index, "Japanese chipmakers")
    assert found and found[0].domain == "kanto-devices.example", [co.name for co in found]
    assert "silicon-prairie.example" not in {co.domain for co in found}  # a US chipmaker


def test_a_place_without_an_answering_page_still_returns_banks(index: LocalSearchIndex) -> None:
    found = search(index, "banks in Japan")
    assert found, "a place with no bank must not empty the answer"
    assert found[0].kind == "bank", [co.name for co in found]
    assert any(co.kind == "bank" and co.country != "JP" for co in found)


def test_a_chinese_query_for_german_banks(index: LocalSearchIndex) -> None:
    found = search(index, "银行 德国")
    german_banks = {co.domain for co in COMPANIES if co.kind == "bank" and co.country == "DE"}
    assert {co.domain for co in leading(found, "bank")} == german_banks, [
        (co.name, co.country) for co in found
    ]
    assert {co.country for co in found} == {"DE"}


def test_banks_alone_rank_banks_of_every_country_first(index: LocalSearchIndex) -> None:
    """Ten banks, ten results: all of them, from every country, and no page of another industry.

    Crédit Parisien says "lender", not "bank"; its class (NAICS 522110) says what it is. The
    consultancy's report says "banks" ten times but is no bank.
    """
    banks = {co.domain for co in COMPANIES if co.kind == "bank"}
    assert len(banks) == 10
    found = search(index, "banks")
    assert {co.domain for co in found} == banks, [co.name for co in found]
    assert {co.country for co in found} == {"DE", "AT", "CH", "FR", "US"}


def test_a_place_only_query_is_not_read_as_an_industry() -> None:
    """What is left of "firms in Germany" once the place is out ("firms in") names no industry."""
    from leadwire.search.understand import understand

    for query in ("companies in Germany", "firms in Germany", "list of companies in Germany"):
        assert understand(query).industries == (), query


@pytest.mark.parametrize(
    ("query", "country"),
    [
        ("companies in Germany", "DE"),
        ("firms in Germany", "DE"),
        ("list of companies in Germany", "DE"),
        ("businesses in Switzerland", "CH"),
    ],
)
def test_companies_in_a_country_are_that_countrys_companies(
    index: LocalSearchIndex, query: str, country: str
) -> None:
    found = search(index, query)
    assert found
    assert {co.country for co in found} == {country}, [(co.name, co.country) for co in found]


def test_size_and_founding_named_in_the_query_filter_to_companies_known_to_fit(
    index: LocalSearchIndex,
) -> None:
    assert [co.domain for co in search(index, "German banks with more than 5,000 employees")] == [
        "hanse-commercial.example"
    ]
    assert [co.domain for co in search(index, "German banks founded after 1900")] == [
        "rheinland-sparkasse.example"
    ]


def test_a_size_no_company_is_known_to_fit_leaves_the_answer_unfiltered(index: LocalSearchIndex) -> None:
    german_banks = {co.domain for co in COMPANIES if co.kind == "bank" and co.country == "DE"}
    found = {co.domain for co in search(index, "German banks with more than 1,000,000 employees")}
    assert found == german_banks
