"""Public-web search latency on the sandbox world: p50/p99 of LocalSearchIndex.search vs raw FTS5 MATCH.

Run: .venv/bin/python bench/search_latency.py [--world-dir DIR] [--size default] [--queries 300]
"""

from __future__ import annotations

import time

from leadwire.providers.search import SearchRequest
from leadwire.search.index import LocalSearchIndex
from search_queries import common_arguments, ensure_world, load_ground_truth, make_queries, percentile


def main() -> None:
    args = common_arguments(__doc__ or "").parse_args()
    world_dir = ensure_world(args)
    queries = make_queries(load_ground_truth(world_dir), args.queries, args.query_seed)
    requests = [
        SearchRequest(query=q.text, limit=10, category=q.category)  # type: ignore[arg-type]
        for q in queries
    ]
    index = LocalSearchIndex(world_dir)
    started = time.perf_counter()
    index.search(SearchRequest(query="warm up the model and the maps"))
    print(f"first_search_seconds (cold, loads model): {time.perf_counter() - started:.2f}")

    search_ms: list[float] = []
    fts_ms: list[float] = []
    # One pass: every query is new to the index, so its embedding is computed inside the timing.
    for request in requests:
        t0 = time.perf_counter()
        index.search(request)
        t1 = time.perf_counter()
        index.raw_fts(request)
        t2 = time.perf_counter()
        search_ms.append((t1 - t0) * 1000)
        fts_ms.append((t2 - t1) * 1000)

    p50, p99 = percentile(search_ms, 50), percentile(search_ms, 99)
    f50, f99 = percentile(fts_ms, 50), percentile(fts_ms, 99)
    print(f"queries: {len(requests)}")
    print(f"search_p50_ms: {p50:.1f}")
    print(f"search_p99_ms: {p99:.1f}")
    print(f"raw_fts5_p50_ms: {f50:.1f}")
    print(f"raw_fts5_p99_ms: {f99:.1f}")
    print(f"search_over_raw_fts5_p50: {p50 / max(f50, 1e-9):.1f}")
    print(f"search_over_raw_fts5_p99: {p99 / max(f99, 1e-9):.1f}")


if __name__ == "__main__":
    main()
