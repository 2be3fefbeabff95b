"""The lexical side of the local search: query planning over FTS5, BM25 candidates and term coverage.

Very common terms are left out (they say little and cost a full doclist scan);
coverage is the IDF-weighted share of the query's terms a document contains,
computed from one cheap MATCH per term.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field

import numpy as np

from leadwire.domains import domain_matches
from leadwire.search.text import ParsedQuery, any_of, column_phrase, domain_words, quote

# Small worlds keep every term: there a common word is still cheap to match.
_MIN_DF_CEILING = 1000


@dataclass(frozen=True, slots=True)
class LexicalSettings:
    """Budgets of the lexical side; see ``RankWeights`` for the defaults' reasons."""

    title_weight: float = 2.0
    site_weight: float = 0.5
    max_df_fraction: float = 0.2
    or_postings_budget: int = 25_000
    term_set_budget: int = 40_000


@dataclass(frozen=True, slots=True)
class LexicalPlan:
    """The query's usable terms, rarest first, with their IDF, and the subset the any-term query ranks."""

    terms: tuple[str, ...]
    idf: tuple[float, ...]
    any_terms: tuple[str, ...]
    frequencies: tuple[int, ...]


@dataclass(slots=True)
class TermStats:
    """Document frequencies seen so far and the document count; reset when the index changes."""

    frequencies: dict[str, int] = field(default_factory=dict)
    documents: int = 0

    def frequency(self, con: sqlite3.Connection, term: str) -> int:
        if term not in self.frequencies:
            row = con.execute(
                "SELECT count(*) FROM documents_fts WHERE documents_fts MATCH ?", (quote(term),)
            )
            found = int(row.fetchone()[0])
            if not found:
                return 0  # not cached: the next document may bring it
            self.frequencies[term] = found
        return self.frequencies[term]

    def count(self, con: sqlite3.Connection) -> int:
        if not self.documents:
            self.documents = int(con.execute("SELECT count(*) FROM documents").fetchone()[0])
        return self.documents


def plan_query(
    con: sqlite3.Connection, parsed: ParsedQuery, stats: TermStats, settings: LexicalSettings
) -> LexicalPlan:
    """Rare terms first; very common ones are dropped, and the any-term query stays within its budget."""
    frequencies = {term: stats.frequency(con, term) for term in parsed.terms}
    total = stats.count(con)
    # A term unseen so far stays in: documents written since are matched through the triggers.
    ordered = sorted(parsed.terms, key=lambda t: (frequencies[t], t))
    ceiling = max(settings.max_df_fraction * total, _MIN_DF_CEILING)
    core = [t for t in ordered if frequencies[t] <= ceiling] or ordered[:1]
    any_terms: list[str] = []
    postings = 0
    for term in core:
        if any_terms and postings + frequencies[term] > settings.or_postings_budget:
            break
        any_terms.append(term)
        postings += frequencies[term]
    return LexicalPlan(
        terms=tuple(core),
        idf=tuple(_idf(frequencies[t], total) for t in core),
        any_terms=tuple(any_terms),
        frequencies=tuple(frequencies[t] for t in core),
    )


def _idf(frequency: int, total: int) -> float:
    return math.log(1.0 + (total - frequency + 0.5) / (frequency + 0.5))


def ranked(
    con: sqlite3.Connection, expression: str, settings: LexicalSettings, limit: int
) -> list[tuple[int, float]]:
    """``(rowid, bm25)`` of the best ``limit`` matches, bm25 positive (higher is better)."""
    # bm25() named in the ORDER BY, not set through `rank MATCH`: the same scores, a third cheaper per
    # match (measured at a million pages). Ties go to the lower rowid, so the cut never depends on how
    # FTS5 happened to visit the matches (the category's two ways ask differently: category_filter).
    rows = con.execute(
        "SELECT rowid, bm25(documents_fts, ?, 1.0, 0.0, 0.0, ?) AS score FROM documents_fts "
        "WHERE documents_fts MATCH ? ORDER BY score, rowid LIMIT ?",
        (settings.title_weight, settings.site_weight, expression, limit),
    ).fetchall()
    return [(int(r[0]), -float(r[1])) for r in rows]


def any_terms_expression(plan: LexicalPlan) -> str | None:
    return any_of(plan.any_terms) if plan.any_terms else None


def coverage(
    con: sqlite3.Connection,
    plan: LexicalPlan,
    category: str | None,
    domains: list[str],
    settings: LexicalSettings,
) -> tuple[np.ndarray, np.ndarray]:
    """Rowids matching any planned term (within the filters) and the IDF share of the terms each contains.

    A term too common for its rowids to be fetched cheaply still counts in the denominator,
    so a document is never rewarded for the terms nobody checked.
    """
    total_idf = sum(plan.idf) or 1.0
    rowid_parts: list[np.ndarray] = []
    weight_parts: list[np.ndarray] = []
    for term, idf, frequency in zip(plan.terms, plan.idf, plan.frequencies, strict=True):
        if frequency > settings.term_set_budget:
            continue
        rows = con.execute(
            "SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?",
            (with_filters(quote(term), category, domains),),
        ).fetchall()
        if rows:
            rowid_parts.append(np.array(rows, dtype=np.int64).reshape(-1))
            weight_parts.append(np.full(len(rows), idf / total_idf))
    if not rowid_parts:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    rowids, inverse = np.unique(np.concatenate(rowid_parts), return_inverse=True)
    return rowids, np.bincount(inverse, weights=np.concatenate(weight_parts))


def cjk_ranked(con: sqlite3.Connection, bigrams: tuple[str, ...], limit: int) -> list[tuple[int, float]]:
    rows = con.execute(
        "SELECT rowid, -rank FROM documents_cjk WHERE documents_cjk MATCH ? ORDER BY rank LIMIT ?",
        (any_of(bigrams), limit),
    ).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]


def with_filters(expression: str, category: str | None, domains: list[str]) -> str:
    """``expression`` restricted to a category and to the domains' words (exact checks come later)."""
    parts = [f"({expression})"]
    if category is not None:
        parts.append(column_phrase("category", domain_words(category)))
    if domains:
        parts.append("(" + " OR ".join(column_phrase("domain", domain_words(d)) for d in domains) + ")")
    return " AND ".join(parts)


def domain_rowids(con: sqlite3.Connection, domains: list[str]) -> np.ndarray:
    """Rowids of documents on the domains or their subdomains, sorted."""
    expression = " OR ".join(column_phrase("domain", domain_words(d)) for d in domains)
    found = [
        int(rowid)
        for rowid, host in con.execute(
            "SELECT f.rowid, d.domain FROM documents_fts f JOIN documents d ON d.rowid = f.rowid "
            "WHERE documents_fts MATCH ?",
            (expression,),
        )
        if domain_matches(host or "", domains)
    ]
    return np.asarray(sorted(found), dtype=np.int64)
