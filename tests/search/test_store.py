"""The index arrays of one generation: rows replaced in a generation written with fewer industry slots
than this version keeps."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from leadwire.search.store import INDUSTRY_SLOTS, MANIFEST_NAME, IndexArrays, load_arrays, write_arrays


def arrays(rowids: list[int], slots: int) -> IndexArrays:
    n = len(rowids)
    industries = np.zeros((n, slots), dtype="S6")
    industries[:, 0] = b"5221"
    weights = np.zeros((n, slots), dtype=np.float32)
    weights[:, 0] = 1.0
    return IndexArrays.from_vectors(
        rowids=np.array(rowids, dtype=np.int64),
        vectors=np.eye(n, 4, dtype=np.float32) + np.arange(n, dtype=np.float32)[:, None],
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


def test_full_vectors_are_read_from_the_file_and_survive_a_new_generation(tmp_path: Path) -> None:
    first = arrays(list(range(1, 41)), INDUSTRY_SLOTS)
    manifest = write_arrays(tmp_path, first, None)
    loaded = load_arrays(tmp_path)
    assert loaded is not None and loaded.vector_file is not None
    rows = np.array([39, 0, 7, 7, 12])
    expected = np.asarray(loaded.vectors[rows], dtype=np.float32)
    write_arrays(tmp_path, arrays(list(range(1, 11)), INDUSTRY_SLOTS), manifest)  # unlinks the first files
    assert not (tmp_path / manifest["files"]["vectors"]).exists()
    np.testing.assert_array_equal(loaded.vector_rows(rows), expected)
    with pytest.raises(ValueError, match="past the end"):
        loaded.vector_rows(np.array([40]))


def test_grouped_lines_are_stored_under_a_key_an_older_reader_does_not_take_for_its_own(
    tmp_path: Path,
) -> None:
    manifest = write_arrays(tmp_path, arrays([1, 2, 3], INDUSTRY_SLOTS), None)
    assert "coarse" not in manifest["files"] and {"coarse_by_country", "coarse_rows"} <= set(
        manifest["files"]
    )


def test_a_generation_written_before_lines_were_grouped_still_loads(tmp_path: Path) -> None:
    manifest = write_arrays(tmp_path, arrays([1, 2, 3], INDUSTRY_SLOTS), None)
    (tmp_path / manifest["files"].pop("coarse_rows")).unlink()
    manifest["files"]["coarse"] = manifest["files"].pop("coarse_by_country")
    (tmp_path / MANIFEST_NAME).write_text(json.dumps(manifest))
    loaded = load_arrays(tmp_path)
    assert loaded is not None and loaded.coarse_rows is None and loaded.coarse.shape == (3, 2)


def test_reading_no_rows_reads_nothing(tmp_path: Path) -> None:
    write_arrays(tmp_path, arrays([1, 2, 3], INDUSTRY_SLOTS), None)
    loaded = load_arrays(tmp_path)
    assert loaded is not None and loaded.vector_file is not None
    assert loaded.vector_rows(np.zeros(0, dtype=np.int64)).shape == (0, 4)


def test_a_generation_whose_files_went_is_not_loaded(tmp_path: Path) -> None:
    manifest = write_arrays(tmp_path, arrays([1, 2, 3], INDUSTRY_SLOTS), None)
    (tmp_path / manifest["files"]["vectors"]).unlink()
    assert load_arrays(tmp_path) is None
