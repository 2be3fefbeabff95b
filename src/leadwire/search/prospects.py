"""Companies, not pages: discovery asks the index for the companies its ranked documents are about.

A company ranks where its best page ranks; the pages found about it are its evidence. It reads only
the world's contract columns (``docs/sandbox-world.md``), which an operator's ingested companies have
too, so discovery works the same on a generated world and on one made of ingested data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from leadwire.search.index import LocalSearchIndex, RankWeights
from leadwire.search.types import SearchRequest

# Discovery reads far deeper into the ranking than a ten-source search does.
DISCOVERY_WEIGHTS = RankWeights(
    lexical_candidates=1500,
    coverage_candidates=2500,
    vector_candidates=800,
    industry_candidates=6000,
)
EVIDENCE_PER_COMPANY = 3
EVIDENCE_TEXT_CAP = 1500

_COMPANY_COLUMNS = (
    "id, name, domain, industry_code, industry, country, city, employees, founded_year, description, "
    "technologies, products, linkedin_url"
)


@dataclass(frozen=True, slots=True)
class EvidencePage:
    url: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class CompanyHit:
    """A company the query found, its record as the world holds it, and the pages that found it."""

    company_id: str
    name: str
    domain: str
    industry_code: str | None
    industry: str | None
    country: str | None
    city: str | None
    employees: int | None
    founded: int | None
    description: str | None
    technologies: tuple[str, ...]
    products: tuple[str, ...]
    linkedin_url: str | None
    evidence: tuple[EvidencePage, ...] = field(default=())


def rank_companies(
    index: LocalSearchIndex,
    query: str,
    *,
    limit: int,
    exclude: frozenset[str] = frozenset(),
    user_location: str | None = None,
) -> list[CompanyHit]:
    """The ``limit`` best companies for ``query`` whose domain is not in ``exclude``, best first."""
    request = SearchRequest(query=query, user_location=user_location or None)
    order: list[str] = []
    pages: dict[str, list[int]] = {}
    rowids = index.ranked_rowids(request)
    companies = _companies_of(index, rowids)
    for rowid in rowids:
        company_id = companies.get(rowid)
        if company_id is None:
            continue
        if company_id not in pages:
            # Room for every excluded company (found in earlier rounds, dropped below) and some slack.
            if len(order) >= limit * 2 + len(exclude):
                continue
            order.append(company_id)
            pages[company_id] = []
        if len(pages[company_id]) < EVIDENCE_PER_COMPANY:
            pages[company_id].append(rowid)
    records = _company_records(index, order)
    hits = []
    for company_id in order:
        record = records.get(company_id)
        if record is None or record["domain"] in exclude:
            continue
        hits.append(record)
        if len(hits) >= limit:
            break
    evidence = _evidence(index, [r for hit in hits for r in pages[hit["id"]]])
    return [_hit(record, [evidence[r] for r in pages[record["id"]] if r in evidence]) for record in hits]


def _companies_of(index: LocalSearchIndex, rowids: list[int]) -> dict[int, str]:
    return {
        int(rowid): company_id
        for rowid, company_id in index.fetch("rowid, company_id", rowids)
        if company_id is not None
    }


def _company_records(index: LocalSearchIndex, ids: list[str]) -> dict[str, dict[str, Any]]:
    names = [column.strip() for column in _COMPANY_COLUMNS.split(",")]
    records: dict[str, dict[str, Any]] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        sql = f"SELECT {_COMPANY_COLUMNS} FROM companies WHERE id IN ({','.join('?' * len(part))})"
        for row in index.query_world(sql, part):
            record = dict(zip(names, row, strict=True))
            if record["domain"]:
                records[record["id"]] = record
    return records


def _evidence(index: LocalSearchIndex, rowids: list[int]) -> dict[int, EvidencePage]:
    return {
        int(rowid): EvidencePage(url=url, title=title or "", text=(text or "")[:EVIDENCE_TEXT_CAP])
        for rowid, url, title, text in index.fetch("rowid, url, title, text", rowids)
    }


def _hit(record: dict[str, Any], evidence: list[EvidencePage]) -> CompanyHit:
    return CompanyHit(
        company_id=record["id"],
        name=record["name"] or record["domain"],
        domain=record["domain"],
        industry_code=record["industry_code"] or None,
        industry=record["industry"] or None,
        country=(record["country"] or "").upper() or None,
        city=record["city"] or None,
        employees=_int(record["employees"]),
        founded=_int(record["founded_year"]),
        description=record["description"] or None,
        technologies=tuple(_json_list(record["technologies"])),
        products=tuple(_products(record["products"])),
        linkedin_url=record["linkedin_url"] or None,
        evidence=tuple(evidence),
    )


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None and value != "" else None
    except (TypeError, ValueError):
        return None


def _json_list(value: Any) -> list[Any]:
    if not value:
        return []
    try:
        parsed = json.loads(value) if isinstance(value, str) else value
    except json.JSONDecodeError:
        return [value] if isinstance(value, str) else []
    return parsed if isinstance(parsed, list) else []


def _products(value: Any) -> list[str]:
    """Product descriptions from the JSON array of ``{hs_code, description}`` (or plain strings)."""
    out = []
    for item in _json_list(value):
        if isinstance(item, dict) and item.get("description"):
            out.append(str(item["description"]))
        elif isinstance(item, str) and item:
            out.append(item)
    return out


def companies_by_key(
    index: LocalSearchIndex, domains: list[str], names: list[str]
) -> tuple[dict[str, CompanyHit], dict[str, CompanyHit]]:
    """The world's companies with these domains, and with these names (compared case-insensitively),
    each with its first pages as evidence: what a list seeded from a user's rows verifies."""
    names_wanted = list(dict.fromkeys(n.casefold() for n in names if n))
    records: list[dict[str, Any]] = []
    columns = [column.strip() for column in _COMPANY_COLUMNS.split(",")]
    for where, values in (("domain", list(dict.fromkeys(domains))), ("lower(name)", names_wanted)):
        for start in range(0, len(values), 500):
            part = values[start : start + 500]
            sql = f"SELECT {_COMPANY_COLUMNS} FROM companies WHERE {where} IN ({','.join('?' * len(part))})"
            records += [dict(zip(columns, row, strict=True)) for row in index.query_world(sql, part)]
    pages: dict[str, list[int]] = {}
    ids = list(dict.fromkeys(r["id"] for r in records))
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        sql = f"SELECT rowid, company_id FROM documents WHERE company_id IN ({','.join('?' * len(part))})"
        for rowid, company_id in sorted(index.query_world(sql, part)):
            held = pages.setdefault(company_id, [])
            if len(held) < EVIDENCE_PER_COMPANY:
                held.append(int(rowid))
    evidence = _evidence(index, [r for held in pages.values() for r in held])
    hits = {
        r["id"]: _hit(r, [evidence[x] for x in pages.get(r["id"], []) if x in evidence])
        for r in records
        if r["domain"]
    }
    by_domain = {hit.domain: hit for hit in hits.values()}
    by_name = {hit.name.casefold(): hit for hit in hits.values() if hit.name.casefold() in names_wanted}
    return by_domain, by_name
