"""The local hybrid search engine over a sandbox world's ``documents``.

Candidates come from FTS5 (IDF-weighted term coverage, an any-term BM25 query, CJK
bigrams), from embedding neighbours (a coarse scan of reduced vectors) and from the
documents whose NAICS classes answer the query's industries; one fused score orders
them: coverage + BM25 + cosine + industry affinity. What the query says is read by
``search.understand``: a place it names filters to that place's answering pages (see
``_within_place``); ``user_location`` boosts documents about that country; category and
domain filters are exact. Build and refresh live in ``search.build``, the lexical side
in ``search.lexical``.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from leadwire.domains import domain_matches, normalise_domain
from leadwire.search import embed as search_embed
from leadwire.search.build import REFRESH_KINDS, build_search_index, refresh_search_index
from leadwire.search.candidates import (
    Candidate,
    RankedQuery,
    answers_topic,
    fill_company_facts,
    fill_industries,
    within_place,
    within_ranges,
)
from leadwire.search.category_filter import CategoryFilter
from leadwire.search.coarse import CoarseScan
from leadwire.search.industry_table import IndustryTable
from leadwire.search.lexical import (
    LexicalSettings,
    TermStats,
    any_terms_expression,
    cjk_ranked,
    coverage,
    domain_rowids,
    plan_query,
    ranked,
    with_filters,
)
from leadwire.search.pending import NO_ROWS, PendingChanges
from leadwire.search.store import (
    CATEGORY_CODES,
    MANIFEST_NAME,
    IndexArrays,
    connect_world,
    load_arrays,
    locate,
)
from leadwire.search.text import ParsedQuery, any_of, parse_query, pick_highlights
from leadwire.search.types import (
    DEFAULT_TEXT_CAP,
    SearchRequest,
    SearchSource,
    cap_text,
)

__all__ = [
    "REFRESH_KINDS",
    "LocalSearchIndex",
    "RankWeights",
    "build_search_index",
    "refresh_search_index",
]


@dataclass(frozen=True, slots=True)
class RankWeights:
    """How the signals add up, and the candidate budgets; defaults are what the quality bench settled on."""

    coverage: float = 1.0  # IDF share of the query's terms the document contains
    lexical: float = 0.3  # BM25, scaled to the best candidate
    vector: float = 0.25  # cosine of query and document embeddings
    geo: float = 0.4  # document country is a country the query names, when none of its pages answers
    # Candidate budgets favour pages from a place the query names by this much (see ``_within_place``).
    place: float = 10.0
    industry: float = 1.5  # the document's NAICS classes answer the query's (by the NAICS hierarchy)
    location: float = 0.15  # document country equals user_location
    title: float = 2.0  # BM25 weight of a title match against a body match
    site: float = 0.5  # BM25 weight of a match in the site's home-page context
    lexical_candidates: int = 200
    coverage_candidates: int = 300
    vector_candidates: int = 100
    industry_candidates: int = 200
    # Terms in more than this share of documents say little and cost a full doclist scan: not matched.
    max_df_fraction: float = 0.2
    # The any-term BM25 query ranks every posting of its terms; past this many it keeps only the rarest.
    or_postings_budget: int = 25_000

    def lexical_settings(self) -> LexicalSettings:
        return LexicalSettings(
            title_weight=self.title,
            site_weight=self.site,
            max_df_fraction=self.max_df_fraction,
            or_postings_budget=self.or_postings_budget,
        )


@dataclass(slots=True)
class _Loaded:
    """What every thread shares: the current vectors and term statistics, and which world file they fit."""

    stamp: tuple[int, int] | None = None
    epoch: int = 0
    arrays: IndexArrays | None = None
    stats: TermStats = field(default_factory=TermStats)
    industries: IndustryTable | None = None
    coarse: CoarseScan | None = None
    categories: CategoryFilter | None = None
    pending: PendingChanges = field(default_factory=PendingChanges)
    lock: threading.Lock = field(default_factory=threading.Lock)


class LocalSearchIndex:
    """Synchronous searches over one world directory; safe to share between threads."""

    def __init__(
        self,
        world_dir: Path | str,
        *,
        text_cap: int = DEFAULT_TEXT_CAP,
        weights: RankWeights | None = None,
    ) -> None:
        self.world_dir = Path(world_dir)
        self.text_cap = text_cap
        self.weights = weights or RankWeights()
        self._settings = self.weights.lexical_settings()
        self._local = threading.local()
        self._loaded = _Loaded()

    def search(self, request: SearchRequest) -> list[SearchSource]:
        """The ``request.limit`` best documents passing the request's filters, best first."""
        return self._sources(self._rank(request)[: request.limit], parse_query(request.query))

    def ranked_rowids(self, request: SearchRequest) -> list[int]:
        """Every document passing the request's filters, best first, without the source limit: what
        discovery reads company by company (``search.prospects``)."""
        return [c.rowid for c in self._rank(request)]

    def fetch(self, columns: str, rowids: list[int]) -> list[tuple[Any, ...]]:
        """Columns of the given documents (any order) from this thread's connection."""
        return _fetch(self._connection(), columns, rowids)

    def query_world(self, sql: str, parameters: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        """A read-only query of the world database on this thread's connection."""
        self._arrays()
        return list(self._connection().execute(sql, parameters))

    def raw_fts(self, request: SearchRequest) -> list[int]:
        """Rowids of plain FTS5 BM25 over title and text (any-term MATCH, same filters).

        The baseline the benchmarks compare the fused ranking with: no site context,
        no coverage, no location intent, no embeddings.
        """
        parsed = parse_query(request.query)
        if not parsed.terms:
            return []
        self._arrays()
        domains = [normalise_domain(d, strict=False) for d in request.include_domains]
        expression = with_filters(f"{{title text}} : ({any_of(parsed.terms)})", request.category, domains)
        rows = self._connection().execute(
            "SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank LIMIT ?",
            (expression, request.limit),
        )
        return [int(r[0]) for r in rows]

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        con = getattr(self._local, "con", None)
        if con is not None:
            con.close()
            self._local.con = None

    # -- ranking ----------------------------------------------------------------------------

    def _rank(self, request: SearchRequest) -> list[Candidate]:
        """Every candidate that passes the filters, scored and ordered (ties by rowid)."""
        query = RankedQuery.of(request)
        arrays = self._arrays()  # first: it notices a refresh or a rebuilt world
        con = self._connection()
        pool: dict[int, Candidate] = {}
        # Read once a search: rows written since the arrays were are read from the documents table.
        changed = self._loaded.pending.rowids(con) if arrays is not None else NO_ROWS
        self._lexical(con, arrays, changed, query, pool)
        query_vector = search_embed.encode_query(request.query) if arrays is not None else None
        if arrays is not None and query_vector is not None:
            self._vector_candidates(con, arrays, query_vector, query, pool)
        if arrays is not None and query.industries:
            self._industry_candidates(arrays, query, pool)
        survivors = _apply_filters(con, arrays, changed, pool, query.category, query.domains)
        if arrays is not None and query_vector is not None:
            _fill_cosines(arrays, query_vector, survivors)
        if arrays is not None and query.industries:
            fill_industries(self._industry_table(arrays), query.industries, survivors)
        self._score(survivors, query)
        if arrays is not None and (query.employees or query.founded):
            fill_company_facts(arrays, survivors)
        survivors = within_ranges(within_place(survivors, query), query)
        survivors.sort(key=lambda c: (-c.score, c.rowid))
        return survivors

    def _lexical(
        self,
        con: sqlite3.Connection,
        arrays: IndexArrays | None,
        changed: np.ndarray,
        query: RankedQuery,
        pool: dict[int, Candidate],
    ) -> None:
        settings, limit, w = self._settings, self.weights.lexical_candidates, self.weights
        parsed, category, domains = query.parsed, query.category, query.domains
        if parsed.terms:
            plan = plan_query(con, parsed, self._loaded.stats, settings)
            rowids, shares = coverage(con, plan, category, domains, settings)
            hits = self._ranked(con, arrays, changed, any_terms_expression(plan), category, domains)
            # The cut already counts the country boost, or "X in Mexico" would keep only the X of elsewhere.
            preference = w.coverage * shares + w.place * _in_countries(arrays, rowids, query.countries)
            keep = _top(preference, rowids, w.coverage_candidates)
            for rowid in rowids[keep].tolist():
                pool.setdefault(rowid, Candidate(rowid))
            for rowid, score in hits:
                pool.setdefault(rowid, Candidate(rowid)).bm25 = score
            _fill_coverage(rowids, shares, pool)
        if parsed.bigrams:
            for rowid, score in cjk_ranked(con, parsed.bigrams, limit * 4):
                pool.setdefault(rowid, Candidate(rowid)).cjk = score

    def _ranked(
        self,
        con: sqlite3.Connection,
        arrays: IndexArrays | None,
        changed: np.ndarray,
        expression: str | None,
        category: str | None,
        domains: list[str],
    ) -> list[tuple[int, float]]:
        """The best-ranked matches of any of the planned terms, within the filters."""
        if expression is None:
            return []
        settings, limit = self._settings, self.weights.lexical_candidates

        def rank(with_category: bool, count: int) -> list[tuple[int, float]]:
            filtered = with_filters(expression, category if with_category else None, domains)
            return ranked(con, filtered, settings, count)

        if arrays is None:
            return rank(category is not None, limit)
        return self._category_filter(arrays).ranked(con, rank, category, limit, changed)

    def _vector_candidates(
        self,
        con: sqlite3.Connection,
        arrays: IndexArrays,
        query_vector: np.ndarray,
        query: RankedQuery,
        pool: dict[int, Candidate],
    ) -> None:
        if len(arrays.rowids) == 0:
            return
        w = self.weights
        allowed = domain_rowids(con, query.domains) if query.domains else None
        category = CATEGORY_CODES[query.category] if query.category is not None else None
        nearest = self._coarse_scan(arrays).nearest(
            query_vector @ arrays.projection,
            w.vector_candidates,
            countries=query.countries,
            category=category,
            allowed=allowed,
            vector_weight=w.vector,
            place_weight=w.place,
        )
        for rowid in nearest.tolist():
            pool.setdefault(rowid, Candidate(rowid))

    def _industry_candidates(
        self, arrays: IndexArrays, query: RankedQuery, pool: dict[int, Candidate]
    ) -> None:
        """Documents whose classes answer the query's industries, from its places first.

        Words miss what meaning finds: "chemical companies in Switzerland" names no word of a
        page that says "flavours and fragrances", but both sit in NAICS 325.
        """
        if len(arrays.rowids) == 0:
            return
        table = self._industry_table(arrays)
        # A named place is where the answers must come from: only its rows are scored (a pass over
        # a few thousand instead of every document); the other candidate sources cover the fallback.
        rows = table.rows_of(query.countries) if query.countries else None
        answering = table.scores(query.industries, rows)
        if rows is None:
            rows = np.arange(len(answering))
        if query.category is not None:
            answering[np.asarray(arrays.categories)[rows] != CATEGORY_CODES[query.category]] = 0.0
        keep = answering > 0
        rowids, scores = table.rowids[rows[keep]], answering[keep]
        for rowid in rowids[_top(scores, rowids, self.weights.industry_candidates)].tolist():
            pool.setdefault(int(rowid), Candidate(int(rowid)))

    def _industry_table(self, arrays: IndexArrays) -> IndustryTable:
        table = self._loaded.industries
        # Built with its generation in ``_arrays``; a search still on an older generation builds its own.
        return table if table is not None and table.arrays is arrays else IndustryTable.of(arrays)

    def _category_filter(self, arrays: IndexArrays) -> CategoryFilter:
        found = self._loaded.categories
        return found if found is not None and found.arrays is arrays else CategoryFilter.of(arrays)

    def _coarse_scan(self, arrays: IndexArrays) -> CoarseScan:
        scan = self._loaded.coarse
        return scan if scan is not None and scan.arrays is arrays else CoarseScan.of(arrays)

    def _score(self, candidates: list[Candidate], query: RankedQuery) -> None:
        if not candidates:
            return
        w = self.weights
        top_bm25 = max(c.bm25 for c in candidates) or 1.0
        top_cjk = max(c.cjk for c in candidates) or 1.0
        for c in candidates:
            # CJK bigrams stand in for coverage and BM25 alike: a Chinese query has no Latin terms.
            cjk = c.cjk / top_cjk
            c.score = (
                w.coverage * max(c.coverage, cjk)
                + w.lexical * max(c.bm25 / top_bm25, cjk)
                + w.vector * c.cosine
                + w.industry * c.industry
                + w.location * (c.country == query.location)
            )
            c.in_place = c.country in query.countries and answers_topic(c, query, cjk)
            c.score += w.geo * (c.country in query.leaning)

    # -- results ----------------------------------------------------------------------------

    def _sources(self, best: list[Candidate], parsed: ParsedQuery) -> list[SearchSource]:
        if not best:
            return []
        columns = "rowid, url, title, published_date, author, image, text"
        rows = {int(r[0]): r for r in _fetch(self._connection(), columns, [c.rowid for c in best])}
        sources: list[SearchSource] = []
        for candidate in best:
            row = rows.get(candidate.rowid)
            if row is None:
                continue
            _, url, title, published, author, image, text = row
            sources.append(
                SearchSource(
                    url=url,
                    title=title or "",
                    published_date=published,
                    author=author,
                    image=image,
                    highlights=pick_highlights(text or "", parsed),
                    text=cap_text(text or "", self.text_cap),
                )
            )
        return sources

    # -- plumbing ---------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        con: sqlite3.Connection | None = getattr(self._local, "con", None)
        if con is not None and getattr(self._local, "epoch", -1) == self._loaded.epoch:
            return con
        if con is not None:
            con.close()
        con = connect_world(self.world_dir, readonly=True)
        self._local.con, self._local.epoch = con, self._loaded.epoch
        return con

    def _arrays(self) -> IndexArrays | None:
        """The current vector generation; re-read when a refresh landed or the world was rebuilt."""
        stamp = (_stat(self.world_dir / MANIFEST_NAME, "mtime"), _stat(self.world_dir / "world.db", "inode"))
        loaded = self._loaded
        if stamp == loaded.stamp:
            return loaded.arrays
        with loaded.lock:
            if stamp != loaded.stamp:
                arrays = load_arrays(self.world_dir)
                # What is built from a generation is in place before the generation is: a search that
                # reads the new arrays finds them, and does not build its own.
                loaded.industries = IndustryTable.of(arrays) if arrays is not None else None
                loaded.coarse = CoarseScan.of(arrays) if arrays is not None else None
                loaded.categories = CategoryFilter.of(arrays) if arrays is not None else None
                loaded.arrays = arrays
                loaded.pending = PendingChanges()
                loaded.stats = TermStats()
                if loaded.stamp is None or stamp[1] != loaded.stamp[1]:
                    loaded.epoch += 1  # a new world.db file: every thread reconnects
                loaded.stamp = stamp
            return loaded.arrays


def _top(scores: np.ndarray, rowids: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` highest scores, ties to the lower rowid, so the cut is deterministic."""
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    if len(scores) <= k:
        return np.arange(len(scores))
    # Partition first: only the rows tied with or above the k-th score need the full ordering.
    kth = np.partition(scores, len(scores) - k)[len(scores) - k]
    contenders = np.flatnonzero(scores >= kth)
    order = np.lexsort((rowids[contenders], -scores[contenders]))
    return contenders[order[:k]]


def _in_countries(arrays: IndexArrays | None, rowids: np.ndarray, countries: frozenset[str]) -> np.ndarray:
    if arrays is None or not countries or len(rowids) == 0:
        return np.zeros(len(rowids))
    codes = [c.encode("ascii") for c in countries]
    return np.isin(arrays.countries_of(rowids), codes).astype(float)


def _fill_coverage(rowids: np.ndarray, shares: np.ndarray, pool: dict[int, Candidate]) -> None:
    """Coverage for candidates that entered through BM25 rather than through the coverage cut."""
    if len(rowids) == 0:
        return
    wanted = np.fromiter(pool, dtype=np.int64, count=len(pool))
    at, present = locate(rowids, wanted)
    for rowid, index, hit in zip(wanted.tolist(), at.tolist(), present.tolist(), strict=True):
        if hit:
            pool[rowid].coverage = float(shares[index])


def _apply_filters(
    con: sqlite3.Connection,
    arrays: IndexArrays | None,
    changed: np.ndarray,
    pool: dict[int, Candidate],
    category: str | None,
    domains: list[str],
) -> list[Candidate]:
    """Exact filters on the pooled candidates (the MATCH pre-filters are only a first cut).

    A document's category and country are read from the arrays when it is unchanged since they were
    written (`changed`: the refresh's queue); from its row otherwise, and for a domain filter, which
    the arrays do not hold. Reading the row costs more than it seems: its country is stored after its
    text, so each lookup walks the text's overflow pages.
    """
    rowids = np.fromiter(sorted(pool), dtype=np.int64, count=len(pool))
    facts: list[tuple[Any, ...]] = []
    if arrays is not None and not domains:
        at, present = locate(arrays.rowids, rowids)
        present &= ~np.isin(rowids, changed)
        codes = np.asarray(arrays.categories)[at[present]].tolist()
        countries = np.asarray(arrays.countries)[at[present]].tolist()
        facts = [
            (rowid, _CATEGORY_NAMES.get(code), "", country.decode("ascii"))
            for rowid, code, country in zip(rowids[present].tolist(), codes, countries, strict=True)
        ]
        rowids = rowids[~present]
    facts += _fetch(con, "rowid, category, domain, country", rowids.tolist())
    survivors: list[Candidate] = []
    for rowid, doc_category, domain, country in sorted(facts, key=lambda fact: int(fact[0])):
        if category is not None and doc_category != category:
            continue
        if domains and not domain_matches(domain or "", domains):
            continue
        candidate = pool[int(rowid)]
        candidate.country = (country or "").upper()
        survivors.append(candidate)
    return survivors


_CATEGORY_NAMES = {code: name for name, code in CATEGORY_CODES.items()}


def _fill_cosines(arrays: IndexArrays, query_vector: np.ndarray, candidates: list[Candidate]) -> None:
    if not candidates or len(arrays.rowids) == 0:
        return
    wanted = np.fromiter((c.rowid for c in candidates), dtype=np.int64, count=len(candidates))
    rows, present = locate(arrays.rowids, wanted)
    cosines = arrays.vector_rows(rows[present]) @ query_vector
    # A document ingested since the last refresh has no vector yet; it ranks on its words alone.
    with_vectors = [c for c, ok in zip(candidates, present.tolist(), strict=True) if ok]
    for candidate, cosine in zip(with_vectors, cosines.tolist(), strict=True):
        candidate.cosine = cosine


def _fetch(con: sqlite3.Connection, columns: str, rowids: list[int]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for start in range(0, len(rowids), 500):
        part = rowids[start : start + 500]
        placeholders = ",".join("?" * len(part))
        out.extend(con.execute(f"SELECT {columns} FROM documents WHERE rowid IN ({placeholders})", part))
    return out


def _stat(path: Path, what: str) -> int:
    try:
        info = path.stat()
    except FileNotFoundError:
        return -1
    return info.st_mtime_ns if what == "mtime" else info.st_ino
