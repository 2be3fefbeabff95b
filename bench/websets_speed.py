"""Webset speed on the default world: a list of 1,000 through the real routes and the embedded worker
(SQLite, as `make serve` runs): seconds to the first 25 qualified items readable on the Items endpoint,
and to `completed`; beside the raw engine doing the candidate work alone (the search index ranking the
same request and reading 1,000 companies' rows), measured in the same run.

    .venv/bin/python bench/websets_speed.py [--world-dir DIR] [--count 1000] [--query "..."]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from pathlib import Path

from _support import REPO, emit, emit_triple, note
from _websets import WebsetHarness
from leadwire.providers.search import SearchRequest
from leadwire.search.index import LocalSearchIndex

DEFAULT_WORLD = REPO / "var" / "bench-world-default" / "world"


async def measure(world: Path, query: str, count: int) -> tuple[float, float, dict[str, object]]:
    with tempfile.TemporaryDirectory(prefix="leadwire-ws-speed-") as tmp:
        async with WebsetHarness(world, Path(tmp)) as harness:
            started = time.perf_counter()
            webset = await harness.create(query, count=count)
            first = None
            while True:
                page = await harness.call(
                    "GET", f"/api/v2/websets/{webset['id']}/items", params={"limit": 25}
                )
                if first is None and len(page["items"]) >= 25:
                    first = time.perf_counter() - started
                if page["webset_status"] in ("completed", "failed", "cancelled"):
                    break
                await asyncio.sleep(0.1)
            total = time.perf_counter() - started
            final = await harness.wait(webset["id"])
    return first if first is not None else float("nan"), total, final


def raw_engine(world: Path, query: str, count: int) -> float:
    """The search index ranking the request and reading the rows of `count` distinct companies."""
    index = LocalSearchIndex(world)
    index.ranked_rowids(SearchRequest(query="warm up", limit=10))
    started = time.perf_counter()
    ranked = index.ranked_rowids(SearchRequest(query=query, limit=10, category="company"))
    rows = index.fetch("rowid, url", ranked[: count * 3])
    domains = list(dict.fromkeys(url.split("//", 1)[-1].split("/", 1)[0] for _, url in rows))[:count]
    index.query_world(f"SELECT * FROM companies WHERE domain IN ({','.join('?' * len(domains))})", domains)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--world-dir", type=Path, default=DEFAULT_WORLD)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--query", default="manufacturing companies")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    if not (args.world_dir / "search_index.json").exists():
        raise SystemExit(f"no indexed world at {args.world_dir}: see bench/websets_quality.py")
    first, total, final = asyncio.run(measure(args.world_dir, args.query, args.count))
    baseline = raw_engine(args.world_dir, args.query, args.count)
    progress = final["progress"]
    note(f"{args.query!r} count {args.count}: {final['status']}, progress {progress}")
    emit_triple(
        "websets_1000_seconds", total, baseline, "s", ratio=total / max(baseline, 1e-9),
        target="target <= 60 s on 2 cores; baseline: the search index ranking and reading 1,000 companies",
    )  # fmt: skip
    emit(
        "websets_first_25_seconds", first, "s", note="target <= 5 s; to 25 qualified items on the Items page"
    )


if __name__ == "__main__":
    main()
