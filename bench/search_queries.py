"""Query set and ground truth for the search benchmarks, generated from the world's own attributes.

Queries are (industry x country x category) triples sampled deterministically from the
triples that occur among the world's documents, phrased from the attribute words;
relevance comes from the subject company's industry and country.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import random
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

TEMPLATES = {
    "company": "{industry} companies in {country}",
    "news": "{industry} news {country}",
    "financial report": "{industry} annual report {country}",
    "people": "{industry} executives in {country}",
    "personal site": "{industry} personal homepage {country}",
}


@dataclass(frozen=True, slots=True)
class BenchQuery:
    text: str
    category: str
    industry: str
    country: str


@dataclass(slots=True)
class GroundTruth:
    """Subject attributes per document url, and how many documents exist per grade (for the ideal DCG)."""

    subject: dict[str, tuple[str, str, str]]  # url -> (industry, country, category)
    by_triple: Counter[tuple[str, str, str]]
    by_pair: Counter[tuple[str, str]]

    def grade(self, query: BenchQuery, url: str) -> int:
        found = self.subject.get(url)
        if found is None or found[2] != query.category or found[0] != query.industry:
            return 0
        return 2 if found[1] == query.country else 1

    def ideal_dcg(self, query: BenchQuery, k: int = 10) -> float:
        twos = self.by_triple[(query.industry, query.country, query.category)]
        ones = self.by_pair[(query.industry, query.category)] - twos
        grades = ([2] * twos + [1] * ones)[:k]
        return dcg(grades)


def dcg(grades: list[int]) -> float:
    return sum((2**g - 1) / math.log2(i + 2) for i, g in enumerate(grades))


def ndcg(grades: list[int], ideal: float) -> float:
    return dcg(grades) / ideal if ideal > 0 else 0.0


def load_ground_truth(world_dir: Path) -> GroundTruth:
    con = sqlite3.connect(world_dir / "world.db")
    # People pages and personal sites name a person; their company is the person's employer.
    rows = con.execute(
        """SELECT d.url, c.industry, c.country, d.category
           FROM documents d
           LEFT JOIN people p ON p.id = d.person_id
           JOIN companies c ON c.id = coalesce(d.company_id, p.company_id)"""
    ).fetchall()
    con.close()
    subject = {url: (industry, country, category) for url, industry, country, category in rows}
    by_triple = Counter(subject.values())
    by_pair = Counter((industry, category) for industry, _, category in subject.values())
    return GroundTruth(subject=subject, by_triple=by_triple, by_pair=by_pair)


def country_names() -> dict[str, str]:
    try:
        from leadwire.sandbox.geo import country_by_alpha2

        return {code: country.name for code, country in country_by_alpha2().items()}
    except ImportError:
        import pycountry

        return {c.alpha_2: getattr(c, "common_name", c.name) for c in pycountry.countries}


def make_queries(truth: GroundTruth, count: int, seed: int) -> list[BenchQuery]:
    """``count`` distinct triples drawn with a fixed seed from those present, so every query has an answer."""
    names = country_names()
    triples = sorted(truth.by_triple)
    chosen = random.Random(seed).sample(triples, min(count, len(triples)))
    return [
        BenchQuery(
            text=TEMPLATES[category].format(industry=industry, country=names.get(country, country)),
            category=category,
            industry=industry,
            country=country,
        )
        for industry, country, category in chosen
    ]


def ensure_world(args: argparse.Namespace) -> Path:
    """The world to measure: ``--world-dir`` when it holds one, else a fresh build there (or in var/)."""
    world_dir = Path(args.world_dir) if args.world_dir else Path("var/bench-world")
    if not (world_dir / "world.db").exists():
        from leadwire.sandbox.world import build_world

        started = time.perf_counter()
        build_world(world_dir, seed=args.seed, size=args.size, as_of=dt.date(2025, 6, 30), progress=True)
        print(f"world_build_seconds: {time.perf_counter() - started:.1f}")
    if not (world_dir / "search_index.json").exists():
        from leadwire.search.index import build_search_index

        stats = build_search_index(world_dir, progress=True)
        print(f"index_build_seconds: {stats.total_seconds:.1f}")
        print(f"index_fts_seconds: {stats.fts_seconds:.1f}")
        print(f"index_embed_seconds: {stats.embed_seconds:.1f}")
        print(f"index_documents: {stats.documents}")
        print(f"index_bytes: {stats.bytes_on_disk}")
    return world_dir


def common_arguments(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--world-dir", help="reuse (or build into) this world directory")
    parser.add_argument("--size", default="default", choices=["small", "default", "large"])
    parser.add_argument("--seed", type=int, default=7, help="world seed")
    parser.add_argument("--queries", type=int, default=300, help="number of queries")
    parser.add_argument("--query-seed", type=int, default=1, help="seed of the query sample")
    return parser


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[rank]
