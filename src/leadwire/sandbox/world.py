"""Builds the deterministic sandbox world (companies, people, documents, posts in world.db; customs
shipments in trade.duckdb) into a temporary directory and swaps it into place when complete."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from time import perf_counter
from typing import Any

from leadwire.sandbox.companies import Company, generate_companies
from leadwire.sandbox.config import SCHEMA_VERSION, SizeConfig, size_config, stage_random
from leadwire.sandbox.documents import generate_documents
from leadwire.sandbox.people import Person, generate_people
from leadwire.sandbox.posts import assign_interests, generate_posts
from leadwire.sandbox.press import OUTLETS, ZH_OUTLETS
from leadwire.sandbox.progress import StageProgress, on_stderr
from leadwire.sandbox.store import (
    INDEXES,
    TRADE_DB,
    WORLD_DB,
    connect_for_build,
    insert_rows,
    open_world,
    swap_into_place,
    table_counts,
    world_is_built,
    write_meta,
)
from leadwire.sandbox.texts import describe_company
from leadwire.sandbox.topics import Topic
from leadwire.sandbox.trade import TradeResult, build_trade

__all__ = ["WorldStats", "build_world", "open_world", "world_is_built"]


@dataclass
class WorldStats:
    """What a build produced and what it cost."""

    seed: int
    size: str
    as_of: str
    counts: dict[str, int]
    seconds: float
    bytes: dict[str, int]
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def build_world(
    world_dir: Path,
    *,
    seed: int = 7,
    size: str = "default",
    as_of: date | None = None,
    progress: bool | StageProgress = True,
) -> WorldStats:
    """Generates the world for (seed, size, as_of) into world_dir, replacing any previous world there.

    The same seed, size and as_of always give identical table contents. as_of (default: today) anchors
    every date: posts fall in the 12 months before it, shipments and news in the 24 months before it.
    `progress`: True shows it on stderr, False times the stages silently; a `StageProgress` the caller
    opened (and closes) reports this build among its other stages."""
    cfg = size_config(size)
    as_of = as_of or date.today()
    world_dir = Path(world_dir)
    world_dir.parent.mkdir(parents=True, exist_ok=True)
    building = world_dir.with_name(f".{world_dir.name}.building-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir()
    started = perf_counter()
    bars = progress if isinstance(progress, StageProgress) else on_stderr(progress)
    try:
        with nullcontext() if bars is progress else bars:  # a caller's progress is the caller's to close
            counts = _generate(building, cfg, seed, as_of, bars)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    swap_into_place(building, world_dir)
    sizes = {p.name: p.stat().st_size for p in sorted(world_dir.iterdir()) if p.is_file()}
    return WorldStats(
        seed, size, as_of.isoformat(), counts, round(perf_counter() - started, 3), sizes, dict(bars.seconds)
    )


def _generate(out: Path, cfg: SizeConfig, seed: int, as_of: date, bars: StageProgress) -> dict[str, int]:
    with bars.stage("companies", cfg.companies) as advance:
        companies = generate_companies(cfg, seed, as_of)
        rnd = stage_random(seed, "descriptions")
        for c in companies:
            c.description, c.description_zh = describe_company(rnd, c)
        advance(len(companies))
    with bars.stage("people", cfg.people) as advance:
        people = generate_people(cfg, seed, companies)
        interests = assign_interests(seed, people)
        advance(len(people))
    with ThreadPoolExecutor(max_workers=1) as pool:
        # DuckDB and numpy release the GIL, so shipments build on the second core during the text stages
        trade = pool.submit(_build_trade, bars, out / TRADE_DB, cfg, seed, as_of, companies)
        con = connect_for_build(out / WORLD_DB)
        try:
            counts = _write_world(con, cfg, seed, as_of, companies, people, interests, trade.result, bars)
        finally:
            con.close()
        counts["shipments"] = trade.result().rows
    return counts


def _build_trade(
    bars: StageProgress, path: Path, cfg: SizeConfig, seed: int, as_of: date, companies: list[Company]
) -> TradeResult:
    with bars.stage("shipments", cfg.shipments) as advance:
        # build_trade counts every row twice (generated, then written): the stage counts shipments.
        return build_trade(path, cfg, seed, as_of, companies, lambda n: advance(n // 2))


def _write_world(
    con: sqlite3.Connection,
    cfg: SizeConfig,
    seed: int,
    as_of: date,
    companies: list[Company],
    people: list[Person],
    interests: list[tuple[Topic, ...]],
    trade: Callable[[], TradeResult],
    bars: StageProgress,
) -> dict[str, int]:
    with bars.stage("people → world.db", len(people)) as advance:
        insert_rows(con, "people", (_person_row(p) for p in people), advance)
    taken = {c.domain for c in companies} | set(OUTLETS) | set(ZH_OUTLETS)
    with bars.stage("documents", cfg.documents) as advance:
        docs = generate_documents(cfg, seed, as_of, companies, people, interests, taken)
        insert_rows(con, "documents", docs, advance)
    with bars.stage("posts", cfg.posts) as advance:
        insert_rows(con, "posts", generate_posts(cfg, seed, as_of, people, interests), advance)
    traded = trade().trading_company_indexes
    for c in companies:
        c.trades_goods = c.index in traded
    with bars.stage("companies → world.db", len(companies)) as advance:
        insert_rows(con, "companies", (_company_row(c) for c in companies), advance)
    with bars.stage("indexes", 1) as advance:
        for statement in filter(str.strip, INDEXES.split(";")):  # executescript would commit early
            con.execute(statement)
        advance(1)
    counts = table_counts(con)
    write_meta(
        con,
        {
            "schema_version": SCHEMA_VERSION,
            "seed": str(seed),
            "size": cfg.name,
            "as_of": as_of.isoformat(),
            "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "counts": {**counts, "shipments": trade().rows},
        },
    )
    con.execute("COMMIT")
    con.execute("ANALYZE")
    return counts


def _company_row(c: Company) -> tuple[Any, ...]:
    products = [{"hs_code": code, "description": desc} for code, desc in c.products]
    return (
        c.id,
        c.name,
        c.name_zh,
        c.domain,
        c.industry.code,
        c.industry.title,
        c.country.alpha2,
        c.country.alpha3,
        c.city,
        c.employees,
        c.founded_year,
        c.description,
        c.description_zh,
        json.dumps(c.technologies, ensure_ascii=False),
        json.dumps(products, ensure_ascii=False),
        c.linkedin_url,
        int(c.trades_goods),
        c.specialty,
        c.revenue_usd,
        c.email_pattern,
    )


def _person_row(p: Person) -> tuple[Any, ...]:
    n = p.name
    return (
        p.id,
        p.company.id,
        n.first,
        n.last,
        n.full,
        n.full_zh,
        p.title,
        p.title_zh,
        p.department,
        p.seniority,
        p.manager_id,
        p.email,
        p.email_status,
        p.linkedin_url,
        p.country,
        p.city,
        n.language,
    )
