"""A request's category applied to lexical matches from the index arrays instead of inside FTS5.

Inside the MATCH, a category is a phrase on the category column, and FTS5 then walks that phrase's
doclist — most of the corpus for `company` — on every query: at a million pages that walk cost more
than the ranking itself. Here the words are matched alone and each match's category is read from the
arrays (one lookup per rowid; a document ingested since the last refresh is read from its row). For
the ranked matches the budget is fetched with room for the other categories, and the phrase query is
asked only when that room was not enough, so the survivors are the same as the phrase's.

Which way a category goes changes only the cost, never the answer: a category whose words mostly rank
other categories' pages first (the fetch keeps falling back) goes back to the phrase, and is tried
this way again now and then.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from leadwire.search.store import CATEGORY_CODES, IndexArrays

# Below this share of the corpus a category is cheaper as a phrase (its doclist is short) than as a
# wide fetch of every category's matches.
MIN_SHARE_FOR_ARRAYS = 0.05
HEADROOM = 4.0  # the fetch is the budget over the share, times this: ranking costs about the same
# A fallback costs both queries: past this share of fallbacks the phrase alone is cheaper (the fetch
# costs about half the phrase query at a million pages).
MAX_FALLBACK_SHARE = 0.35
LEARNING = 8  # a category's first searches all go this way
RETRY_EVERY = 16  # a category gone back to the phrase comes this way once in this many searches
FORGET_AFTER = 64  # counts are halved past this many tries: the recent searches weigh most


@dataclass(slots=True)
class _Route:
    searches: int = 0
    tries: int = 0
    fallbacks: int = 0


@dataclass(frozen=True, slots=True)
class CategoryFilter:
    arrays: IndexArrays
    shares: dict[str, float]  # category name -> its share of the indexed documents
    # Per category, how the fetch has fared; updated without a lock (a lost count only shifts a cost).
    routes: dict[str, _Route] = field(default_factory=dict)

    @classmethod
    def of(cls, arrays: IndexArrays) -> CategoryFilter:
        counts = np.bincount(
            np.asarray(arrays.categories, dtype=np.int64) + 1, minlength=len(CATEGORY_CODES) + 1
        )
        total = max(int(counts.sum()), 1)
        return cls(arrays, {name: int(counts[code + 1]) / total for name, code in CATEGORY_CODES.items()})

    def by_arrays(self, category: str | None) -> bool:
        """Whether `category` is better filtered here than as a phrase."""
        if category is None or self.shares.get(category, 0.0) < MIN_SHARE_FOR_ARRAYS:
            return False
        route = self.routes.setdefault(category, _Route())
        route.searches += 1
        if route.tries < LEARNING or route.fallbacks <= MAX_FALLBACK_SHARE * route.tries:
            return True
        return route.searches % RETRY_EVERY == 0

    def mask(self, con: sqlite3.Connection, rowids: np.ndarray, category: str) -> np.ndarray:
        """Which of `rowids` are documents of `category`."""
        known = np.asarray(self.arrays.rowids)
        if len(rowids) == 0 or len(known) == 0:
            return _from_rows(con, rowids, category)
        at = np.minimum(np.searchsorted(known, rowids), len(known) - 1)
        present = known[at] == rowids
        inside = present & (np.asarray(self.arrays.categories)[at] == CATEGORY_CODES[category])
        if not present.all():
            inside[~present] = _from_rows(con, rowids[~present], category)
        return inside

    def ranked(
        self,
        con: sqlite3.Connection,
        rank: Callable[[bool, int], list[tuple[int, float]]],
        category: str,
        limit: int,
    ) -> list[tuple[int, float]]:
        """The best `limit` matches of `category`; `rank(with_category, limit)` ranks the matches,
        with the category phrase or without it."""
        fetch = math.ceil(limit / self.shares[category] * HEADROOM)
        found = rank(False, fetch)
        rowids = np.fromiter((rowid for rowid, _ in found), dtype=np.int64, count=len(found))
        kept = [hit for hit, ok in zip(found, self.mask(con, rowids, category).tolist(), strict=True) if ok]
        enough = len(kept) >= limit or len(found) < fetch
        self._count(category, fell_back=not enough)
        return kept[:limit] if enough else rank(True, limit)

    def _count(self, category: str, *, fell_back: bool) -> None:
        route = self.routes.setdefault(category, _Route())
        route.tries += 1
        route.fallbacks += fell_back
        if route.tries >= FORGET_AFTER:
            route.tries //= 2
            route.fallbacks //= 2


def _from_rows(con: sqlite3.Connection, rowids: np.ndarray, category: str) -> np.ndarray:
    if len(rowids) == 0:
        return np.zeros(0, dtype=bool)
    wanted = rowids.tolist()
    found: set[int] = set()
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        found.update(
            int(rowid)
            for (rowid,) in con.execute(
                f"SELECT rowid FROM documents WHERE rowid IN ({marks}) AND category = ?", (*chunk, category)
            )
        )
    return np.fromiter((rowid in found for rowid in wanted), dtype=bool, count=len(wanted))
