"""A request's category applied to the ranked lexical matches from the index arrays, or inside FTS5:
whichever has been cheaper.

Inside the MATCH, a category is a phrase on the category column, and FTS5 then walks that phrase's
doclist — a third of the corpus for `company` — on every query: at a million pages that walk costs
more than the ranking itself. The other way, the words are matched alone, the budget is fetched with
room for the other categories, and each match's category is read from the arrays (one lookup per
rowid; a document ingested since the last refresh is read from its row); when that room was not enough
the phrase query is asked after all. Both ways give the same matches, so the choice is a cost only:
each category goes the way whose recent searches took less time, and the other way is timed again
now and then, since what is cheaper depends on the corpus's size and on the words asked.
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from leadwire.search.store import CATEGORY_CODES, IndexArrays, locate

# Below this share of the corpus the fetch would have to be too wide to fill the budget.
MIN_SHARE_FOR_ARRAYS = 0.05
HEADROOM = 4.0  # the fetch is the budget over the share, times this
RECHECK_EVERY = 16  # one search in this many of a category goes the way that has been dearer
WEIGHT_OF_LATEST = 0.2  # how much the latest search moves a way's moving average of its cost

Rank = Callable[[bool, int], list[tuple[int, float]]]  # (with the category phrase, limit) -> hits


@dataclass(slots=True)
class _Costs:
    """One category's moving average of each way's seconds (None before its first search)."""

    searches: int = 0
    phrase: float | None = None
    arrays: float | None = None

    def pick_arrays(self) -> bool:
        self.searches += 1
        if self.arrays is None or self.phrase is None:
            return self.arrays is None
        cheaper = self.arrays <= self.phrase
        return cheaper != (self.searches % RECHECK_EVERY == 0)

    def record(self, by_arrays: bool, seconds: float) -> None:
        before = self.arrays if by_arrays else self.phrase
        average = seconds if before is None else before + WEIGHT_OF_LATEST * (seconds - before)
        if by_arrays:
            self.arrays = average
        else:
            self.phrase = average


@dataclass(frozen=True, slots=True)
class CategoryFilter:
    arrays: IndexArrays
    shares: dict[str, float]  # category name -> its share of the indexed documents
    # Updated without a lock by concurrent searches: a lost update only delays a change of way.
    costs: dict[str, _Costs] = field(default_factory=dict)
    clock: Callable[[], float] = time.perf_counter

    @classmethod
    def of(cls, arrays: IndexArrays) -> CategoryFilter:
        codes = np.asarray(arrays.categories, dtype=np.int64) + 1  # -1 (none) counts in slot 0
        counts = np.bincount(codes, minlength=len(CATEGORY_CODES) + 1)
        total = max(int(counts.sum()), 1)
        return cls(arrays, {name: int(counts[code + 1]) / total for name, code in CATEGORY_CODES.items()})

    def ranked(
        self, con: sqlite3.Connection, rank: Rank, category: str | None, limit: int, changed: np.ndarray
    ) -> list[tuple[int, float]]:
        """The best `limit` matches of `category` (of any, when None); `changed`: the rowids written since
        the arrays were (`pending`)."""
        if category is None or self.shares.get(category, 0.0) < MIN_SHARE_FOR_ARRAYS:
            return rank(category is not None, limit)
        costs = self.costs.setdefault(category, _Costs())
        by_arrays = costs.pick_arrays()
        started = self.clock()
        hits = self._by_arrays(con, rank, category, limit, changed) if by_arrays else rank(True, limit)
        costs.record(by_arrays, self.clock() - started)
        return hits

    def mask(
        self, con: sqlite3.Connection, rowids: np.ndarray, category: str, changed: np.ndarray
    ) -> np.ndarray:
        """Which of `rowids` are documents of `category`: from the arrays, or from the document's row
        when it was written since the arrays were (`changed`: ingested, or changed in place)."""
        at, present = locate(self.arrays.rowids, rowids)
        present &= ~np.isin(rowids, changed)
        inside = np.zeros(len(rowids), dtype=bool)
        inside[present] = np.asarray(self.arrays.categories)[at[present]] == CATEGORY_CODES[category]
        if not present.all():
            inside[~present] = _from_rows(con, rowids[~present], category)
        return inside

    def _by_arrays(
        self, con: sqlite3.Connection, rank: Rank, category: str, limit: int, changed: np.ndarray
    ) -> list[tuple[int, float]]:
        fetch = math.ceil(limit / self.shares[category] * HEADROOM)
        found = rank(False, fetch)
        rowids = np.fromiter((rowid for rowid, _ in found), dtype=np.int64, count=len(found))
        kept = [
            hit
            for hit, ok in zip(found, self.mask(con, rowids, category, changed).tolist(), strict=True)
            if ok
        ]
        if len(kept) >= limit or len(found) < fetch:
            return kept[:limit]
        return rank(True, limit)


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
