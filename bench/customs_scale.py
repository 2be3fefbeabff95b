"""Customs cost as the trade data grows: a section and a trade report for the busiest, a median and a
small importer at 2,000,000, 20,000,000 and `--largest` shipments, each beside DuckDB running the same
aggregation in raw SQL on the same file (the floor), and the curve drawn against the company's rows.

The trade files are generated as the sandbox world generates its shipments (`build_trade`, seed 7,
the `large` world's 20,000 companies) and written in Leadwire's layout (`write_for_companies`): rows
ordered by importer, a copy ordered by exporter. A file is kept under `var/bench-trade-<rows>/` and
reused. Per size and company, `--runs` alternate runs of ours (the trade store + result shaping,
`customs.service`) and the raw SQL, p50 each; the section is counterparties (the widest group-by).
Target (issue 30): section p50 ≤ 20 ms at 20M rows for the busiest importer, and the cost following
the company's rows, not the table's. The PNG (`--out`, default `bench/out/customs_scale.png`) plots
p50 against the company's rows in the year, one series per table size; a straight fit of ours on
the company's rows gives the projection to 10⁹ shipments printed at the end.

    .venv/bin/python bench/customs_scale.py [--largest 100000000] [--runs 15]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime as dt
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _support as bs
from customs import _RAW_SECTION, raw_report
from leadwire.customs import service
from leadwire.customs.schemas import SectionRequest
from leadwire.providers.trade_duckdb import DuckDBTradeStore

REPO = Path(__file__).resolve().parents[1]
AS_OF = dt.date(2025, 6, 30)
START, END = dt.date(2024, 7, 1), AS_OF
SEED = 7
MEMORY_LIMIT = "1GB"


@dataclasses.dataclass
class Point:
    rows: int  # the table's
    company: str
    label: str
    company_rows: int  # the company's, in the year asked
    section_ms: float
    section_raw_ms: float
    report_ms: float
    report_raw_ms: float


def trade_file(rows: int) -> Path:
    """The generated trade file of `rows` shipments, built the first time."""
    path = REPO / "var" / f"bench-trade-{rows}" / "trade.duckdb"
    if path.exists():
        return path
    from leadwire.sandbox.companies import generate_companies
    from leadwire.sandbox.config import size_config
    from leadwire.sandbox.trade import build_trade

    path.parent.mkdir(parents=True, exist_ok=True)
    cfg = dataclasses.replace(size_config("large"), shipments=rows)
    started = time.perf_counter()
    build_trade(path, cfg, SEED, AS_OF, generate_companies(cfg, SEED, AS_OF))
    bs.note(f"{rows:,} shipments generated and laid out in {time.perf_counter() - started:.0f} s")
    return path


def companies(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str, int]]:
    """(label, importer, rows in the year): the busiest, the median and a small one (95th percentile)."""
    ranked = con.execute(
        "SELECT importer_name, count(*) FROM shipments WHERE in_imports AND date BETWEEN $1 AND $2 "
        "GROUP BY 1 ORDER BY 2 DESC, 1",
        [START, END],
    ).fetchall()
    picks = (("busiest", 0), ("median", len(ranked) // 2), ("small", int(len(ranked) * 0.95)))
    return [(label, str(ranked[i][0]), int(ranked[i][1])) for label, i in picks]


async def alternate(
    ours: Callable[[], Awaitable[Any]], raw: Callable[[], Any], runs: int
) -> tuple[float, float]:
    """p50 of ours and of raw, run alternately after two warm-up rounds (the same cache state)."""
    ours_ms, raw_ms = [], []
    for i in range(runs + 2):
        started = time.perf_counter()
        await ours()
        middle = time.perf_counter()
        raw()
        if i >= 2:
            ours_ms.append((middle - started) * 1000)
            raw_ms.append((time.perf_counter() - middle) * 1000)
    return bs.percentile(ours_ms, 50), bs.percentile(raw_ms, 50)


async def measure(rows: int, runs: int) -> list[Point]:
    path = trade_file(rows)
    con = duckdb.connect(str(path), read_only=True, config={"memory_limit": MEMORY_LIMIT})
    store = DuckDBTradeStore(path, memory_limit=MEMORY_LIMIT)
    try:
        return [
            Point(rows, importer, label, company_rows, *await _one_company(store, con, importer, runs))
            for label, importer, company_rows in companies(con)
        ]
    finally:
        await store.close()
        con.close()


async def _one_company(
    store: DuckDBTradeStore, con: duckdb.DuckDBPyConnection, importer: str, runs: int
) -> tuple[float, float, float, float]:
    """(section, its raw SQL, report, its raw SQL) p50s for one importer."""
    body = SectionRequest.model_validate(
        {"company_name": importer, "company_role": "importer", "start_date": str(START), "end_date": str(END)}
    )
    params = [importer, START, END]
    section = await alternate(
        lambda: service.one_section(store, "counterparties", body),
        lambda: con.execute(_RAW_SECTION["counterparties"], params).fetchall(),
        runs,
    )
    report = await alternate(
        lambda: service.trade_report(store, body), lambda: raw_report(con, importer), runs
    )
    return (*section, *report)


def emit(point: Point) -> None:
    tag = f"{point.rows // 1_000_000}M_{point.label}"
    target = ""
    if point.rows == 20_000_000 and point.label == "busiest":
        target = f"; target ≤ 20 ms: {bs.verdict(point.section_ms <= 20)}"
    bs.emit_triple(
        f"customs_scale_section_{tag}_p50_ms",
        point.section_ms,
        point.section_raw_ms,
        "ms",
        ratio=bs.safe_ratio(point.section_ms, point.section_raw_ms),
        target=f"{point.company_rows:,} rows of {point.company!r} in the year{target}",
    )
    bs.emit_triple(
        f"customs_scale_report_{tag}_p50_ms",
        point.report_ms,
        point.report_raw_ms,
        "ms",
        ratio=bs.safe_ratio(point.report_ms, point.report_raw_ms),
        target="four sections vs their raw SQL on four cursors",
    )


def project(points: list[Point]) -> None:
    """Least squares of ours on the company's rows (the layout's claim: cost ≈ a + b × company rows),
    applied to the busiest importer of a 10⁹-row table with the same share of the rows."""
    xs = [p.company_rows for p in points]
    for kind in ("section", "report"):
        ys = [getattr(p, f"{kind}_ms") for p in points]
        mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / max(
            1e-9, sum((x - mean_x) ** 2 for x in xs)
        )
        intercept = mean_y - slope * mean_x
        biggest = max(points, key=lambda p: p.rows)
        busiest = next(p for p in points if p.rows == biggest.rows and p.label == "busiest")
        at_billion = busiest.company_rows * 1e9 / biggest.rows
        bs.emit(
            f"customs_scale_{kind}_busiest_at_1e9_projected_ms",
            intercept + slope * at_billion,
            "ms",
            note=f"fit {intercept:.1f} ms + {slope * 1000:.3f} ms per 1,000 company rows; "
            f"the busiest importer's share at 10⁹ rows: {at_billion:,.0f} rows in the year",
        )


def draw(points: list[Point], out: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        bs.note("matplotlib not installed: no curve (`make bench` installs it)")
        return
    figure, axis = plt.subplots(figsize=(6.5, 4.2))
    for rows in sorted({p.rows for p in points}):
        mine = sorted((p for p in points if p.rows == rows), key=lambda p: p.company_rows)
        x = [p.company_rows for p in mine]
        axis.plot(x, [p.section_ms for p in mine], "o-", label=f"section, {rows / 1e6:g}M rows")
        axis.plot(x, [p.section_raw_ms for p in mine], "x:", color="grey")
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("the company's rows in the year")
    axis.set_ylabel("p50 ms (grey: raw DuckDB SQL)")
    axis.set_title("Customs section cost against the company's rows")
    axis.legend(fontsize=8)
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(out, dpi=110)
    plt.close(figure)
    bs.note(f"curve: {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--largest", type=int, default=100_000_000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "customs_scale.png")
    args = parser.parse_args()
    points: list[Point] = []
    for rows in dict.fromkeys((2_000_000, 20_000_000, args.largest)):
        size = trade_file(rows).stat().st_size
        bs.note(f"{rows:,} rows: {size / 1e6:,.0f} MB on disk ({size / rows:.0f} bytes a row, both orders)")
        for point in asyncio.run(measure(rows, args.runs)):
            emit(point)
            points.append(point)
    project(points)
    draw(points, args.out)


if __name__ == "__main__":
    main()
