"""The coarse scan proposes the same documents as scoring every line with the place weight, whether a
generation's lines are grouped by country or not."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from leadwire.search.coarse import CoarseScan
from leadwire.search.store import IndexArrays

COUNTRIES = np.array([b"DE"] * 900 + [b"FR"] * 600 + [b"US"] * 450 + [b"LU"] * 40 + [b"MT"] * 10, dtype="S2")


def corpus(seed: int) -> IndexArrays:
    rng = np.random.default_rng(seed)
    n = len(COUNTRIES)
    vectors = rng.normal(size=(n, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    projection = np.linalg.qr(rng.normal(size=(16, 8)))[0].astype(np.float32)  # orthonormal columns
    shuffled = rng.permutation(n)
    return IndexArrays.from_vectors(
        rowids=rng.choice(np.arange(1, 10 * n), size=n, replace=False).astype(np.int64),
        vectors=vectors,
        categories=rng.integers(0, 5, size=n).astype(np.int8),
        countries=COUNTRIES[shuffled],
        projection=projection,
        industries=np.zeros((n, 8), dtype="S6"),
        industry_weights=np.zeros((n, 8), dtype=np.float32),
        employees=np.full(n, -1, dtype=np.int32),
        founded=np.full(n, -1, dtype=np.int16),
    )


def ungrouped(arrays: IndexArrays) -> IndexArrays:
    """The same generation as written before lines were grouped: one line per row, in row order."""
    lines = np.empty(len(arrays.rowids), dtype=np.int64)
    lines[arrays.coarse_rows] = np.arange(len(arrays.rowids))
    return dataclasses.replace(arrays, coarse=arrays.coarse[lines], coarse_rows=None)


def every_line(arrays: IndexArrays, query: np.ndarray, k: int, **where: object) -> set[int]:
    """The scan's rule written the plain way: every row scored, the filters as -inf."""
    coarse = np.asarray(arrays.coarse)
    if arrays.coarse_rows is not None:
        in_rows = np.empty_like(coarse)
        in_rows[arrays.coarse_rows] = coarse
        coarse = in_rows
    scores = (coarse @ query) * float(where["vector_weight"])  # type: ignore[arg-type]
    countries = where["countries"]
    scores += float(where["place_weight"]) * np.isin(arrays.countries, [c.encode() for c in countries])  # type: ignore[arg-type, attr-defined]
    if where["category"] is not None:
        scores[arrays.categories != where["category"]] = -np.inf
    if where["allowed"] is not None:
        scores[~np.isin(arrays.rowids, where["allowed"])] = -np.inf  # type: ignore[arg-type]
    top = np.argsort(-scores, kind="stable")[:k]
    return set(arrays.rowids[top[np.isfinite(scores[top])]].tolist())


CASES = [
    {"countries": frozenset({"DE"}), "category": None, "allowed": None},
    {"countries": frozenset({"FR", "US"}), "category": 2, "allowed": None},
    {"countries": frozenset({"MT"}), "category": None, "allowed": None},  # too few: the rest fills
    {"countries": frozenset({"LU"}), "category": 3, "allowed": None},
    {"countries": frozenset({"XX"}), "category": 1, "allowed": None},  # a country with no page
    {"countries": frozenset(), "category": 4, "allowed": None},
    {"countries": frozenset({"DE"}), "category": None, "allowed": "some"},
]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{sorted(c['countries'])}-{c['category']}-{c['allowed']}"
)
@pytest.mark.parametrize("layout", ["grouped", "ungrouped"])
def test_the_scan_proposes_what_scoring_every_line_would(
    seed: int, case: dict[str, object], layout: str
) -> None:
    arrays = corpus(seed)
    if layout == "ungrouped":
        arrays = ungrouped(arrays)
    rng = np.random.default_rng(seed + 100)
    query = rng.normal(size=16).astype(np.float32)
    query = (query / np.linalg.norm(query)) @ np.asarray(arrays.projection)
    allowed = rng.choice(arrays.rowids, size=300, replace=False) if case["allowed"] else None
    where = {**case, "allowed": allowed, "vector_weight": 0.25, "place_weight": 10.0}
    found = CoarseScan.of(arrays).nearest(query, 40, **where)  # type: ignore[arg-type]
    assert len(set(found.tolist())) == len(found)
    assert set(found.tolist()) == every_line(arrays, query, 40, **where)


def test_a_place_weight_the_cosine_can_outweigh_scores_every_line_together() -> None:
    arrays = corpus(4)
    query = np.asarray(arrays.coarse)[0] * 3.0  # a long query vector: cosines up to 3
    where = {"countries": frozenset({"FR"}), "category": None, "allowed": None,
             "vector_weight": 1.0, "place_weight": 0.5}  # fmt: skip
    found = CoarseScan.of(arrays).nearest(query, 25, **where)  # type: ignore[arg-type]
    assert set(found.tolist()) == every_line(arrays, query, 25, **where)


def test_lines_are_grouped_by_country_in_a_new_generation() -> None:
    arrays = corpus(5)
    assert arrays.coarse_rows is not None
    in_lines = np.asarray(arrays.countries)[arrays.coarse_rows]
    assert (in_lines[:-1] <= in_lines[1:]).all()
    expected = np.asarray(arrays.vectors, dtype=np.float32)[arrays.coarse_rows] @ arrays.projection
    np.testing.assert_allclose(arrays.coarse, expected, rtol=1e-3, atol=1e-3)
    assert CoarseScan.of(arrays).slices == {"DE": (0, 900), "FR": (900, 1500), "LU": (1500, 1540),
                                           "MT": (1540, 1550), "US": (1550, 2000)}  # fmt: skip
    assert CoarseScan.of(ungrouped(arrays)).slices is None
