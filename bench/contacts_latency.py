"""Latency of a sandbox contacts search plus hierarchy inference, the work of one contacts job.

Times ``SandboxContactsProvider.domain_search`` followed by ``infer_hierarchy``
over random company domains of a world and prints p50/p99 as ``figure: value`` lines.

    .venv/bin/python bench/contacts_latency.py --world-dir var/bench-world
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import time
from pathlib import Path

from _support import emit, percentile
from hierarchy_quality import ensure_world
from leadwire.providers.sandbox_contacts import SandboxContactsProvider
from leadwire.research.hierarchy import infer_hierarchy


def sample_domains(world_dir: Path, count: int, seed: int) -> list[str]:
    with sqlite3.connect(f"{(world_dir / 'world.db').resolve().as_uri()}?mode=ro", uri=True) as conn:
        domains = [r[0] for r in conn.execute("SELECT domain FROM companies ORDER BY id")]
    rnd = random.Random(seed)
    return [rnd.choice(domains) for _ in range(count)]


async def timed_searches(
    world_dir: Path, domains: list[str], limit: int, positions: list[str]
) -> list[float]:
    provider = SandboxContactsProvider(world_dir)
    await provider.domain_search(domains[0], limit=limit, positions=positions, locale="en")  # warm caches
    timings: list[float] = []
    for domain in domains:
        started = time.perf_counter()
        found = await provider.domain_search(domain, limit=limit, positions=positions, locale="en")
        infer_hierarchy(found.company_name, domain, found.contacts)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--world-dir", type=Path, help="reuse (or build into) this world directory")
    parser.add_argument("--size", default="default", choices=("small", "default"))
    parser.add_argument("--seed", type=int, default=7, help="world seed (also picks the domains)")
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--limit", type=int, default=20)
    args = parser.parse_args()
    world_dir = ensure_world(args.world_dir, args.size, args.seed)
    domains = sample_domains(world_dir, args.count, args.seed)
    for label, positions in (("", []), ("_with_positions", ["sales", "engineering", "财务"])):
        timings = asyncio.run(timed_searches(world_dir, domains, args.limit, positions))
        emit(f"contacts_search_p50{label}", percentile(timings, 50), "ms", f"limit {args.limit}")
        emit(f"contacts_search_p99{label}", percentile(timings, 99), "ms", f"{len(timings)} domains")


if __name__ == "__main__":
    main()
