"""Websets on real companies: the development list (or ``--data``/``$LEADWIRE_REAL_DATA``) converted and
ingested alone into a fresh world, a webset per question a user would ask of it, `full` items judged
by the rows' own industry labels and headquarters; beside public-web search alone (its top results
for the same question, judged the same way) in the same run.

The questions, the judge and the ingestion are those of ``real_discovery.py`` (sector x country, and
big sectors alone).

    .venv/bin/python bench/websets_real.py [--data FILE] [--count 25] [--show 8]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _support import emit, emit_triple, note
from _websets import WebsetHarness
from leadwire.providers.search import SearchRequest
from leadwire.sandbox.convert import convert_file
from leadwire.sandbox.ingest import ingest
from leadwire.search.index import LocalSearchIndex
from real_discovery import DEFAULT_DATA, Company, Question, _domain, load_companies, make_questions


def right(question: Question, company: Company | None) -> bool:
    if company is None or question.sector is None or not question.sector.labels.search(company.labels):
        return False
    return question.country is None or company.country == question.country


@dataclass
class Outcome:
    question: Question
    full: list[str]
    full_right: int
    wrong: list[str]
    qualified: int
    search: list[str]
    search_right: int
    seconds: float


async def measure(
    world: Path, companies: dict[str, Company], questions: list[Question], count: int, work: Path
) -> list[Outcome]:
    index = LocalSearchIndex(world)
    outcomes = []
    async with WebsetHarness(world, work) as harness:
        for question in questions:
            started = time.perf_counter()
            webset = await harness.run(question.text, count=count)
            seconds = time.perf_counter() - started
            items = await harness.items(webset["id"], match="qualified", detail="standard")
            full = [str(i["entity"].get("domain") or "") for i in items if i["match"]["status"] == "full"]
            searched = search_only(index, question.text, len(full) or 10)
            outcomes.append(
                Outcome(
                    question, full, sum(right(question, companies.get(d)) for d in full),
                    [d for d in full if not right(question, companies.get(d))], len(items),
                    searched, sum(right(question, companies.get(d)) for d in searched), seconds,
                )
            )  # fmt: skip
    return outcomes


def search_only(index: LocalSearchIndex, text: str, count: int) -> list[str]:
    """Public-web search alone: the companies of its top results, as many as the webset's full items
    (ten when it had none), so both are judged on answer lists of the same length."""
    ranked = index.ranked_rowids(SearchRequest(query=text, limit=10))[: count * 4]
    urls = dict(index.fetch("rowid, url", ranked))
    found: list[str] = []
    for rowid in ranked:
        domain = _domain(urls[rowid]).removeprefix("www.")
        if domain not in found:
            found.append(domain)
        if len(found) == count:
            break
    return found


def report(outcomes: list[Outcome], show: int) -> None:
    full = sum(len(o.full) for o in outcomes)
    precision = sum(o.full_right for o in outcomes) / max(full, 1)
    searched = sum(len(o.search) for o in outcomes)
    baseline = sum(o.search_right for o in outcomes) / max(searched, 1)
    with_country = [o for o in outcomes if o.question.country]
    note(f"{len(outcomes)} questions ({len(with_country)} name a country), {full} full items")
    emit_triple(
        "websets_real_full_precision", precision, baseline, "",
        ratio=precision / max(baseline, 1e-9),
        target="target >= 0.8; baseline: public-web search's top results, as many per question",
    )  # fmt: skip
    for name, members in (
        ("country", with_country),
        ("sector", [o for o in outcomes if not o.question.country]),
    ):
        n = sum(len(o.full) for o in members)
        emit(
            f"websets_real_full_precision_{name}",
            sum(o.full_right for o in members) / max(n, 1),
            note=f"{n} full",
        )
    emit("websets_real_questions_with_full", sum(1 for o in outcomes if o.full) / max(len(outcomes), 1))
    emit("websets_real_seconds_p50", statistics.median(o.seconds for o in outcomes), "s")
    for o in sorted(outcomes, key=lambda o: o.full_right / max(len(o.full), 1))[:show]:
        note(
            f"{o.question.text!r}: full {o.full_right}/{len(o.full)} right, wrong {o.wrong[:4]}, "
            f"search {o.search_right}/{len(o.search)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data", type=Path, default=Path(os.environ.get("LEADWIRE_REAL_DATA") or DEFAULT_DATA)
    )
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--show", type=int, default=8)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="leadwire-ws-real-") as tmp:
        work = Path(tmp)
        conversion = convert_file(args.data)
        companies_file, documents_file = conversion.write(work / "ingest")
        world = work / "world"
        for kind, path in (("companies", companies_file), ("documents", documents_file)):
            report_ = ingest(world, kind, path)
            if not report_.accepted:
                raise SystemExit(f"ingest {kind} rejected: {report_.errors[:3]}")
        companies = load_companies(args.data, companies_file.read_text(encoding="utf-8").splitlines())
        questions = make_questions(companies)
        outcomes = asyncio.run(measure(world, companies, questions, args.count, work))
    report(outcomes, args.show)


if __name__ == "__main__":
    main()
