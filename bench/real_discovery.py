"""Discovery on real companies: public-web search over real listed companies, judged by their own labels.

The company list (``../shared/data/real-companies-dev.jsonl`` by default, or ``--data FILE`` /
``$LEADWIRE_REAL_DATA`` for another split of the same kind) goes through the project's own
converter and ``ingest``, into a fresh data directory. Questions are written as users write them
("chemical companies in Switzerland", "German banks", "chipmakers"), from sector x country pairs
and big sectors alone; a result is judged by the row's own industry labels and headquarters.
The same questions go to plain FTS5 BM25 over the same pages, in the same run.

    .venv/bin/python bench/real_discovery.py [--data FILE] [--show N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pycountry

from leadwire.providers.search import SearchRequest
from leadwire.sandbox.convert import convert_file
from leadwire.sandbox.ingest import ingest
from leadwire.search.index import LocalSearchIndex

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-companies-dev.jsonl"


@dataclass(frozen=True)
class Sector:
    """How the judge recognises a sector in the rows' labels, and how users ask for it."""

    key: str
    labels: re.Pattern[str]
    phrases: tuple[str, ...]  # plural noun phrases a user types


def _sector(key: str, labels: str, *phrases: str) -> Sector:
    return Sector(key, re.compile(labels, re.IGNORECASE), phrases)


SECTORS = [
    _sector("banks", r"\bbank", "banks", "lenders", "retail banks"),
    _sector("insurance", r"insur", "insurance companies", "insurers"),
    _sector("chemicals", r"chemic", "chemical companies", "chemical makers"),
    _sector("pharma", r"pharma|biotech|drug", "pharmaceutical companies", "drugmakers", "biotech firms"),
    _sector("semiconductors", r"semiconductor", "chipmakers", "semiconductor companies"),
    _sector("software", r"software|it services", "software companies", "software vendors"),
    _sector("automotive", r"automo|auto parts|vehicle", "car makers", "automotive companies"),
    _sector("oil_gas", r"\boil\b|\bgas\b|petrol|fossil fuel", "oil and gas companies", "oil producers"),
    _sector("utilities", r"utilit", "utility companies", "electric utilities"),
    _sector("retail", r"retail", "retailers", "retail chains"),
    _sector("food_beverage", r"food|beverage|drink|brew", "food and beverage companies", "food producers"),
    _sector("aerospace_defence", r"aerospace|defen[cs]e", "defense contractors", "aerospace companies"),
    _sector("real_estate", r"real estate|reit|propert", "real estate companies", "property firms"),
    _sector("construction", r"construct|homebuild", "construction companies", "builders"),
    _sector("machinery", r"machinery", "machinery makers", "industrial machinery manufacturers"),
    _sector("telecom", r"telecom|communication", "telecom operators", "telecommunications companies"),
    _sector("healthcare", r"health", "healthcare companies", "health care firms"),
    _sector("financial", r"financ|bank|insur|invest", "financial services firms", "financial companies"),
    _sector("metals_mining", r"steel|metal|mining|mineral", "mining and metals companies", "steelmakers"),
    _sector(
        "electronics", r"electronic|electric(al)? (equipment|machinery|components)", "electronics makers"
    ),
    _sector(
        "transport", r"transport|logistic|railway|airline|shipping", "transport companies", "logistics firms"
    ),
]

# How the question names the country: a name, a demonym, a city-free phrase.
TEMPLATES = (
    "{sector} in {country}",
    "{demonym} {sector}",
    "{sector} based in {country}",
    "list of {sector} headquartered in {country}",
    "top {sector} from {country}",
)
DEMONYMS = {
    "US": "American", "JP": "Japanese", "DE": "German", "GB": "British", "FR": "French",
    "NL": "Dutch", "SE": "Swedish", "FI": "Finnish", "ES": "Spanish", "BE": "Belgian",
    "CH": "Swiss", "IE": "Irish", "IT": "Italian", "DK": "Danish", "NO": "Norwegian",
    "CA": "Canadian", "AU": "Australian", "CN": "Chinese", "KR": "South Korean", "IN": "Indian",
    "AT": "Austrian", "LU": "Luxembourgish", "BM": "Bermudian", "PT": "Portuguese",
}  # fmt: skip
COUNTRY_NAMES = {"US": "the United States", "GB": "the United Kingdom", "NL": "the Netherlands"}
_STATES_TEXT = (
    "Alabama, Alaska, Arizona, Arkansas, California, Colorado, Connecticut, Delaware, Florida, "
    "Georgia, Hawaii, Idaho, Illinois, Indiana, Iowa, Kansas, Kentucky, Louisiana, Maine, Maryland, "
    "Massachusetts, Michigan, Minnesota, Mississippi, Missouri, Montana, Nebraska, Nevada, "
    "New Hampshire, New Jersey, New Mexico, New York, North Carolina, North Dakota, Ohio, Oklahoma, "
    "Oregon, Pennsylvania, Rhode Island, South Carolina, South Dakota, Tennessee, Texas, Utah, "
    "Vermont, Virginia, Washington, West Virginia, Wisconsin, Wyoming, District of Columbia"
)
US_STATES = frozenset(name.strip() for name in _STATES_TEXT.split(","))


@dataclass(frozen=True)
class Company:
    domain: str
    country: str | None  # the judge's reading of the row's headquarters
    labels: str


@dataclass(frozen=True)
class Question:
    text: str
    sector: Sector | None
    country: str | None


def judge_country(row: dict[str, object]) -> str | None:
    """The judge's own reading of where a row is: a country name, a US state, or 'U.S.'; else unknown."""
    for field in ("country_or_hq", "headquarters"):
        value = row.get(field)
        if not isinstance(value, str):
            continue
        parts = [p.strip(" .") for p in value.split(",") if p.strip(" .")]
        for part in reversed(parts):
            if part in ("US", "U.S", "USA", "United States") or part in US_STATES:
                return "US"
            try:
                return str(pycountry.countries.lookup(part).alpha_2)
            except LookupError:
                continue
    return None


def load_companies(data: Path, conversion_domains: list[str]) -> dict[str, Company]:
    """Judged rows by the domain the converter gave them (the converter keeps row order)."""
    rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines() if line.strip()]
    names = {d["name"]: d["domain"] for d in map(json.loads, conversion_domains)}
    out: dict[str, Company] = {}
    for row in rows:
        domain = names.get(row.get("name"))
        if domain is not None:
            out[domain] = Company(domain, judge_country(row), " | ".join(row.get("industries") or []))
    return out


def make_questions(companies: dict[str, Company]) -> list[Question]:
    questions: list[Question] = []
    turn = 0
    countries = sorted({c.country for c in companies.values() if c.country})
    for sector in SECTORS:
        members = [c for c in companies.values() if sector.labels.search(c.labels)]
        for country in countries:
            if sum(1 for c in members if c.country == country) < 2:
                continue
            template = TEMPLATES[turn % len(TEMPLATES)]
            phrase = sector.phrases[turn % len(sector.phrases)]
            turn += 1
            if "{demonym}" in template and country not in DEMONYMS:
                template = TEMPLATES[0]
            name = COUNTRY_NAMES.get(country) or pycountry.countries.get(alpha_2=country).name
            text = template.format(sector=phrase, country=name, demonym=DEMONYMS.get(country, ""))
            questions.append(Question(text, sector, country))
        if len(members) >= 8:
            questions.append(Question(sector.phrases[0], sector, None))
            questions.append(Question(f"companies in the {sector.phrases[-1]} business", sector, None))
    return questions


@dataclass
class Scores:
    country: list[float]
    sector: list[float]
    both: list[float]
    recall: list[float]

    def line(self) -> str:
        return (
            f"P@10 country {_mean(self.country):.3f}  P@10 sector {_mean(self.sector):.3f}  "
            f"P@10 both {_mean(self.both):.3f}  R@10 {_mean(self.recall):.3f}"
        )


def evaluate(
    questions: list[Question], companies: dict[str, Company], ranked: Callable[[str], list[str]]
) -> tuple[Scores, list[tuple[Question, list[str]]]]:
    scores = Scores([], [], [], [])
    answers = []
    for question in questions:
        found = [companies.get(d) for d in ranked(question.text)][:10]
        answers.append((question, [c.domain if c else "?" for c in found]))
        n = max(len(found), 1)
        in_sector = [
            c is not None and question.sector is not None and bool(question.sector.labels.search(c.labels))
            for c in found
        ]
        in_country = [c is not None and c.country == question.country for c in found]
        if question.country:
            scores.country.append(sum(in_country) / n)
            scores.both.append(sum(a and b for a, b in zip(in_sector, in_country, strict=True)) / n)
        scores.sector.append(sum(in_sector) / n)
        relevant = [
            c for c in companies.values()
            if question.sector and question.sector.labels.search(c.labels)
            and (question.country is None or c.country == question.country)
        ]  # fmt: skip
        hits = sum(a and (question.country is None or b) for a, b in zip(in_sector, in_country, strict=True))
        scores.recall.append(hits / max(1, min(10, len(relevant))))
    return scores, answers


def _in_sector(sector: Sector | None, company: Company) -> bool:
    return sector is not None and sector.labels.search(company.labels) is not None


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data", type=Path, default=Path(os.environ.get("LEADWIRE_REAL_DATA") or DEFAULT_DATA)
    )
    parser.add_argument("--show", type=int, default=0, help="print the worst N questions")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="leadwire-real-") as tmp:
        work = Path(tmp)
        conversion = convert_file(args.data)
        companies_file, documents_file = conversion.write(work / "ingest")
        world = work / "world"
        started = time.perf_counter()
        for kind, path in (("companies", companies_file), ("documents", documents_file)):
            report = ingest(world, kind, path)
            if not report.accepted:
                raise SystemExit(f"ingest {kind} rejected: {report.errors[:3]}")
        ingest_seconds = time.perf_counter() - started
        companies = load_companies(args.data, companies_file.read_text(encoding="utf-8").splitlines())
        questions = make_questions(companies)
        index = LocalSearchIndex(world)
        urls = _urls(world)

        def fused(text: str) -> list[str]:
            return [_domain(s.url) for s in index.search(SearchRequest(query=text, limit=10))]

        def bm25(text: str) -> list[str]:
            return [_domain(urls[r]) for r in index.raw_fts(SearchRequest(query=text, limit=10))]

        fused_scores, answers = evaluate(questions, companies, fused)
        bm25_scores, _ = evaluate(questions, companies, bm25)
        latencies = []
        for question in questions:
            begun = time.perf_counter()
            index.search(SearchRequest(query=question.text, limit=10))
            latencies.append((time.perf_counter() - begun) * 1000)

    with_country = sum(1 for q in questions if q.country)
    print(f"companies: {len(conversion.companies)} converted, {len(conversion.skipped)} skipped")
    print(f"questions: {len(questions)} ({with_country} name a country)")
    print(f"search:    {fused_scores.line()}")
    print(f"bm25:      {bm25_scores.line()}")
    print(f"real_p10_country: {_mean(fused_scores.country):.3f} (bm25 {_mean(bm25_scores.country):.3f})")
    print(f"real_p10_sector: {_mean(fused_scores.sector):.3f} (bm25 {_mean(bm25_scores.sector):.3f})")
    both, both_base = _mean(fused_scores.both), _mean(bm25_scores.both)
    print(f"real_p10_both: {both:.3f} (bm25 {both_base:.3f}, ratio {both / max(both_base, 1e-9):.2f})")
    print(f"real_r10: {_mean(fused_scores.recall):.3f} (bm25 {_mean(bm25_scores.recall):.3f})")
    print(f"real_search_p50_ms: {statistics.median(latencies):.1f}")
    print(f"real_ingest_seconds: {ingest_seconds:.1f}")
    if args.show:
        worst = sorted(zip(fused_scores.recall, answers, strict=False), key=lambda x: x[0])[: args.show]
        for recall, (question, found) in worst:
            print(f"  R={recall:.2f} {question.text!r} -> {found[:5]}")


def _urls(world: Path) -> dict[int, str]:
    con = sqlite3.connect(world / "world.db")
    try:
        return {int(r): u for r, u in con.execute("SELECT rowid, url FROM documents")}
    finally:
        con.close()


def _domain(url: str) -> str:
    return url.split("//", 1)[-1].split("/", 1)[0]


if __name__ == "__main__":
    main()
