"""The index arrays of one generation: rows replaced in a generation written with fewer industry slots
than this version keeps."""

from __future__ import annotations

import numpy as np

from leadwire.search.store import INDUSTRY_SLOTS, IndexArrays


def arrays(rowids: list[int], slots: int) -> IndexArrays:
    n = len(rowids)
    industries = np.zeros((n, slots), dtype="S6")
    industries[:, 0] = b"5221"
    weights = np.zeros((n, slots), dtype=np.float32)
    weights[:, 0] = 1.0
    return IndexArrays.from_vectors(
        rowids=np.array(rowids, dtype=np.int64),
        vectors=np.eye(n, 4, dtype=np.float32),
        categories=np.zeros(n, dtype=np.int8),
        countries=np.full(n, b"DE", dtype="S2"),
        projection=np.eye(4, 2, dtype=np.float32),
        industries=industries,
        industry_weights=weights,
        employees=np.full(n, -1, dtype=np.int32),
        founded=np.full(n, -1, dtype=np.int16),
    )


def test_rows_replaced_in_an_older_generation_widen_its_industry_slots() -> None:
    four = arrays([1, 2, 3], INDUSTRY_SLOTS)
    narrow = IndexArrays(
        rowids=four.rowids, vectors=four.vectors, coarse=four.coarse, categories=four.categories,
        countries=four.countries, projection=four.projection, industries=four.industries[:, :4],
        industry_weights=four.industry_weights[:, :4], employees=four.employees, founded=four.founded,
    )  # fmt: skip
    new = arrays([3, 4], INDUSTRY_SLOTS)
    merged = narrow.replace_rows(
        removed=np.array([1], dtype=np.int64), rowids=new.rowids, vectors=np.asarray(new.vectors, np.float32),
        categories=new.categories, countries=new.countries, industries=new.industries,
        industry_weights=new.industry_weights, employees=new.employees, founded=new.founded,
    )  # fmt: skip
    assert merged.rowids.tolist() == [2, 3, 4]
    assert merged.industries.shape == (3, INDUSTRY_SLOTS)
    assert merged.industries[:, 0].tolist() == [b"5221"] * 3
    assert merged.industry_weights[:, 1:].sum() == 0.0
