"""Search quality on the sandbox world: nDCG@10 of the fused ranking vs raw FTS5 BM25.

Two gradings: the original (right industry 1, right industry and country 2) and place-strict
(only right industry and country counts), the one that fits a place named as a constraint.

Run: .venv/bin/python bench/search_quality.py [--world-dir DIR] [--size default] [--queries 300]
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from pathlib import Path
from statistics import mean

from leadwire.providers.search import SearchRequest
from leadwire.search.index import LocalSearchIndex
from search_queries import (
    BenchQuery,
    GroundTruth,
    common_arguments,
    dcg,
    ensure_world,
    load_ground_truth,
    make_queries,
    ndcg,
)


def request_for(query: BenchQuery) -> SearchRequest:
    return SearchRequest(query=query.text, limit=10, category=query.category)  # type: ignore[arg-type]


def url_of(world_dir: Path) -> dict[int, str]:
    con = sqlite3.connect(world_dir / "world.db")
    urls = {int(rowid): url for rowid, url in con.execute("SELECT rowid, url FROM documents")}
    con.close()
    return urls


def main() -> None:
    args = common_arguments(__doc__ or "").parse_args()
    world_dir = ensure_world(args)
    truth = load_ground_truth(world_dir)
    queries = make_queries(truth, args.queries, args.query_seed)
    index = LocalSearchIndex(world_dir)
    urls = url_of(world_dir)

    fused: dict[str, list[float]] = defaultdict(list)
    baseline: dict[str, list[float]] = defaultdict(list)
    strict: dict[str, list[float]] = defaultdict(list)
    strict_baseline: dict[str, list[float]] = defaultdict(list)
    for query in queries:
        ideal = truth.ideal_dcg(query)
        found = [s.url for s in index.search(request_for(query))]
        raw = [urls[r] for r in index.raw_fts(request_for(query))]
        fused[query.category].append(ndcg(grades(truth, query, found), ideal))
        baseline[query.category].append(ndcg(grades(truth, query, raw), ideal))
        strict[query.category].append(place_strict_ndcg(truth, query, found))
        strict_baseline[query.category].append(place_strict_ndcg(truth, query, raw))

    all_fused = [v for values in fused.values() for v in values]
    all_raw = [v for values in baseline.values() for v in values]
    print(f"queries: {len(queries)}")
    for category in sorted(fused):
        print(
            f"ndcg@10_{category.replace(' ', '_')}: fused {mean(fused[category]):.3f} "
            f"fts {mean(baseline[category]):.3f} (n={len(fused[category])})"
        )
    print(f"ndcg@10_fused: {mean(all_fused):.3f}")
    print(f"ndcg@10_fts5_bm25: {mean(all_raw):.3f}")
    print(f"ndcg@10_fused_over_fts5: {mean(all_fused) / max(mean(all_raw), 1e-9):.2f}")
    # Every query names a country; with the place as a constraint, a page from elsewhere answers nothing.
    all_strict = [v for values in strict.values() for v in values]
    all_strict_raw = [v for values in strict_baseline.values() for v in values]
    print(f"ndcg@10_place_strict: {mean(all_strict):.3f}")
    print(f"ndcg@10_place_strict_fts5_bm25: {mean(all_strict_raw):.3f}")


def place_strict_ndcg(truth: GroundTruth, query: BenchQuery, found: list[str]) -> float:
    """nDCG@10 where only the query's industry in the query's country counts (grade 2), nothing else."""
    answers = truth.by_triple[(query.industry, query.country, query.category)]
    ideal = dcg([2] * min(10, answers))
    return ndcg([2 if g == 2 else 0 for g in grades(truth, query, found)], ideal)


def grades(truth: GroundTruth, query: BenchQuery, found: list[str]) -> list[int]:
    return [truth.grade(query, url) for url in found]


if __name__ == "__main__":
    main()
