"""The embedding side's first stage: the documents nearest a query by their reduced vectors.

A query that names a country ranks that country's documents first (the place weight outweighs any
cosine), so its candidates come from the country's own lines of the coarse matrix — one contiguous
slice, since a generation stores them grouped by country — and the rest of the corpus is scanned only
when the slice cannot fill the budget. The cost then follows the country, not the corpus.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from leadwire.search.store import IndexArrays


@dataclass(frozen=True, slots=True)
class CoarseScan:
    """One generation's coarse lines with what the filters read of each, in line order."""

    arrays: IndexArrays
    rowids: np.ndarray  # (n,) int64: the document of each line
    categories: np.ndarray  # (n,) int8
    countries: np.ndarray  # (n,) S2
    slices: dict[str, tuple[int, int]] | None  # alpha-2 -> its lines; None when lines are not grouped

    @classmethod
    def of(cls, arrays: IndexArrays) -> CoarseScan:
        rows = arrays.coarse_rows
        if rows is None:
            return cls(arrays, np.asarray(arrays.rowids), np.asarray(arrays.categories),
                       np.asarray(arrays.countries), None)  # fmt: skip
        countries = np.asarray(arrays.countries)[rows]
        return cls(
            arrays=arrays,
            rowids=np.asarray(arrays.rowids)[rows],
            categories=np.asarray(arrays.categories)[rows],
            countries=countries,
            slices=_runs(countries),
        )

    def nearest(
        self,
        query: np.ndarray,
        k: int,
        *,
        countries: frozenset[str],
        category: int | None,
        allowed: np.ndarray | None,
        vector_weight: float,
        place_weight: float,
    ) -> np.ndarray:
        """Rowids of the ``k`` best lines by ``vector_weight`` × cosine with ``query`` (a coarse vector)
        plus ``place_weight`` for a line of ``countries``; only lines of ``category`` and, when given,
        of the ``allowed`` rowids."""
        coarse = np.asarray(self.arrays.coarse)
        # A coarse line and the query are projections of unit vectors: |cosine| <= |query| (a line stored
        # rounded may be a little longer: the margin). Past twice that, the place decides first and the
        # country's own slice is ranked alone.
        bound = 2 * vector_weight * float(np.linalg.norm(query)) * (1 + _ROUNDING)
        place_first = vector_weight >= 0 and place_weight > bound
        if countries and self.slices is not None and place_first:
            bounds = [self.slices[c] for c in sorted(countries) if c in self.slices]
            lines = np.concatenate([np.arange(lo, hi) for lo, hi in bounds]) if bounds else _NONE
            scores = np.concatenate([coarse[lo:hi] @ query for lo, hi in bounds]) if bounds else _NO_SCORES
            local = self._best(lines, scores, k, category, allowed)
            if len(local) >= k:
                return local
            rest = coarse @ query
            rest[lines] = -np.inf  # taken already, or refused by the filters
            return np.concatenate(
                [local, self._best(np.arange(len(rest)), rest, k - len(local), category, allowed)]
            )
        scores = (coarse @ query) * vector_weight
        if countries:
            scores += place_weight * np.isin(self.countries, [c.encode("ascii") for c in countries])
        return self._best(np.arange(len(scores)), scores, k, category, allowed)

    def _best(
        self, lines: np.ndarray, scores: np.ndarray, k: int, category: int | None, allowed: np.ndarray | None
    ) -> np.ndarray:
        keep = np.isfinite(scores)
        if category is not None:
            keep &= self.categories[lines] == category
        if allowed is not None:
            keep &= np.isin(self.rowids[lines], allowed)
        lines, scores = lines[keep], scores[keep]
        if k <= 0 or len(lines) == 0:
            return np.zeros(0, dtype=np.int64)
        if len(lines) > k:
            top = np.argpartition(-scores, k - 1)[:k]
            lines = lines[top]
        return self.rowids[lines]


_ROUNDING = 1e-2  # how much longer than 1 a stored line may be (float16 vectors, float32 projection)
_NONE = np.zeros(0, dtype=np.int64)
_NO_SCORES = np.zeros(0, dtype=np.float32)


def _runs(countries: np.ndarray) -> dict[str, tuple[int, int]] | None:
    """Each country's run of lines, or None when the lines are not grouped by country."""
    if len(countries) == 0:
        return {}
    starts = np.flatnonzero(countries[1:] != countries[:-1]) + 1
    bounds = np.concatenate([[0], starts, [len(countries)]])
    codes = countries[bounds[:-1]]
    if len(set(codes.tolist())) != len(codes):
        return None
    runs = zip(codes.tolist(), bounds[:-1].tolist(), bounds[1:].tolist(), strict=True)
    return {code.decode("ascii"): (lo, hi) for code, lo, hi in runs}
