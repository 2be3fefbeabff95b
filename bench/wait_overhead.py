"""What the job path adds to a small job a caller waits for: `Prefer: wait` through the API against the
same work done directly, same run, on both deployments.

Cases (the work a person or an agent waits on all the time):
  * customs: the four sections and the trade report for 8 importers from the busiest to a small one,
    and companies/search for the two busiest HS chapters (42 cases) on the `default` world;
    direct = the same aggregation in DuckDB SQL on a raw read-only connection to the same file;
  * public-web: 20 research queries (`search_limit` 5); direct = the same query through the same
    search adapter the worker uses, in this process, on the same world;
  * no-op: the test plugin's echo job (no work, not billed); direct = nothing, so its whole p50 is the
    path's cost, printed beside the round trip of an authenticated `GET /api/v2/credits` (HTTP alone).
Every case runs API and direct alternately (`--repetitions` times after 2 warm-up rounds), so both see
the same caches. Overhead = p50 through the API − p50 direct, per case; a deployment's figure is the
median over its cases. Targets: overhead p50 ≤ 3 ms embedded, ≤ 5 ms cluster; customs median ratio
≤ 1.3×, worst ≤ 2× (embedded).
  * embedded: `leadwire serve` (SQLite, in-process worker);
  * cluster: `leadwire api` + `leadwire worker` over PostgreSQL and Redis.

    .venv/bin/python bench/wait_overhead.py [--world-dir var/bench-world-default/world] [--repetitions 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _support as bs
from customs import _RAW_SEARCH, _RAW_SECTION

REPO = Path(__file__).resolve().parents[1]
PLUGINS = "tests.support.echo,bench.plugins.unlimited"
SECTIONS = ("counterparties", "categories", "trends", "countries")
QUERIES = (
    "software company",
    "industrial automation supplier",
    "medical device manufacturer",
    "logistics and freight forwarding",
    "organic food distributor",
    "cybersecurity consulting firm",
    "solar panel installer",
    "furniture maker",
    "pharmaceutical wholesaler",
    "electric vehicle charging",
    "textile exporter",
    "dental clinic chain",
    "construction equipment rental",
    "marketing agency for startups",
    "semiconductor packaging",
    "coffee roaster",
    "payment processing platform",
    "steel fabrication",
    "veterinary products",
    "recruitment agency",
)


@dataclass
class Case:
    kind: str  # customs | public-web | no-op
    name: str
    path: str
    body: dict[str, Any]
    direct: Callable[[], Any] | None
    api_ms: list[float] = field(default_factory=list)
    direct_ms: list[float] = field(default_factory=list)

    @property
    def api_p50(self) -> float:
        return bs.percentile(self.api_ms, 50)

    @property
    def direct_p50(self) -> float:
        return bs.percentile(self.direct_ms, 50) if self.direct_ms else 0.0


def _window(con: duckdb.DuckDBPyConnection) -> tuple[str, str]:
    (last,) = con.execute("SELECT max(date) FROM shipments").fetchone() or (None,)
    start = last.replace(year=last.year - 1)
    return str(start), str(last)


def customs_cases(world: Path) -> list[Case]:
    con = duckdb.connect(str(world / "trade.duckdb"), read_only=True, config={"memory_limit": "1GB"})
    start, end = _window(con)
    ranked = [
        row[0]
        for row in con.execute(
            "SELECT importer_name FROM shipments WHERE in_imports AND date BETWEEN $1 AND $2 "
            "GROUP BY 1 ORDER BY count(*) DESC, 1",
            [start, end],
        ).fetchall()
    ]
    # From the busiest to a small importer: the ranks at these fractions of the list.
    importers = [ranked[int(f * (len(ranked) - 1))] for f in (0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.95)]
    chapters = [
        row[0]
        for row in con.execute(
            "SELECT left(hs_code, 2) FROM shipments WHERE in_imports AND date BETWEEN $1 AND $2 "
            "GROUP BY 1 ORDER BY count(*) DESC LIMIT 2",
            [start, end],
        ).fetchall()
    ]

    def raw(sql: str, params: list[Any]) -> Callable[[], Any]:
        return lambda: con.execute(sql, params).fetchall()

    def raw_report(params: list[Any]) -> Callable[[], Any]:
        return lambda: [con.execute(_RAW_SECTION[s], params).fetchall() for s in SECTIONS]

    cases = []
    for rank, importer in enumerate(importers):
        body = {"company_name": importer, "company_role": "importer", "start_date": start, "end_date": end}
        params = [importer, start, end]
        for section in SECTIONS:
            cases.append(
                Case(
                    "customs",
                    f"{section}#{rank}",
                    f"/api/v2/customs/{section}",
                    body,
                    raw(_RAW_SECTION[section], params),
                )
            )
        cases.append(
            Case("customs", f"report#{rank}", "/api/v2/customs/trade-reports", body, raw_report(params))
        )
    for chapter in chapters:
        body = {"company_role": "importer", "hs_code": chapter, "start_date": start, "end_date": end}
        cases.append(
            Case(
                "customs",
                f"search#{chapter}",
                "/api/v2/customs/companies/search",
                body,
                raw(_RAW_SEARCH, [chapter + "%", start, end]),
            )
        )
    return cases


def public_web_cases(world: Path) -> list[Case]:
    from leadwire.config import Settings
    from leadwire.providers.registry import build_providers
    from leadwire.providers.search import SearchRequest

    search = build_providers(Settings(world_dir=world))["search"]
    loop = asyncio.new_event_loop()

    def direct(query: str) -> Callable[[], Any]:
        return lambda: loop.run_until_complete(search.search(SearchRequest(query=query, limit=5)))

    return [
        Case(
            "public-web",
            query,
            "/api/v2/research/public-web",
            {"queries": [query], "search_limit": 5},
            direct(query),
        )
        for query in QUERIES
    ]


def noop_cases() -> list[Case]:
    return [Case("no-op", f"echo#{i}", "/api/v2/test/echo", {"message": f"m{i}"}, None) for i in range(10)]


def measure(base_url: str, key: str, cases: list[Case], repetitions: int) -> list[float]:
    """Fill each case's timings; the round trips of an authenticated GET, the HTTP floor."""
    headers = {"Authorization": f"Bearer {key}", "Prefer": "wait=20"}
    floor = []
    with httpx.Client(base_url=base_url, timeout=60.0) as http:
        for round_ in range(repetitions + 2):
            for case in cases:
                started = time.perf_counter()
                response = http.post(case.path, json=case.body, headers=headers)
                elapsed = (time.perf_counter() - started) * 1000
                if response.status_code != 200 or response.json()["item"]["status"] != "succeeded":
                    raise RuntimeError(f"{case.path} answered {response.status_code}: {response.text[:400]}")
                started = time.perf_counter()
                if case.direct is not None:
                    case.direct()
                direct = (time.perf_counter() - started) * 1000
                if round_ >= 2:
                    case.api_ms.append(elapsed)
                    if case.direct is not None:
                        case.direct_ms.append(direct)
            started = time.perf_counter()
            http.get(
                "/api/v2/credits", headers={"Authorization": headers["Authorization"]}
            ).raise_for_status()
            if round_ >= 2:
                floor.append((time.perf_counter() - started) * 1000)
    return floor


def report(label: str, cases: list[Case], floor: list[float], target_ms: float) -> None:
    overhead = statistics.median(case.api_p50 - case.direct_p50 for case in cases)
    bs.emit(
        f"wait_overhead_p50_ms_{label}",
        overhead,
        "ms",
        note=f"median over {len(cases)} cases of (API p50 − direct p50); "
        f"target ≤ {target_ms:g} ms: {bs.verdict(overhead <= target_ms)}",
    )
    for kind in ("customs", "public-web", "no-op"):
        report_kind(label, kind, [case for case in cases if case.kind == kind])
    floor_p50 = bs.percentile(floor, 50)
    bs.emit(f"wait_http_floor_p50_ms_{label}", floor_p50, "ms", note="GET /api/v2/credits round trip")


def report_kind(label: str, kind: str, chosen: list[Case]) -> None:
    api = [ms for case in chosen for ms in case.api_ms]
    direct = [ms for case in chosen for ms in case.direct_ms] or [0.0]
    over = statistics.median(case.api_p50 - case.direct_p50 for case in chosen)
    for q in (50, 99):
        value, base = bs.percentile(api, q), bs.percentile(direct, q)
        bs.emit_triple(
            f"wait_{kind}_p{q}_ms_{label}",
            value,
            base,
            "ms",
            ratio=bs.safe_ratio(value, base) if base else float("nan"),
            target=f"API vs direct; overhead median {over:.1f} ms over {len(chosen)} cases",
        )
    if kind != "customs":
        return
    ratios = [case.api_p50 / case.direct_p50 for case in chosen]
    median = statistics.median(ratios)
    bs.emit(
        f"wait_customs_ratio_median_{label}",
        median,
        "x",
        note=f"per case API p50 ÷ raw DuckDB p50; target ≤ 1.3×: {bs.verdict(median <= 1.3)}",
    )
    worst = max(chosen, key=lambda case: case.api_p50 / case.direct_p50)
    ratio = worst.api_p50 / worst.direct_p50
    bs.emit(
        f"wait_customs_ratio_worst_{label}",
        ratio,
        "x",
        note=f"{worst.name}: {worst.api_p50:.1f} vs {worst.direct_p50:.1f} ms; "
        f"target ≤ 2×: {bs.verdict(ratio <= 2)}",
    )


@contextlib.contextmanager
def embedded(tmp: Path, world: Path) -> Iterator[tuple[str, str]]:
    data = tmp / "embedded"
    env = bs.leadwire_env(data, plugins=PLUGINS, pycache=tmp / "pycache", LEADWIRE_WORLD_DIR=str(world))
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    database = f"sqlite+aiosqlite:///{(data / 'leadwire.db').resolve()}"
    _, keys = asyncio.run(bs.create_account(database, credits=10_000_000))
    port = str(bs.free_port())
    with bs.running(bs.leadwire_cmd("serve", "--port", port), env, tmp / "serve.log") as server:
        base_url = f"http://127.0.0.1:{port}"
        bs.wait_http_ok(f"{base_url}/readyz", server, timeout=300.0)
        yield base_url, keys[0][1]


@contextlib.contextmanager
def cluster(tmp: Path, world: Path) -> Iterator[tuple[str, str]]:
    with bs.temp_postgres_database("wait_overhead") as pg_url:
        database_url = bs.sqlalchemy_url(pg_url)
        env = bs.leadwire_env(
            tmp / "cluster",
            database_url=database_url,
            plugins=PLUGINS,
            pycache=tmp / "pycache",
            LEADWIRE_WORLD_DIR=str(world),
            LEADWIRE_REDIS_URL=bs.REDIS_URL,
        )
        bs.run_checked(bs.leadwire_cmd("migrate"), env)
        _, keys = asyncio.run(bs.create_account(database_url, credits=10_000_000))
        port = str(bs.free_port())
        with (
            bs.running(bs.leadwire_cmd("api", "--port", port), env, tmp / "api.log") as api,
            bs.running(bs.leadwire_cmd("worker"), env, tmp / "worker.log"),
        ):
            base_url = f"http://127.0.0.1:{port}"
            bs.wait_http_ok(f"{base_url}/readyz", api, timeout=300.0)
            yield base_url, keys[0][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--world-dir", type=Path, default=REPO / "var" / "bench-world-default" / "world")
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--only", choices=("embedded", "cluster"), default=None)
    args = parser.parse_args()
    world = args.world_dir.resolve()
    if not (world / "trade.duckdb").exists():
        build = bs.leadwire_cmd("sandbox", "build", "--size", "default", "--data-dir", str(world.parent))
        bs.run_checked(build, bs.child_env(), timeout=1800)
    cases = [*customs_cases(world), *public_web_cases(world), *noop_cases()]
    bs.note(
        f"{len(cases)} cases x {args.repetitions} repetitions, API and direct alternately, Prefer: wait=20"
    )
    deployments = {"embedded": (embedded, 3.0), "cluster": (cluster, 5.0)}
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-overhead-") as tmp_name:
        for label, (deployment, target) in deployments.items():
            if args.only not in (None, label):
                continue
            if label == "cluster" and not (bs.postgres_reachable() and bs.redis_reachable()):
                bs.note("cluster part skipped: PostgreSQL or Redis not reachable")
                continue
            for case in cases:
                case.api_ms.clear()
                case.direct_ms.clear()
            with deployment(Path(tmp_name), world) as (base_url, key):
                floor = measure(base_url, key, cases, args.repetitions)
            report(label, cases, floor, target)


if __name__ == "__main__":
    main()
