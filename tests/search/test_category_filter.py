"""A category read from the arrays gives the same ranked matches as the phrase inside FTS5, and goes
back to the phrase for a category whose fetch keeps falling short."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable

import numpy as np
import pytest

from leadwire.search import category_filter
from leadwire.search.category_filter import CategoryFilter
from leadwire.search.pending import NO_ROWS, PendingChanges
from leadwire.search.store import CATEGORY_CODES, IndexArrays

NAMES = list(CATEGORY_CODES)


def indexed(categories: list[str]) -> IndexArrays:
    n = len(categories)
    return IndexArrays.from_vectors(
        rowids=np.arange(1, n + 1, dtype=np.int64),
        vectors=np.eye(n, 4, dtype=np.float32),
        categories=np.array([CATEGORY_CODES[c] for c in categories], dtype=np.int8),
        countries=np.full(n, b"DE", dtype="S2"),
        projection=np.eye(4, 2, dtype=np.float32),
        industries=np.zeros((n, 8), dtype="S6"),
        industry_weights=np.zeros((n, 8), dtype=np.float32),
        employees=np.full(n, -1, dtype=np.int32),
        founded=np.full(n, -1, dtype=np.int16),
    )


def documents(categories: dict[int, str]) -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE documents (category TEXT)")
    con.executemany("INSERT INTO documents (rowid, category) VALUES (?, ?)", categories.items())
    return con


class Matches:
    """Ranked matches as FTS5 gives them: best first, with the phrase or without it."""

    def __init__(self, ranked_rowids: list[int], category_of: dict[int, str], category: str) -> None:
        self.hits = [(rowid, 100.0 - i) for i, rowid in enumerate(ranked_rowids)]
        self.category_of, self.category = category_of, category
        self.asked: list[bool] = []

    def __call__(self, with_category: bool, count: int) -> list[tuple[int, float]]:
        self.asked.append(with_category)
        hits = [h for h in self.hits if not with_category or self.category_of[h[0]] == self.category]
        return hits[:count]

    def phrase(self, limit: int) -> list[tuple[int, float]]:
        return [h for h in self.hits if self.category_of[h[0]] == self.category][:limit]


@pytest.mark.parametrize("seed", range(6))
def test_the_ranked_matches_are_the_phrases_either_way(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 3000
    names = [NAMES[i] for i in rng.choice(len(NAMES), size=n, p=[0.4, 0.25, 0.1, 0.1, 0.15])]
    category_of = {rowid: names[rowid - 1] for rowid in range(1, n + 1)}
    filter_ = CategoryFilter.of(indexed(names[:2500]))  # the last 500 were ingested after the last refresh
    ranked_rowids = rng.permutation(np.arange(1, n + 1))[: int(rng.integers(50, n))].tolist()
    con = documents(category_of)
    for category in NAMES:
        matches = Matches(ranked_rowids, category_of, category)
        for _ in range(3):  # the first search goes by the arrays, the second by the phrase
            assert filter_.ranked(con, matches, category, 40, NO_ROWS) == matches.phrase(40)
        assert False in matches.asked and True in matches.asked


def test_the_phrase_is_asked_after_the_fetch_only_when_the_fetch_falls_short() -> None:
    names = ["company"] * 250 + ["news"] * 750  # news ranks first for these words
    category_of = {rowid: name for rowid, name in enumerate(names, start=1)}
    con = documents(category_of)
    news_first = Matches(list(range(251, 1001)) + list(range(1, 251)), category_of, "company")
    assert CategoryFilter.of(indexed(names)).ranked(
        con, news_first, "company", 20, NO_ROWS
    ) == news_first.phrase(20)
    assert news_first.asked == [False, True]
    companies_first = Matches(list(range(1, 1001)), category_of, "company")
    assert CategoryFilter.of(indexed(names)).ranked(
        con, companies_first, "company", 20, NO_ROWS
    ) == companies_first.phrase(20)
    assert companies_first.asked == [False]


class Clock:
    """Each search takes as long as the way it went costs."""

    def __init__(self, matches: Matches, arrays: float, phrase: float) -> None:
        self.now, self.matches, self.cost = 0.0, matches, {False: arrays, True: phrase}

    def __call__(self) -> float:
        if self.matches.asked:
            self.now += self.cost[self.matches.asked[0]]
            self.matches.asked.clear()
        return self.now


@pytest.mark.parametrize(("arrays", "phrase", "cheaper"), [(5.0, 1.0, True), (1.0, 5.0, False)])
def test_each_category_goes_the_way_that_has_been_cheaper(
    arrays: float, phrase: float, cheaper: bool
) -> None:
    names = ["company"] * 500 + ["news"] * 500
    category_of = {rowid: name for rowid, name in enumerate(names, start=1)}
    matches = Matches(list(range(1, 1001)), category_of, "company")
    filter_ = dataclasses.replace(CategoryFilter.of(indexed(names)), clock=Clock(matches, arrays, phrase))
    ways = []
    for _ in range(4 * category_filter.RECHECK_EVERY):
        filter_.ranked(documents(category_of), _recording(matches, ways), "company", 20, NO_ROWS)
    assert ways[:2] == [False, True]  # each way timed once
    later = ways[2:]
    dearer = later.count(not cheaper)
    assert dearer == len(ways) // category_filter.RECHECK_EVERY  # and the dearer one again now and then
    assert (
        filter_.ranked(documents(category_of), matches, None, 20, NO_ROWS) == matches.hits[:20]
    )  # no category


def _recording(matches: Matches, ways: list[bool]) -> Callable[[bool, int], list[tuple[int, float]]]:
    def rank(with_category: bool, count: int) -> list[tuple[int, float]]:
        if not matches.asked:
            ways.append(with_category)
        return matches(with_category, count)

    return rank


def test_a_rare_category_stays_a_phrase() -> None:
    names = ["company"] * 990 + ["people"] * 10
    category_of = {rowid: name for rowid, name in enumerate(names, start=1)}
    matches = Matches(list(range(1, 1001)), category_of, "people")
    assert CategoryFilter.of(indexed(names)).ranked(
        documents(category_of), matches, "people", 5, NO_ROWS
    ) == matches.phrase(5)
    assert matches.asked == [True]


def test_a_document_not_yet_in_the_arrays_is_read_from_its_row() -> None:
    filter_ = CategoryFilter.of(indexed(["company", "news"]))
    con = documents({1: "company", 2: "news", 3: "company", 4: "news"})
    assert filter_.mask(con, np.array([4, 1, 3, 2]), "company", NO_ROWS).tolist() == [
        False,
        True,
        True,
        False,
    ]


def test_a_document_changed_since_the_arrays_were_written_is_read_from_its_row() -> None:
    filter_ = CategoryFilter.of(indexed(["news", "news", "company"]))
    con = documents({1: "company", 2: "news", 3: "company"})  # 1 re-categorised since the refresh
    rowids = np.array([1, 2, 3])
    assert filter_.mask(con, rowids, "company", NO_ROWS).tolist() == [False, False, True]  # as the arrays say
    assert filter_.mask(con, rowids, "company", np.array([1])).tolist() == [True, False, True]


def test_the_refresh_queue_is_read_again_when_it_moves() -> None:
    con = documents({})
    pending = PendingChanges()
    assert pending.rowids(con).tolist() == []  # a world indexed before the queue existed
    con.execute("CREATE TABLE search_dirty (id INTEGER PRIMARY KEY AUTOINCREMENT, doc_rowid INTEGER)")
    con.executemany("INSERT INTO search_dirty (doc_rowid) VALUES (?)", [(7,), (3,), (7,)])
    assert pending.rowids(con).tolist() == [3, 7]
    con.execute("DELETE FROM search_dirty")  # refreshed
    assert pending.rowids(con).tolist() == []
    con.execute("INSERT INTO search_dirty (doc_rowid) VALUES (5)")
    assert pending.rowids(con).tolist() == [5]
