"""Webset consistency on the sandbox world: precision of `full` items and the share of the goal reached,
judged by the world's own records, beside plain search (the same question, top `count` results).

A consistency check, not a quality figure: the judge reads the same NAICS code, country, city and head
count columns the verifier reads, so it shows that the parts are wired together (criteria read back,
records reach the verifier, bands and billing agree), not how well a list answers a question about
companies nobody labelled for us. The quality figures are `websets_real.py`'s, out of sample.

Questions come from the world's attributes: an industry (as people name it, or its NAICS title) x a
country (English or Chinese) or a city, sometimes a size bound; and people (a role at an industry in
a country). A question is kept only when the world holds at least `count` answers, so the goal is
reachable. Truth: a company's NAICS code, country, city and head count; a person's title and employer.

    .venv/bin/python bench/websets_quality.py [--world-dir DIR] [--questions 40] [--count 25] [--show 5]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _support import REPO, emit, emit_triple, note
from _websets import WebsetHarness
from leadwire.providers.search import SearchRequest
from leadwire.search.index import LocalSearchIndex
from search_queries import country_names

DEFAULT_WORLD = REPO / "var" / "bench-world-default" / "world"


@dataclass(frozen=True)
class Sector:
    prefixes: tuple[str, ...]  # NAICS codes the answer's class starts with
    english: str
    chinese: str


# How people name these industries; the judge reads only the NAICS code.
SECTORS = [
    Sector(("5132",), "software companies", "软件公司"),
    Sector(("3344",), "semiconductor makers", "半导体企业"),
    Sector(("3254",), "pharmaceutical companies", "制药公司"),
    Sector(("325",), "chemical companies", "化工企业"),
    Sector(("333",), "machinery manufacturers", "机械制造商"),
    Sector(("311",), "food producers", "食品企业"),
    Sector(("3363",), "auto parts suppliers", "汽车零部件供应商"),
    Sector(("5416",), "management consultancies", "管理咨询公司"),
    Sector(("488", "484", "492", "493"), "logistics companies", "物流公司"),
    Sector(("335",), "electrical equipment makers", "电气设备制造商"),
    Sector(("337",), "furniture makers", "家具制造商"),
    Sector(("315",), "clothing manufacturers", "服装制造商"),
    Sector(("31", "32", "33"), "manufacturing companies", "制造业企业"),
]
CHINESE_COUNTRIES = {
    "US": "美国", "CN": "中国", "DE": "德国", "GB": "英国", "IN": "印度", "JP": "日本", "FR": "法国",
    "IT": "意大利", "ES": "西班牙", "KR": "韩国", "NL": "荷兰", "CA": "加拿大",
}  # fmt: skip
ROLES = {  # how a user asks for the role -> what the judge accepts in a title
    "CEOs": re.compile(r"\bCEO\b|Chief Executive", re.I),
    "marketing managers": re.compile(r"Marketing Manager", re.I),
    "engineering managers": re.compile(r"Engineering Manager", re.I),
    "sales managers": re.compile(r"Sales Manager", re.I),
}
SIZES = {  # phrase -> (low, high) head count, inclusive
    "with more than 500 employees": (501, None),
    "with fewer than 50 employees": (None, 49),
}


@dataclass(frozen=True)
class Company:
    id: str
    domain: str
    code: str
    title: str
    country: str
    city: str
    employees: int


@dataclass(frozen=True)
class Question:
    text: str
    kind: str  # company | person
    sector: Sector | None
    test: Callable[[Company], bool]
    role: re.Pattern[str] | None = None
    family: str = ""


def in_sector(sector: Sector, company: Company) -> bool:
    return company.code.startswith(sector.prefixes)


def in_size(bounds: tuple[int | None, int | None], company: Company) -> bool:
    low, high = bounds
    return (low is None or company.employees >= low) and (high is None or company.employees <= high)


class World:
    def __init__(self, world_dir: Path) -> None:
        con = sqlite3.connect(world_dir / "world.db")
        try:
            rows = con.execute(
                "SELECT id, domain, industry_code, industry, country, city, employees FROM companies"
            ).fetchall()
            self.companies = {r[0]: Company(*r) for r in rows}
            self.by_domain = {c.domain: c for c in self.companies.values()}
            self.people = {
                url: (title, company_id)
                for url, title, company_id in con.execute(
                    "SELECT linkedin_url, title, company_id FROM people"
                )
            }
            self.documents = {
                url: (company_id, person_id)
                for url, company_id, person_id in con.execute(
                    "SELECT url, company_id, person_id FROM documents"
                )
            }
            self.people_by_id = {
                pid: (title, company_id)
                for pid, title, company_id in con.execute("SELECT id, title, company_id FROM people")
            }
        finally:
            con.close()

    def truth(self, question: Question) -> int:
        matching = [c for c in self.companies.values() if question.test(c)]
        if question.kind == "company":
            return len(matching)
        ids = {c.id for c in matching}
        assert question.role is not None
        return sum(1 for t, cid in self.people.values() if cid in ids and question.role.search(t or ""))

    def judge_item(self, question: Question, entity: dict[str, Any]) -> bool:
        if question.kind == "person":
            found = self.people.get(entity.get("linkedin_url") or "")
            return found is not None and self._person_ok(question, *found)
        company = self.by_domain.get(str(entity.get("domain") or "").removeprefix("www."))
        return company is not None and question.test(company)

    def judge_url(self, question: Question, url: str) -> tuple[str, bool] | None:
        """The answer a search result names (a company or a person) and whether it is right."""
        company_id, person_id = self.documents.get(url, (None, None))
        if question.kind == "person":
            if person_id is None or person_id not in self.people_by_id:
                return None
            return person_id, self._person_ok(question, *self.people_by_id[person_id])
        company = self.companies.get(company_id or "")
        return None if company is None else (company.id, question.test(company))

    def _person_ok(self, question: Question, title: str | None, company_id: str) -> bool:
        company = self.companies.get(company_id)
        assert question.role is not None
        return company is not None and question.test(company) and bool(question.role.search(title or ""))


def make_questions(world: World, count: int, wanted: int, seed: int) -> list[Question]:
    rng = random.Random(seed)
    names = country_names()
    countries = sorted({c.country for c in world.companies.values()})
    cities = sorted({(c.country, c.city) for c in world.companies.values() if c.city})
    pool: list[Question] = []
    for sector in SECTORS:
        for country in countries:
            name = names.get(country, country)

            def test(c: Company, s: Sector = sector, k: str = country) -> bool:
                return in_sector(s, c) and c.country == k

            pool.append(Question(f"{sector.english} in {name}", "company", sector, test, family="en"))
            if country in CHINESE_COUNTRIES:
                text = f"{CHINESE_COUNTRIES[country]}的{sector.chinese}"
                pool.append(Question(text, "company", sector, test, family="zh"))
            for phrase, bounds in SIZES.items():

                def sized(c: Company, s: Sector = sector, k: str = country, b: Any = bounds) -> bool:
                    return in_sector(s, c) and c.country == k and in_size(b, c)

                pool.append(
                    Question(f"{sector.english} in {name} {phrase}", "company", sector, sized, family="size")
                )
            for role, pattern in ROLES.items():
                text = f"{role} at {sector.english} in {name}"
                pool.append(Question(text, "person", sector, test, pattern, family="people"))
        for country, city in cities:

            def at(c: Company, s: Sector = sector, k: str = country, t: str = city) -> bool:
                return in_sector(s, c) and c.country == k and c.city == t

            pool.append(Question(f"{sector.english} in {city}", "company", sector, at, family="city"))
    rng.shuffle(pool)
    # Every family gets its share; within it, only questions the world can answer `count` times.
    families = ("en", "zh", "size", "city", "people")
    chosen: list[Question] = []
    for family in families:
        taken = 0
        for question in (q for q in pool if q.family == family):
            if taken == wanted // len(families):
                break
            if world.truth(question) >= count:
                chosen.append(question)
                taken += 1
    return chosen


@dataclass
class Outcome:
    question: Question
    truth: int
    full: int
    full_right: int
    qualified: int
    qualified_right: int
    seconds: float
    stop_reason: str
    search_right: int
    search_found: int


async def measure(args: argparse.Namespace, world: World) -> list[Outcome]:
    questions = make_questions(world, args.count, args.questions, args.query_seed)
    index = LocalSearchIndex(args.world_dir)
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="leadwire-ws-quality-") as tmp:
        async with WebsetHarness(args.world_dir, Path(tmp)) as harness:
            for question in questions:
                started = time.perf_counter()
                webset = await harness.run(question.text, count=args.count, target_kind=question.kind)
                seconds = time.perf_counter() - started
                items = await harness.items(webset["id"], match="qualified", detail="standard")
                full = [i for i in items if i["match"]["status"] == "full"]
                right = [world.judge_item(question, i["entity"]) for i in items]
                full_right = sum(
                    ok for i, ok in zip(items, right, strict=True) if i["match"]["status"] == "full"
                )
                found, hits = search_only(index, world, question, args.count)
                outcomes.append(
                    Outcome(
                        question, world.truth(question), len(full), full_right, len(items), sum(right),
                        seconds, str(webset["progress"]["stop_reason"]), hits, found,
                    )
                )  # fmt: skip
    return outcomes


def search_only(index: LocalSearchIndex, world: World, question: Question, count: int) -> tuple[int, int]:
    """Plain search: the top results of the question (company or people pages), one per answer."""
    category = "people" if question.kind == "person" else "company"
    request = SearchRequest(query=question.text, limit=10, category=category)  # type: ignore[arg-type]
    ranked = index.ranked_rowids(request)[: count * 4]
    urls = dict(index.fetch("rowid, url", ranked))
    seen: dict[str, bool] = {}
    for rowid in ranked:
        judged = world.judge_url(question, urls[rowid])
        if judged is not None and judged[0] not in seen:
            seen[judged[0]] = judged[1]
        if len(seen) == count:
            break
    return len(seen), sum(seen.values())


def report(outcomes: list[Outcome], count: int, show: int) -> None:
    full = sum(o.full for o in outcomes)
    full_right = sum(o.full_right for o in outcomes)
    precision = full_right / max(full, 1)
    goal = [min(o.qualified, count) / count for o in outcomes]
    right_goal = [min(o.qualified_right, count) / count for o in outcomes]
    search_precision = sum(o.search_right for o in outcomes) / max(sum(o.search_found for o in outcomes), 1)
    search_goal = [min(o.search_right, count) / count for o in outcomes]
    families = ("en", "zh", "size", "city", "people")
    sizes = ", ".join(f"{f} {sum(1 for o in outcomes if o.question.family == f)}" for f in families)
    note(f"{len(outcomes)} questions, count {count}; families {sizes}")
    note("consistency check: the judge reads the columns the verifier reads (quality: websets_real.py)")
    emit_triple(
        "websets_world_consistency_full_precision", precision, search_precision, "",
        ratio=precision / max(search_precision, 1e-9),
        target="target >= 0.9; baseline: plain search top results",
    )  # fmt: skip
    emit_triple(
        "websets_world_consistency_goal_share", statistics.fmean(goal), statistics.fmean(search_goal), "",
        ratio=statistics.fmean(goal) / max(statistics.fmean(search_goal), 1e-9),
        target="target >= 0.8; baseline: right answers in plain search's top count",
    )  # fmt: skip
    emit(
        "websets_world_consistency_goal_share_right",
        statistics.fmean(right_goal),
        note="qualified items the judge accepts",
    )
    emit(
        "websets_world_consistency_qualified_precision",
        sum(o.qualified_right for o in outcomes) / max(sum(o.qualified for o in outcomes), 1),
    )
    for family in families:
        members = [o for o in outcomes if o.question.family == family]
        if members:
            f_full = sum(o.full for o in members)
            share = statistics.fmean(min(o.qualified, count) / count for o in members)
            right = sum(o.full_right for o in members) / max(f_full, 1)
            said = f"{f_full} full items; goal share {share:.2f}"
            emit(f"websets_world_consistency_full_precision_{family}", right, note=said)
    seconds = [o.seconds for o in outcomes]
    emit("websets_world_seconds_p50", statistics.median(seconds), "s", note=f"count {count}, to completed")
    worst = sorted(outcomes, key=lambda o: (o.full_right / max(o.full, 1), o.qualified))[:show]
    for o in worst:
        note(
            f"{o.question.text!r}: full {o.full_right}/{o.full} right, "
            f"qualified {o.qualified_right}/{o.qualified}, truth {o.truth}, stop {o.stop_reason}, "
            f"search {o.search_right}/{o.search_found}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--world-dir", type=Path, default=DEFAULT_WORLD)
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--query-seed", type=int, default=3)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    if not (args.world_dir / "search_index.json").exists():
        raise SystemExit(
            f"no indexed world at {args.world_dir}: .venv/bin/leadwire sandbox build --size default "
            "--data-dir var/bench-world-default"
        )
    world = World(args.world_dir)
    outcomes = asyncio.run(measure(args, world))
    report(outcomes, args.count, args.show)


if __name__ == "__main__":
    main()
