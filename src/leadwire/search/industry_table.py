"""The documents' NAICS classes as the ranking reads them: indices into their few distinct codes,
and the rows of each country, built once per index generation."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from leadwire.search.store import IndexArrays
from leadwire.search.understand.industry import affinity
from leadwire.search.understand.types import IndustryMatch


@dataclass(frozen=True, slots=True)
class IndustryTable:
    """The documents' NAICS classes as indices into their few distinct codes.

    A query's industries are scored once per distinct code (a few hundred), then gathered
    for every document: a pass over the array instead of string tests on every row.
    """

    arrays: IndexArrays
    rowids: np.ndarray
    codes: list[str]
    inverse: np.ndarray  # (n, INDUSTRY_SLOTS) int: index into ``codes``
    weights: np.ndarray  # (n, INDUSTRY_SLOTS) float32
    by_country: dict[str, np.ndarray]  # alpha-2 -> the rows of that country, ascending

    @classmethod
    def of(cls, arrays: IndexArrays) -> IndustryTable:
        unique, inverse = np.unique(np.asarray(arrays.industries), return_inverse=True)
        countries, country_of_row = np.unique(np.asarray(arrays.countries), return_inverse=True)
        order = np.argsort(country_of_row, kind="stable")
        bounds = np.searchsorted(country_of_row[order], np.arange(len(countries) + 1))
        return cls(
            arrays=arrays,
            rowids=np.asarray(arrays.rowids),
            codes=[code.decode("ascii") for code in unique.tolist()],
            inverse=inverse.reshape(np.asarray(arrays.industries).shape),
            weights=np.asarray(arrays.industry_weights, dtype=np.float32),
            by_country={
                code.decode("ascii"): order[bounds[i] : bounds[i + 1]]
                for i, code in enumerate(countries.tolist())
            },
        )

    def rows_of(self, countries: frozenset[str]) -> np.ndarray:
        parts = [self.by_country[c] for c in sorted(countries) if c in self.by_country]
        return np.sort(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)

    def scores(self, wanted: tuple[IndustryMatch, ...], rows: np.ndarray | None = None) -> np.ndarray:
        """Per document (or per given row), how well its classes answer the wanted ones, 0..1."""
        per_code = np.array(
            [max((m.score * affinity(m.code, code) for m in wanted), default=0.0) for code in self.codes],
            dtype=np.float32,
        )
        inverse = self.inverse if rows is None else self.inverse[rows]
        weights = self.weights if rows is None else self.weights[rows]
        if per_code.size == 0:
            return np.zeros(len(inverse), dtype=np.float64)
        slots = per_code[inverse] * weights
        best = slots[:, 0].astype(np.float64)
        for slot in range(1, slots.shape[1]):  # column by column: a reduce over 4 is slow per row
            np.maximum(best, slots[:, slot], out=best)
        return best
