"""Trade-seeded lists on the sandbox world: precision and recall of the items, judged by the world's own
records, beside the records alone (every importer the customs records give, the list without its
verification).

Questions are drawn from the world's shipments: an HS heading (4 digits) x an importing country with
between 5 and 100 importers in the last year of records, asked as "<industry> in <country>" for the
industry most of those importers are in (so that the records alone are not the answer). The seed is
`{type: "customs", role: "importer", hs_code: <heading>, country_codes: <country>, <the year>}`.

Truth: an importer of the records in scope that is a world company (by name and country) of that
industry (its NAICS code) and country. An item is right when it is such a company. Precision =
right / items in the band; recall = right / truth. The records alone: every importer in scope, so its
recall is 1 and its precision the share of the industry among them.

Also checked: each item's `entity.trade.records` against a count read straight from the shipments.

A consistency figure, like `websets_quality.py`: the judge reads the same NAICS code the verifier
reads. It shows that the seed, the verification and the facts are wired together on data built for
them, not how well this does on real trade data nobody labelled for us.

    .venv/bin/python bench/trade_seed_quality.py [--world DIR] [--questions 30] [--show]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import duckdb
import pycountry

from _support import emit, note
from _websets import WebsetHarness, small_world
from websets_quality import SECTORS, Company, Sector, World, in_sector

MIN_IMPORTERS, MAX_IMPORTERS = 5, 100  # a list of 25 may verify up to 100 candidates


@dataclass(frozen=True)
class Question:
    heading: str
    country3: str
    sector: Sector
    importers: dict[str, int]  # importer name -> records in scope
    truth: frozenset[str]  # domains of the right answers

    @property
    def text(self) -> str:
        country = pycountry.countries.get(alpha_3=self.country3)
        return f"{self.sector.english} in {country.name if country else self.country3}"


def year_of_records(con: duckdb.DuckDBPyConnection) -> tuple[date, date]:
    last = con.execute("SELECT max(date) FROM shipments WHERE in_imports").fetchone()[0]
    return last - timedelta(days=364), last


def make_questions(
    con: duckdb.DuckDBPyConnection, world: NamedWorld, start: date, end: date, wanted: int, seed: int
) -> list[Question]:
    by_name = world.by_name
    rows = con.execute(
        "SELECT left(hs_code, 4), importer_country3, importer_name, count(*) FROM shipments "
        "WHERE in_imports AND date BETWEEN ? AND ? GROUP BY 1, 2, 3",
        [start, end],
    ).fetchall()
    groups: dict[tuple[str, str], dict[str, int]] = {}
    for heading, country3, name, records in rows:
        groups.setdefault((heading, country3), {})[name] = int(records)
    questions = []
    for (heading, country3), importers in sorted(groups.items()):
        if not MIN_IMPORTERS <= len(importers) <= MAX_IMPORTERS:
            continue
        alpha2 = pycountry.countries.get(alpha_3=country3)
        companies = [by_name.get((name, alpha2.alpha_2 if alpha2 else "")) for name in importers]
        known = [c for c in companies if c is not None]
        sector = _commonest(known)
        if sector is None:
            continue
        truth = frozenset(c.domain for c in known if in_sector(sector, c))
        if 0 < len(truth) < len(importers):  # the records alone are not the answer
            questions.append(Question(heading, country3, sector, importers, truth))
    random.Random(seed).shuffle(questions)
    return questions[:wanted]


def _commonest(companies: list[Company]) -> Sector | None:
    specific = [s for s in SECTORS if s.english != "manufacturing companies"]
    counts = [(sum(in_sector(s, c) for c in companies), s) for s in specific]
    best = max(counts, key=lambda pair: pair[0], default=(0, None))
    return best[1] if best[0] >= 2 else None


class NamedWorld(World):
    """The world, with its companies also by (name, country): how customs records name them."""

    def __init__(self, world_dir: Path) -> None:
        super().__init__(world_dir)
        import sqlite3

        con = sqlite3.connect(world_dir / "world.db")
        try:
            names = dict(con.execute("SELECT id, name FROM companies").fetchall())
        finally:
            con.close()
        self.by_name = {(names[cid], c.country): c for cid, c in self.companies.items()}


async def measure(world_dir: Path, wanted: int, seed: int, show: bool) -> None:
    world = NamedWorld(world_dir)
    con = duckdb.connect(str(world_dir / "trade.duckdb"), read_only=True)
    try:
        start, end = year_of_records(con)
        questions = make_questions(con, world, start, end, wanted, seed)
        facts_right = facts_total = 0
        bands = {"full": [0, 0], "qualified": [0, 0]}  # right, shown
        truth_total = records_only_right = records_only_shown = 0
        with tempfile.TemporaryDirectory(prefix="leadwire-trade-seed-") as scratch:
            async with WebsetHarness(world_dir, Path(scratch)) as harness:
                for question in questions:
                    seed_terms = {
                        "type": "customs",
                        "role": "importer",
                        "hs_code": question.heading,
                        "country_codes": question.country3,
                        "start_date": start.isoformat(),
                        "end_date": end.isoformat(),
                    }
                    webset = await harness.run(question.text, count=25, seed=seed_terms)
                    items = await harness.items(webset["id"], match="verified", detail="full")
                    missed = question.truth - {
                        i["entity"].get("domain") for i in items if i["match"]["status"] != "rejected"
                    }
                    if show and missed:
                        judged = {i["entity"].get("domain"): i for i in items}
                        for domain in sorted(missed):
                            item = judged.get(domain)
                            said = (
                                "never a candidate"
                                if item is None
                                else f"{item['match']} "
                                + "; ".join(f"{c['type']}: {c['reasoning']}" for c in item["criteria"])
                            )
                            note(f"missed in {question.text!r} (HS {question.heading}): {domain}: {said}")
                    truth_total += len(question.truth)
                    records_only_right += len(question.truth)
                    records_only_shown += len(question.importers)
                    for item in items:
                        entity = item["entity"]
                        status = item["match"]["status"]
                        right = entity.get("domain") in question.truth
                        if status == "full":
                            bands["full"][0] += right
                            bands["full"][1] += 1
                        if status != "rejected":
                            bands["qualified"][0] += right
                            bands["qualified"][1] += 1
                        trade = entity.get("trade") or {}
                        facts_total += 1
                        facts_right += trade.get("records") == question.importers.get(_records_name(entity))
    finally:
        con.close()
    note(
        f"{len(questions)} questions (HS heading x importing country, {start} to {end}); "
        f"{truth_total} right answers in all"
    )
    for band, (right, shown) in bands.items():
        emit(f"trade-seeded list, {band} items: precision", right / shown if shown else 0.0, "")
        emit(f"trade-seeded list, {band} items: recall", right / truth_total if truth_total else 0.0, "")
    emit("records alone (every importer): precision", records_only_right / max(records_only_shown, 1), "")
    emit("records alone (every importer): recall", 1.0, "")
    emit("items whose entity.trade.records is the shipments' count", facts_right / max(facts_total, 1), "")


def _records_name(entity: dict[str, object]) -> str:
    # An item's name is the world's name of the company, which is how the records name it.
    return str(entity.get("name") or "")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--world", type=Path, default=None, help="a built world (default: the small one)")
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--show", action="store_true", help="name each right answer the list missed, and why")
    args = parser.parse_args()
    with small_world(args.world) as world_dir:
        asyncio.run(measure(world_dir, args.questions, args.seed, args.show))


if __name__ == "__main__":
    main()
