"""Quality of the title-only hierarchy against the sandbox world's true reporting lines.

For every company with at least five people, runs the sandbox contacts provider
(limit 50, no position filter) and ``infer_hierarchy``, then compares inferred
person-to-person ``reports_to`` edges with ``people.manager_id``. Prints
``figure: value`` lines, a naive baseline (everyone reports to the most senior
person) from the same run, and how well edge confidence matches observed precision.

    .venv/bin/python bench/hierarchy_quality.py --world-dir var/bench-world
    .venv/bin/python bench/hierarchy_quality.py --size small --locale zh
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from _support import emit
from leadwire.providers.sandbox_contacts import SandboxContactsProvider
from leadwire.research.hierarchy import Hierarchy, infer_hierarchy

MIN_PEOPLE = 5
DEFAULT_WORLD_DIR = Path("var/bench-world")
AS_OF = date(2025, 6, 30)
Truth = dict[tuple[str, str], tuple[str, str | None]]  # (domain, email) -> (person id, manager id)


@dataclass
class Tally:
    people: int = 0
    placed: int = 0
    true_links: int = 0
    edges: int = 0
    correct: int = 0
    naive_edges: int = 0
    naive_correct: int = 0
    by_confidence: dict[float, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))

    def add_edge(self, confidence: float, ok: bool) -> None:
        self.edges += 1
        self.correct += ok
        bucket = self.by_confidence[confidence]
        bucket[0] += ok
        bucket[1] += 1


def ensure_world(world_dir: Path | None, size: str, seed: int) -> Path:
    """The world to measure: ``world_dir`` if it holds one, else a fresh build there (or in var/bench-world).

    The defaults match the search benchmarks, so every benchmark measures the same world.
    """
    target = world_dir or DEFAULT_WORLD_DIR
    if not (target / "world.db").is_file():
        from leadwire.sandbox.world import build_world  # only needed when there is no world yet

        started = time.perf_counter()
        build_world(target, seed=seed, size=size, as_of=AS_OF, progress=True)
        emit("world_build_seconds", time.perf_counter() - started, "s")
    return target


def load_truth(db: Path, locale: str) -> tuple[list[str], Truth]:
    """Domains of companies with enough people, and (domain, email) -> (person id, manager id).

    For ``zh`` only companies whose people have Chinese titles count, so the Chinese rules are measured.
    """
    having = "HAVING COUNT(*) >= ?" + (" AND COUNT(p.title_zh) > 0" if locale == "zh" else "")
    with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as conn:
        domains = [
            r[0]
            for r in conn.execute(
                "SELECT c.domain FROM companies c JOIN people p ON p.company_id = c.id "
                f"GROUP BY c.id {having} ORDER BY c.id",
                (MIN_PEOPLE,),
            )
        ]
        truth = {
            (domain, email): (pid, manager)
            for domain, email, pid, manager in conn.execute(
                "SELECT c.domain, p.email, p.id, p.manager_id "
                "FROM people p JOIN companies c ON c.id = p.company_id"
            )
        }
    return domains, truth


def score(tally: Tally, domain: str, h: Hierarchy, truth: Truth) -> None:
    """Add one company's inferred tree, and the naive tree of the same people, to ``tally``."""
    people = [truth[(domain, n.email or "")] for n in h.nodes[1:]]
    pid = {n.id: person for n, (person, _) in zip(h.nodes[1:], people, strict=True)}
    manager = dict(people)
    returned = set(pid.values())
    tally.people += len(pid)
    tally.true_links += sum(1 for m in manager.values() if m is not None and m in returned)
    tally.placed += len({e.source for e in h.edges})
    for e in h.edges:
        if e.relation == "reports_to":
            tally.add_edge(e.confidence, manager[pid[e.source]] == pid[e.target])
    top = next(iter(pid.values()), None)
    for person, boss in manager.items():
        if person != top:
            tally.naive_edges += 1
            tally.naive_correct += boss == top


async def run(world_dir: Path, locale: str, limit: int) -> Tally:
    domains, truth = load_truth(world_dir / "world.db", locale)
    provider = SandboxContactsProvider(world_dir)
    tally = Tally()
    for domain in domains:
        found = await provider.domain_search(domain, limit=limit, positions=[], locale=locale)
        score(tally, domain, infer_hierarchy(found.company_name, domain, found.contacts), truth)
    return tally


def report(tally: Tally, locale: str) -> None:
    suffix = "" if locale == "en" else f"_{locale}"
    precision = tally.correct / tally.edges if tally.edges else 0.0
    naive = tally.naive_correct / tally.naive_edges if tally.naive_edges else 0.0
    emit(f"hierarchy_people{suffix}", tally.people)
    emit(f"hierarchy_reports_to_edges{suffix}", tally.edges)
    emit(f"hierarchy_precision{suffix}", precision)
    emit(f"hierarchy_recall{suffix}", tally.correct / tally.true_links if tally.true_links else 0.0)
    emit(f"hierarchy_placed_share{suffix}", tally.placed / tally.people if tally.people else 0.0)
    emit(f"hierarchy_naive_precision{suffix}", naive, note="everyone reports to the most senior person")
    emit(f"hierarchy_precision_over_naive{suffix}", precision / naive if naive else float("inf"), "x")
    for confidence in sorted(tally.by_confidence):
        ok, n = tally.by_confidence[confidence]
        emit(f"hierarchy_observed_precision{suffix}[confidence={confidence:.2f}]", ok / n, note=f"{n} edges")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--world-dir", type=Path, help="reuse (or build into) this world directory")
    parser.add_argument("--size", default="default", choices=("small", "default"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--locale", default="both", choices=("en", "zh", "both"))
    parser.add_argument("--limit", type=int, default=50)
    args = parser.parse_args()
    world_dir = ensure_world(args.world_dir, args.size, args.seed)
    for locale in ("en", "zh") if args.locale == "both" else (args.locale,):
        started = time.perf_counter()
        tally = asyncio.run(run(world_dir, locale, args.limit))
        report(tally, locale)
        emit(
            f"hierarchy_bench_seconds{'' if locale == 'en' else '_' + locale}",
            time.perf_counter() - started,
            "s",
        )


if __name__ == "__main__":
    main()
