"""Turns a loose list of companies (as compiled from index-constituent lists, CRM exports or scraped
directories) into the two ingest files: companies and their company pages.

Input rows are JSON objects with any of the usual field names (``name``; ``country``,
``country_or_hq``, ``headquarters`` or ``location``; ``industries`` or ``industry``;
``website`` or ``domain``; ``products``; ``employees``; ``founded``; ``description``). Each
value is read the way people write it: "12,700 (2024)" employees, "1874 ; 152 years ago"
founded, "Milwaukee, Wisconsin , US" headquarters. A row that names no resolvable country or
has no name is skipped, with its line and reason.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from leadwire.sandbox import fields as f
from leadwire.search.understand.geo import place_country

_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_HEADCOUNT = re.compile(r"(\d[\d,.\s]*\d|\d)\s*(k|thousand|million|m)?\b", re.IGNORECASE)
_SLUG = re.compile(r"[^a-z0-9]+")
_LOCATION_FIELDS = ("country", "country_code", "country_or_hq", "headquarters", "hq", "location", "city")


@dataclass
class Conversion:
    """The rows to ingest and what was left out."""

    companies: list[dict[str, Any]] = field(default_factory=list)
    documents: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)

    def write(self, out_dir: Path) -> tuple[Path, Path]:
        out_dir.mkdir(parents=True, exist_ok=True)
        paths = (out_dir / "companies.jsonl", out_dir / "documents.jsonl")
        for path, rows in zip(paths, (self.companies, self.documents), strict=True):
            with path.open("w", encoding="utf-8") as handle:
                handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        return paths


def convert_file(path: Path) -> Conversion:
    """Read a JSONL file of loose company records and convert every line."""
    with path.open(encoding="utf-8") as handle:
        return convert_records(_json_lines(handle))


def convert_records(records: Iterable[tuple[int, dict[str, Any] | None]]) -> Conversion:
    conversion = Conversion()
    seen: set[str] = set()
    for line, raw in records:
        if raw is None:
            conversion.skipped.append((line, "not a JSON object"))
            continue
        company, reason = company_row(raw)
        if company is None:
            conversion.skipped.append((line, reason))
            continue
        if company["domain"] in seen:
            conversion.skipped.append((line, f"domain {company['domain']} already given on an earlier line"))
            continue
        seen.add(company["domain"])
        conversion.companies.append(company)
        conversion.documents.append(company_page(company, raw))
    return conversion


def company_row(raw: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """One ingestable company, or None and why not."""
    name = _text(raw.get("name"))
    if not name:
        return None, "no name"
    country = _country(raw)
    if country is None:
        return None, "no country could be read from its location fields"
    row: dict[str, Any] = {"domain": _domain(raw.get("website") or raw.get("domain"), name), "name": name}
    row["country"] = country
    if industries := _labels(raw.get("industries") or raw.get("industry")):
        row["industry"] = "; ".join(industries)
    if (employees := parse_employees(raw.get("employees"))) is not None:
        row["employees"] = employees
    if (founded := parse_founded(raw.get("founded"))) is not None:
        row["founded_year"] = founded
    if city := _city(raw):
        row["city"] = city
    if description := _text(raw.get("description")):
        row["description"] = description
    return row, ""


def company_page(company: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """The company's home page as a search document: what it does, where, since when, how big."""
    parts = [f"{company['name']}."]
    if industry := company.get("industry"):
        parts.append(f"Industry: {industry}.")
    if products := _products(raw.get("products")):
        parts.append(f"Products and services: {products}.")
    if headquarters := _text(raw.get("headquarters")) or _text(raw.get("country_or_hq")):
        parts.append(f"Headquarters: {' '.join(headquarters.split())}.")
    if "founded_year" in company:
        parts.append(f"Founded in {company['founded_year']}.")
    if "employees" in company:
        parts.append(f"About {company['employees']:,} employees.")
    if description := company.get("description"):
        parts.append(description)
    return {
        "url": f"https://{company['domain']}/",
        "category": "company",
        "title": company["name"],
        "text": " ".join(parts),
        "company_domain": company["domain"],
        "country": company["country"],
    }


def parse_employees(value: Any) -> int | None:
    """The head count in "12,700 (2024)", "c. 115,000", "approx. 3 500", "2.5k", "1.2 million": the first
    number outside brackets (where the year of the count goes)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value) if 0 < value <= 10_000_000 else None
    text = re.sub(r"\([^)]*\)", " ", _text(value) or "")
    match = _HEADCOUNT.search(text)
    if match is None:
        return None
    number, scale = match.group(1), (match.group(2) or "").lower()
    # A separator followed by one or two digits is a decimal point ("1.2 million"); else thousands.
    if scale and re.fullmatch(r"\d+[.,]\d{1,2}", number):
        amount = float(number.replace(",", "."))
    else:
        amount = float(re.sub(r"[,.\s]", "", number))
    amount *= {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "million": 1_000_000}.get(scale, 1)
    return int(amount) if 0 < amount <= 10_000_000 else None


def parse_founded(value: Any) -> int | None:
    """The first year in "1874 ; 152 years ago (1874) in Milwaukee" that is not in the future."""
    text = _text(value)
    for match in _YEAR.finditer(text or ""):
        year = int(match.group(1))
        if year <= date.today().year:
            return year
    return None


def _country(raw: dict[str, Any]) -> str | None:
    for name in _LOCATION_FIELDS:
        text = _text(raw.get(name))
        if not text:
            continue
        if len(text) in (2, 3) and text.isalpha():
            try:
                return f.country(text)
            except ValueError:
                pass
        if (code := place_country(text)) is not None:
            return code
    return None


def _city(raw: dict[str, Any]) -> str | None:
    location = _text(raw.get("headquarters")) or _text(raw.get("country_or_hq"))
    if not location or "," not in location:
        return None
    return location.split(",", 1)[0].strip() or None


def _domain(value: Any, name: str) -> str:
    """The website's host; a company without a usable one gets a placeholder under the reserved .example."""
    text = _text(value)
    if text and " " not in text.strip():
        try:
            return f.domain(text)
        except ValueError:
            pass
    # A name in another script has no slug; its hash keeps two such companies apart.
    slug = _SLUG.sub("-", unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower())
    slug = slug.strip("-")[:60].strip("-") or "company-" + hashlib.sha1(name.encode()).hexdigest()[:8]
    return f"{slug}.example"


def _labels(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value] if value else []
    labels = [" ".join(str(item).split()) for item in items if isinstance(item, str) and item.strip()]
    return list(dict.fromkeys(labels))


def _products(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v).strip() for v in value if str(v).strip())
    return " ".join((_text(value) or "").split())


def _text(value: Any) -> str | None:
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        out = str(value).strip()
        return out or None
    return None


def _json_lines(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any] | None]]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            parsed = json.loads(line)
        except json.JSONDecodeError:
            yield number, None
            continue
        yield number, parsed if isinstance(parsed, dict) else None
