"""Real companies for the discovery benchmarks: the split, its two folds, the judge and the questions.

The company list (``../shared/data/real-companies-dev.jsonl``, or ``--data FILE`` /
``$LEADWIRE_REAL_DATA`` for another split of the same kind) is split in two folds by company with a
fixed seed. Whatever is chosen by looking at results (weights, thresholds, lexicon phrases, band
cut-offs) is chosen on the tuning fold and reported on the other, so the benchmarks print each figure
in-fold and out-of-fold side by side: the out-of-fold one is what a list of companies nobody looked
at would get. Each fold is converted and ingested alone into a world of its own, as a user's list is.

The judge reads only the rows' own labels and headquarters, never what the converter or the index
made of them; questions are phrased from a small set of templates and everyday sector words.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pycountry

from leadwire.sandbox.convert import convert_records
from leadwire.sandbox.ingest import ingest

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-companies-dev.jsonl"
FOLD_SEED = "leadwire-folds-1"
FOLDS = ("a", "b")
# Every choice made by looking at results from the fold split on is made on this fold.
TUNING_FOLD = "a"


def data_path(given: Path | None = None) -> Path:
    return given or Path(os.environ.get("LEADWIRE_REAL_DATA") or DEFAULT_DATA)


def fold_of(name: str, seed: str = FOLD_SEED) -> str:
    """The fold of a company, from its name alone: the same on every machine, run and Python."""
    digest = hashlib.sha256(f"{seed}\x00{name.strip().casefold()}".encode()).digest()
    return FOLDS[digest[0] & 1]


def read_rows(data: Path) -> list[dict[str, Any]]:
    rows = []
    for line in data.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if isinstance(row, dict):
                rows.append(row)
    return rows


def rows_of(rows: list[dict[str, Any]], fold: str | None) -> list[dict[str, Any]]:
    """The rows of one fold, or all of them for ``None``."""
    return [r for r in rows if fold is None or fold_of(str(r.get("name") or "")) == fold]


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

    def answered_by(self, company: Company | None) -> bool:
        """The judge: the row's own labels name the sector, and its headquarters the country."""
        if company is None or self.sector is None or not self.sector.labels.search(company.labels):
            return False
        return self.country is None or company.country == self.country


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


def make_questions(companies: dict[str, Company]) -> list[Question]:
    """Sector x country pairs with at least two companies, and big sectors alone."""
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
class RealWorld:
    """One fold (or the whole split) converted and ingested alone, with the judge's view of its rows."""

    name: str  # "all", "a" or "b"
    world: Path
    companies: dict[str, Company]  # by the domain the converter gave the row
    questions: list[Question]
    converted: int
    skipped: int

    def relevant(self, question: Question) -> list[Company]:
        return [c for c in self.companies.values() if question.answered_by(c)]


def build_world(rows: list[dict[str, Any]], name: str, work: Path) -> RealWorld:
    """Convert and ingest ``rows`` into ``work/name``: a world of these companies and nothing else."""
    conversion = convert_records((line, row) for line, row in enumerate(rows, start=1))
    companies_file, documents_file = conversion.write(work / name / "ingest")
    world = work / name / "world"
    for kind, path in (("companies", companies_file), ("documents", documents_file)):
        report = ingest(world, kind, path)
        if not report.accepted:
            raise SystemExit(f"ingest {kind} rejected: {report.errors[:3]}")
    domains = {c["name"]: c["domain"] for c in conversion.companies}
    companies = {}
    for row in rows:
        domain = domains.get(str(row.get("name") or "").strip())
        if domain is not None:
            companies[domain] = Company(domain, judge_country(row), " | ".join(row.get("industries") or []))
    return RealWorld(
        name, world, companies, make_questions(companies), len(conversion.companies), len(conversion.skipped)
    )


def scopes(fold_arg: str) -> list[str | None]:
    """What ``--folds`` asks for: ``both`` (the two folds), ``all`` (the whole split), or one fold."""
    if fold_arg == "both":
        return list(FOLDS)
    if fold_arg == "all":
        return [None]
    return [fold_arg]


def fold_label(scope: str | None) -> str:
    if scope is None:
        return "all (whole split; every choice so far looked at it)"
    side = "in-fold: choices are made here" if scope == TUNING_FOLD else "out-of-fold: held out"
    return f"fold {scope} ({side})"


def temporary_work() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="leadwire-real-")


def domain_of(url: str) -> str:
    return url.split("//", 1)[-1].split("/", 1)[0].removeprefix("www.")


# Lexicon phrases some dev row also uses as its label, reviewed and kept because a person would type
# them ("commercial bank", "renewable energy"). A phrase copied from a label that is not one of these
# fails tests/bench/test_lexicon_labels.py.
EVERYDAY_PHRASES = frozenset(
    {
        "automotive industry", "commercial bank", "commercial property", "computer networking",
        "e-commerce", "environmental services", "food processing", "healthcare services",
        "home appliances", "home construction", "investment management", "medical device",
        "medical devices", "medical technology", "private equity", "rail transport",
        "renewable energy", "wind energy",
    }
)  # fmt: skip


def verbatim_labels(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Everyday-lexicon phrases that are some row's industry label word for word (after the matcher's
    folding) and that no general source has: not a single ordinary word, and not a run of words of a
    NAICS title or a GICS name. Such a phrase helps exactly the rows it was copied from."""
    from leadwire.search.understand.industry import everyday_phrases, general_phrase, tokens

    labels: dict[tuple[str, ...], str] = {}
    for row in rows:
        for label in row.get("industries") or []:
            if isinstance(label, str):
                labels.setdefault(tuple(tokens(label)), label)
    return [
        (phrase, labels[key])
        for phrase in everyday_phrases()
        if (key := tuple(tokens(phrase))) in labels and len(key) > 1 and not general_phrase(key)
    ]


_FULL_LEXICON = ""


def blind_to(rows: list[dict[str, Any]]) -> int:
    """Strip from the everyday lexicon every phrase that is one of these rows' labels word for word,
    single words included ("Banks", "Chemicals"): what the reading of labels is worth on a list whose
    vocabulary nobody wrote phrases for, with only the general sources (GICS names, NAICS titles, the
    encoder) left. In this process only; returns how many phrases were dropped."""
    from leadwire.search.understand import industry, industry_lexicon

    global _FULL_LEXICON
    _FULL_LEXICON = _FULL_LEXICON or industry_lexicon.LEXICON
    labels = {tuple(industry.tokens(str(label))) for row in rows for label in row.get("industries") or []}
    kept, dropped = [], 0
    for line in _FULL_LEXICON.strip().splitlines():
        codes, phrases = line.split("|", 1)
        left = [p for p in phrases.split("|") if tuple(industry.tokens(p)) not in labels or not p.strip()]
        dropped += len(phrases.split("|")) - len(left)
        if left:
            kept.append(f"{codes}|{'|'.join(left)}")
    industry_lexicon.LEXICON = "\n".join(kept)
    industry.LEXICON = industry_lexicon.LEXICON
    industry._lexicon.cache_clear()
    from leadwire.search.understand.query import understand

    understand.cache_clear()
    return dropped
