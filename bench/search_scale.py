"""Search cost as the corpus grows: p50/p99 of a public-web search, the process's RSS and the index's
size on disk at 100k, 300k and 1M pages.

The pages are the `default` world's 100,000 repeated with new ids (the corpus `k` times over: every
page `k` times, each copy with its own id and url, so a query meets every competitor `k` times). The
index is built as `leadwire` builds it — words (FTS5), sites, company facts, the coarse and full
vectors — except that a copy's vector is its original's (the same text embeds to the same vector;
embedding 900,000 copies would only repeat that work). Each size is measured in a fresh process:
300 queries of `search_queries.make_queries`, each once, after one warm-up search; RSS is that
process's resident set after them (VmRSS; mapped index files and its own memory apart) and its peak
(VmHWM), read before the floor's pass so that the floor's allocations do not count. Baseline: FTS5 BM25 alone
(`LocalSearchIndex.raw_fts`) on the same index, the lexical floor of every search. Targets (issue 30):
p50 ≤ 50 ms and RSS ≤ 1.5 GB at 1M pages.

    .venv/bin/python bench/search_scale.py [--world-dir var/bench-world-default/world] [--sizes 1,3,10]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _support as bs

REPO = Path(__file__).resolve().parents[1]
_OTHER_COLUMNS = (
    "domain, category, title, author, published_date, image, text, country, language, company_id, person_id"
)


def tiled_world(base: Path, out: Path, copies: int) -> Path:
    """`out`: the base world's tables with its documents `copies` times over, and its search index."""
    out.mkdir(parents=True)
    for name in ("world.db", "trade.duckdb"):
        shutil.copyfile(base / name, out / name)
    con = sqlite3.connect(out / "world.db")
    try:
        for (trigger,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            con.execute(f"DROP TRIGGER {trigger}")
        (count,) = con.execute("SELECT max(rowid) FROM documents").fetchone()
        for copy in range(1, copies):
            con.execute(
                f"INSERT INTO documents (rowid, id, url, {_OTHER_COLUMNS}) "
                f"SELECT rowid + {copy * count}, id || '~{copy}', url || '#copy{copy}', {_OTHER_COLUMNS} "
                "FROM documents WHERE rowid <= ?",
                (count,),
            )
        con.commit()
    finally:
        con.close()
    base_vectors = _vectors_by_rowid(base)
    _build_index(out, base_vectors, count)
    return out


def _vectors_by_rowid(world: Path) -> np.ndarray:
    from leadwire.search.store import load_arrays

    arrays = load_arrays(world)
    assert arrays is not None, f"no search index in {world}"
    rowids = np.asarray(arrays.rowids)
    vectors = np.zeros((int(rowids.max()) + 1, np.asarray(arrays.vectors).shape[1]), dtype=np.float32)
    vectors[rowids] = np.asarray(arrays.vectors, dtype=np.float32)
    return vectors


def _build_index(world: Path, base_vectors: np.ndarray, count: int) -> None:
    """`build_search_index`, with each copy's vector looked up from its original's."""
    import leadwire.search.build as build

    def copied_vectors(docs: list[object], *, progress: object) -> np.ndarray:
        rowids = np.fromiter((d.page.rowid for d in docs), dtype=np.int64)  # type: ignore[attr-defined]
        return base_vectors[(rowids - 1) % count + 1]  # each copy's original

    build._embed = copied_vectors  # type: ignore[assignment]
    build.build_search_index(world, progress=False)


def measure(world: Path, queries: int) -> dict[str, float]:
    """In this process: search p50/p99, the BM25 floor's, RSS and peak RSS (MB)."""
    from leadwire.providers.search import SearchRequest
    from leadwire.search.build import index_size_bytes
    from leadwire.search.index import LocalSearchIndex
    from search_queries import load_ground_truth, make_queries

    truth = load_ground_truth(world)
    requests = [
        SearchRequest(query=q.text, limit=10, category=q.category)  # type: ignore[arg-type]
        for q in make_queries(truth, queries, 7)
    ]
    del truth  # the bench's answer key (about 450 MB at 1M pages) is not the search's memory
    gc.collect()
    _reset_peak_rss()
    index = LocalSearchIndex(world)
    index.search(SearchRequest(query="warm up the model and the maps"))
    # Ours first, all queries, then the RSS; then the floor: its allocations must not count as ours.
    ours = []
    for request in requests:
        started = time.perf_counter()
        index.search(request)
        ours.append((time.perf_counter() - started) * 1000)
    status = {
        line.split(":")[0]: int(line.split()[1]) * 1024 / 1e6
        for line in Path("/proc/self/status").read_text().splitlines()
        if line.startswith(("VmRSS:", "VmHWM:", "RssAnon:", "RssFile:"))
    }
    floor = []
    for request in requests:
        started = time.perf_counter()
        index.raw_fts(request)
        floor.append((time.perf_counter() - started) * 1000)
    return {
        "p50": bs.percentile(ours, 50),
        "p99": bs.percentile(ours, 99),
        "fts_p50": bs.percentile(floor, 50),
        "fts_p99": bs.percentile(floor, 99),
        "rss_mb": status["VmRSS"],
        "peak_rss_mb": status["VmHWM"],
        "anon_mb": status["RssAnon"],
        "file_mb": status["RssFile"],
        "index_mb": index_size_bytes(world) / 1e6,
    }


def _reset_peak_rss() -> None:
    """Start the peak (VmHWM) afresh, so that it counts the search and not the answer key just freed."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def report(pages: int, figures: dict[str, float]) -> None:
    label = f"{pages // 1000}k"
    for q in ("p50", "p99"):
        value, base = figures[q], figures[f"fts_{q}"]
        target = f"target ≤ 50 ms: {bs.verdict(value <= 50)}" if q == "p50" else "vs FTS5 BM25 alone"
        bs.emit_triple(
            f"search_{label}_{q}_ms", value, base, "ms", ratio=bs.safe_ratio(value, base), target=target
        )
    rss = figures["rss_mb"]
    bs.emit(
        f"search_{label}_rss_mb",
        rss,
        "MB",
        note=f"peak {figures['peak_rss_mb']:.0f} MB, of which mapped index files {figures['file_mb']:.0f} MB "
        f"(page cache the kernel can take back) and the process's own {figures['anon_mb']:.0f} MB; "
        f"target ≤ 1,500 MB: {bs.verdict(rss <= 1500)}",
    )
    bs.emit(
        f"search_{label}_index_mb",
        figures["index_mb"],
        "MB",
        note="vectors, coarse map and FTS5 tables on disk",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--world-dir", type=Path, default=REPO / "var" / "bench-world-default" / "world")
    parser.add_argument("--sizes", default="1,3,10", help="copies of the 100,000 pages")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.queries)))
        return
    base = args.world_dir.resolve()
    with sqlite3.connect(base / "world.db") as con:
        (pages,) = con.execute("SELECT count(*) FROM documents").fetchone()
    with tempfile.TemporaryDirectory(prefix="leadwire-search-scale-", dir=REPO / "var") as tmp:
        for copies in (int(c) for c in args.sizes.split(",")):
            world = base
            if copies > 1:
                started = time.perf_counter()
                world = tiled_world(base, Path(tmp) / f"x{copies}", copies)
                bs.note(f"{pages * copies:,} pages indexed in {time.perf_counter() - started:.0f} s")
            out = subprocess.run(
                [sys.executable, __file__, "--measure", str(world), "--queries", str(args.queries)],
                check=True,
                capture_output=True,
                text=True,
                env=bs.child_env(),
            )
            report(pages * copies, json.loads(out.stdout.strip().splitlines()[-1]))
            if copies > 1:
                shutil.rmtree(world)


if __name__ == "__main__":
    main()
