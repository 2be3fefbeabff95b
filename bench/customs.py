"""Customs on the `large` world (20,000,000 shipments), each figure beside DuckDB doing the same work.

1. Each section alone, the trade report (four sections) for the busiest importer, and companies/search
   for the busiest HS chapter, p50 and p99 over one year: the trade store + result shaping
   (`customs.service`) vs the same aggregation written directly in DuckDB SQL on a raw connection to
   the same file (the floor: no paging totals, no shaping). Target ≤ 1.5× raw.
2. The billed job on the real route: `POST /api/v2/customs/trade-reports` with `Prefer: wait` on
   `leadwire serve` (API + in-process worker, SQLite), p50/p99 request to finished job, vs the raw SQL
   of the four sections run at once on four cursors (as the service runs them); and the peak RSS of
   that process (VmHWM) with `LEADWIRE_TRADE_MEMORY_LIMIT`.
3. Candidates: p50 over 1,000 name variants (case, legal form dropped or changed, a typo) of names
   in the records, and how often the original name is the first candidate; baseline: DuckDB
   counting the exact name's records. The same rate over names we did not write: the 607 real
   companies of `../shared/data/real-companies-dev.jsonl` as importers, ~4 variants each.
4. Ingestion: rows/s of `ingest_shipments` for a 1,000,000-row CSV into an empty world vs DuckDB
   loading the same CSV into a table (`CREATE TABLE AS SELECT * FROM read_csv(...)`).

    .venv/bin/python bench/customs.py [--world-dir var/bench-world-large] [--runs 25]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import duckdb
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _support import (
    create_account,
    emit,
    emit_triple,
    free_port,
    import_repo_module,
    leadwire_cmd,
    leadwire_env,
    note,
    percentile,
    run_checked,
    running,
    safe_ratio,
    verdict,
    wait_http_ok,
)
from leadwire.customs import candidates, service
from leadwire.customs.schemas import CandidatesRequest, CompanySearchRequest, SectionRequest
from leadwire.providers.trade_duckdb import DuckDBTradeStore
from leadwire.providers.trade_ingest import ingest_shipments

AS_OF = dt.date(2025, 6, 30)
START, END = dt.date(2024, 7, 1), AS_OF
MEMORY_LIMIT = "1GB"
_RAW_SECTION = {
    "counterparties": "SELECT exporter_name, exporter_country3, count(*) n, sum(amount_usd) usd, "
    "sum(weight_kg), sum(quantity) FROM shipments WHERE importer_name = $1 AND in_imports "
    "AND date BETWEEN $2 AND $3 GROUP BY 1, 2 ORDER BY usd DESC LIMIT 20",
    "categories": "SELECT left(hs_code, 6), count(*), sum(amount_usd) usd, sum(weight_kg), sum(quantity), "
    "count(DISTINCT exporter_name) FROM shipments WHERE importer_name = $1 AND in_imports "
    "AND date BETWEEN $2 AND $3 GROUP BY 1 ORDER BY usd DESC LIMIT 20",
    "trends": "SELECT date_trunc('month', date), count(*), sum(amount_usd), sum(weight_kg), sum(quantity), "
    "count(DISTINCT exporter_name) FROM shipments WHERE importer_name = $1 AND in_imports "
    "AND date BETWEEN $2 AND $3 GROUP BY 1 ORDER BY 1",
    "countries": "SELECT origin_country3, count(*), sum(amount_usd) usd, sum(weight_kg), sum(quantity), "
    "count(DISTINCT exporter_name) FROM shipments WHERE importer_name = $1 AND in_imports "
    "AND date BETWEEN $2 AND $3 GROUP BY 1 ORDER BY usd DESC LIMIT 20",
}
_RAW_COUNT = (
    "SELECT count(*) FROM shipments WHERE importer_name = $1 AND in_imports AND date BETWEEN $2 AND $3"
)
_RAW_SEARCH = (
    "SELECT importer_name, importer_country3, count(*) n, sum(amount_usd), sum(quantity), sum(weight_kg) "
    "FROM shipments WHERE in_imports AND date BETWEEN $2 AND $3 AND hs_code LIKE $1 "
    "GROUP BY 1, 2 ORDER BY n DESC, importer_name LIMIT 20"
)


def ensure_world(world_dir: Path) -> Path:
    if not (world_dir / "trade.duckdb").exists():
        from leadwire.sandbox.world import build_world

        started = time.perf_counter()
        build_world(world_dir, seed=7, size="large", as_of=AS_OF, progress=True)
        emit("large_world_build_seconds", time.perf_counter() - started, "s")
    from leadwire.search.store import read_manifest

    if read_manifest(world_dir) is None:  # `leadwire serve` would build the search index before serving
        from leadwire.search.index import build_search_index

        started = time.perf_counter()
        build_search_index(world_dir, progress=True)
        note(f"search index built in {time.perf_counter() - started:.0f} s")
    return world_dir


def raw_connection(path: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(path), read_only=True, config={"memory_limit": MEMORY_LIMIT})


def busiest(con: duckdb.DuckDBPyConnection) -> tuple[str, str]:
    (importer,) = con.execute(
        "SELECT importer_name FROM shipments WHERE in_imports AND date BETWEEN $1 AND $2 "
        "GROUP BY 1 ORDER BY count(*) DESC LIMIT 1",
        [START, END],
    ).fetchone() or ("",)
    (chapter,) = con.execute(
        "SELECT left(hs_code, 2) FROM shipments WHERE in_imports AND date BETWEEN $1 AND $2 "
        "GROUP BY 1 ORDER BY count(*) DESC LIMIT 1",
        [START, END],
    ).fetchone() or ("",)
    return str(importer), str(chapter)


async def timed(work: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await work()
    return (time.perf_counter() - started) * 1000


async def compare(
    name: str, ours: Callable[[], Awaitable[Any]], raw: Callable[[], Any], runs: int
) -> tuple[float, float]:
    """p50/p99 of ours and raw, run alternately so both see the same cache state; figures printed."""
    for _ in range(2):
        await ours()
        raw()
    ours_ms, raw_ms = [], []
    for _ in range(runs):
        ours_ms.append(await timed(ours))
        started = time.perf_counter()
        raw()
        raw_ms.append((time.perf_counter() - started) * 1000)
    for q in (50, 99):
        value, base = percentile(ours_ms, q), percentile(raw_ms, q)
        ratio = safe_ratio(value, base)
        emit_triple(
            f"{name}_p{q}_ms", value, base, "ms", ratio=ratio, target=f"≤ 1.5× raw: {verdict(ratio <= 1.5)}"
        )
    return percentile(ours_ms, 50), percentile(raw_ms, 50)


async def store_figures(world: Path, runs: int) -> None:
    path = world / "trade.duckdb"
    con = raw_connection(path)
    importer, chapter = busiest(con)
    count = con.execute(_RAW_COUNT, [importer, START, END]).fetchone()
    note(
        f"busiest importer {importer!r}: {count[0] if count else 0} records in a year; "
        f"busiest chapter {chapter}"
    )
    store = DuckDBTradeStore(path, memory_limit=MEMORY_LIMIT)
    section = SectionRequest.model_validate(
        {"company_name": importer, "company_role": "importer", "start_date": str(START), "end_date": str(END)}
    )
    params = [importer, START, END]

    def raw_section(name: str) -> Callable[[], Any]:
        return lambda: con.execute(_RAW_SECTION[name], params).fetchall()

    def our_section(name: service.Section) -> Callable[[], Awaitable[Any]]:
        return lambda: service.one_section(store, name, section)

    for name in service.SECTIONS:
        await compare(f"customs_{name}", our_section(name), raw_section(name), runs)

    await compare(
        "customs_trade_report",
        lambda: service.trade_report(store, section),
        lambda: raw_report(con, importer),
        runs,
    )
    search = CompanySearchRequest.model_validate(
        {"company_role": "importer", "hs_code": chapter, "start_date": str(START), "end_date": str(END)}
    )
    await compare(
        "customs_companies_search",
        lambda: service.search_companies(store, search),
        lambda: con.execute(_RAW_SEARCH, [chapter + "%", START, END]).fetchall(),
        runs,
    )
    await candidate_figures(store, con)
    await store.close()
    con.close()


def variants(names: list[str], count: int, rng: random.Random) -> list[tuple[str, str]]:
    """(variant, original): the spellings a user types for a name seen in the records."""
    chosen = rng.sample(names, min(count, len(names)))
    out = []
    for name in chosen:
        words = name.split()
        kind = rng.randrange(4)
        if kind == 0:
            variant = name.upper()
        elif kind == 1 and len(words) > 1:
            variant = " ".join(words[:-1]).lower()  # the legal form (or last word) left out
        elif kind == 2:
            i = rng.randrange(1, max(2, len(name) - 1))
            variant = name[:i] + name[i + 1 :]  # one character dropped
        else:
            variant = f"{words[0]} {' '.join(words[1:-1])} Co., Ltd." if len(words) > 2 else name.lower()
        out.append((variant, name))
    return out


async def candidate_figures(store: DuckDBTradeStore, con: duckdb.DuckDBPyConnection) -> None:
    names = await store.company_names("importer")
    pairs = variants(names, 1000, random.Random(7))
    ours_ms, raw_ms, first = [], [], 0
    for variant, original in pairs:
        body = CandidatesRequest.model_validate(
            {
                "company_name": variant,
                "company_role": "importer",
                "start_date": str(START),
                "end_date": str(END),
            }
        )
        started = time.perf_counter()
        result = await candidates.find_candidates(store, body)
        ours_ms.append((time.perf_counter() - started) * 1000)
        found = result["candidates"]
        first += bool(found) and found[0]["name"] == original
        started = time.perf_counter()
        con.execute(_RAW_COUNT, [original, START, END]).fetchall()
        raw_ms.append((time.perf_counter() - started) * 1000)
    value, base = percentile(ours_ms, 50), percentile(raw_ms, 50)
    emit_triple(
        "customs_candidates_p50_ms",
        value,
        base,
        "ms",
        ratio=safe_ratio(value, base),
        target="fuzzy match + counts vs one exact count",
    )
    emit("customs_candidates_p99_ms", percentile(ours_ms, 99), "ms")
    emit("customs_candidates_top1_rate", first / len(pairs), note=f"{len(pairs)} variants of importer names")


def raw_report(con: duckdb.DuckDBPyConnection, importer: str) -> None:
    """The four sections' raw SQL at once, each on its own cursor and thread, as the service runs
    them: the floor under a trade report."""

    def one(sql: str) -> None:
        cursor = con.cursor()
        try:
            cursor.execute(sql, [importer, START, END]).fetchall()
        finally:
            cursor.close()

    with ThreadPoolExecutor(max_workers=len(_RAW_SECTION)) as pool:
        list(pool.map(one, _RAW_SECTION.values()))


def raw_report_p50_ms(world: Path, importer: str, runs: int) -> float:
    with raw_connection(world / "trade.duckdb") as con:
        elapsed = []
        for _ in range(runs):
            started = time.perf_counter()
            raw_report(con, importer)
            elapsed.append((time.perf_counter() - started) * 1000)
    return percentile(elapsed, 50)


REAL_COMPANIES = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-companies-dev.jsonl"


def real_variants(name: str, rng: random.Random) -> list[str]:
    """How people write a real company's name: other case, a legal form added, initials run together,
    a typo, the first words only."""
    words = name.replace(",", "").split()
    variants = [name.upper(), f"{name} Inc.", name.replace(". ", "").replace(".", "")]
    if len(name) > 5:
        i = rng.randrange(1, len(name) - 1)
        variants.append(name[:i] + name[i + 1 :])
    if len(words) > 2:
        variants.append(" ".join(words[:2]))
    return [v for v in dict.fromkeys(variants) if v != name]


async def real_name_figures(tmp: Path, world: Path) -> None:
    """Candidates over names we did not write: the 607 real companies of ../shared/data as importers,
    among the large world's importer names as distractors (~20,000 names in all)."""
    import json

    write_csv = import_repo_module("tests.support.trade").write_csv

    names = [json.loads(line)["name"] for line in REAL_COMPANIES.read_text().splitlines() if line.strip()]
    with raw_connection(world / "trade.duckdb") as con:
        distractors = [
            row[0] for row in con.execute("SELECT DISTINCT importer_name FROM shipments").fetchall()
        ]
    rows = [
        {
            "id": i + 1,
            "date": START + dt.timedelta(days=i % 300),
            "importer_id": None,
            "exporter_id": None,
            "importer_name": name,
            "exporter_name": f"Supplier {i % 40}",
            "importer_country3": "USA",
            "exporter_country3": "CHN",
            "origin_country3": "CHN",
            "destination_country3": "USA",
            "hs_code": "8471300000",
            "product_description": "goods",
            "quantity": 1,
            "weight_kg": 1,
            "amount_usd": 100,
            "in_imports": True,
            "in_exports": False,
        }
        for i, name in enumerate([*names, *distractors])
    ]
    report = ingest_shipments(
        write_csv(tmp / "real.csv", rows), store="duckdb", world_dir=tmp / "real", database_url=None
    )
    assert report.accepted, report.errors[:3]
    store = DuckDBTradeStore(tmp / "real" / "trade.duckdb")
    rng = random.Random(7)
    asked = top1 = top3 = 0
    for name in names:
        for variant in real_variants(name, rng):
            body = CandidatesRequest.model_validate(
                {
                    "company_name": variant[:300],
                    "company_role": "importer",
                    "start_date": str(START),
                    "end_date": str(END),
                }
            )
            found = [c["name"] for c in (await candidates.find_candidates(store, body))["candidates"]]
            asked += 1
            top1 += found[:1] == [name]
            top3 += name in found[:3]
    await store.close()
    emit(
        "customs_candidates_real_top1_rate",
        top1 / asked,
        note=f"{asked} variants of {len(names)} real names among {len(distractors)} others",
    )
    emit("customs_candidates_real_top3_rate", top3 / asked)


def served_figures(world: Path, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="lw-customs-bench-") as tmp:
        data = Path(tmp)
        env = leadwire_env(
            data,
            LEADWIRE_WORLD_DIR=str(world.resolve()),
            LEADWIRE_TRADE_MEMORY_LIMIT=MEMORY_LIMIT,
            LEADWIRE_PLUGINS="bench.plugins.unlimited",
        )
        run_checked(leadwire_cmd("migrate"), env)
        database = f"sqlite+aiosqlite:///{(data / 'leadwire.db').resolve()}"
        _, keys = asyncio.run(create_account(database, credits=runs * 300 + 1000))
        port = free_port()
        with running(leadwire_cmd("serve", "--port", str(port)), env, data / "serve.log") as process:
            wait_http_ok(f"http://127.0.0.1:{port}/healthz", process)
            importer, _ = busiest(raw_connection(world / "trade.duckdb"))
            body = {
                "company_name": importer,
                "company_role": "importer",
                "start_date": str(START),
                "end_date": str(END),
            }
            headers = {"Authorization": f"Bearer {keys[0][1]}", "Prefer": "wait=60"}
            elapsed = []
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=90) as http:
                for i in range(runs + 2):
                    started = time.perf_counter()
                    response = http.post("/api/v2/customs/trade-reports", json=body, headers=headers)
                    item = response.json()["item"]
                    assert response.status_code == 200 and item["status"] == "succeeded", response.text[:500]
                    if i >= 2:
                        elapsed.append((time.perf_counter() - started) * 1000)
                note(f"billed {item['billing']['charged_credits']} credits per report")
            raw_report_ms = raw_report_p50_ms(world, importer, runs)
            for q in (50, 99):
                value = percentile(elapsed, q)
                emit_triple(
                    f"customs_trade_report_job_p{q}_ms",
                    value,
                    raw_report_ms,
                    "ms",
                    ratio=safe_ratio(value, raw_report_ms),
                    target="billed job over HTTP vs the four sections' raw SQL, p50",
                )
            emit(
                "customs_serve_peak_rss_mb",
                peak_rss_mb(process.pid),
                "MB",
                note=f"memory_limit {MEMORY_LIMIT}",
            )


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024 / 1e6
    return float("nan")


def ingest_figures(world: Path, rows: int) -> None:
    with tempfile.TemporaryDirectory(prefix="lw-ingest-bench-") as tmp:
        csv = Path(tmp) / "shipments.csv"
        with raw_connection(world / "trade.duckdb") as con:
            con.execute(f"COPY (SELECT * FROM shipments LIMIT {rows}) TO '{csv}' (HEADER)")
        started = time.perf_counter()
        report = ingest_shipments(csv, store="duckdb", world_dir=Path(tmp) / "world", database_url=None)
        ours = time.perf_counter() - started
        assert report.accepted and report.inserted == rows, report.errors[:3]
        started = time.perf_counter()
        with duckdb.connect(str(Path(tmp) / "raw.duckdb")) as con:
            con.execute(f"CREATE TABLE shipments AS SELECT * FROM read_csv('{csv}', header = true)")
        raw = time.perf_counter() - started
        emit_triple(
            "customs_ingest_rows_per_s",
            rows / ours,
            rows / raw,
            "rows/s",
            ratio=safe_ratio(rows / ours, rows / raw),
            target="validated upsert vs DuckDB loading the CSV unchecked",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--world-dir", default="var/bench-world-large")
    parser.add_argument("--runs", type=int, default=25)
    parser.add_argument("--ingest-rows", type=int, default=1_000_000)
    parser.add_argument("--skip-store", action="store_true", help="only the served job and ingestion")
    args = parser.parse_args()
    world = ensure_world(Path(args.world_dir))
    if not args.skip_store:
        asyncio.run(store_figures(world, args.runs))
    with tempfile.TemporaryDirectory(prefix="lw-real-names-") as tmp:
        asyncio.run(real_name_figures(Path(tmp), world))
    served_figures(world, max(5, args.runs // 2))
    ingest_figures(world, args.ingest_rows)


if __name__ == "__main__":
    main()
