"""The real-company split's two folds (bench/_real.py): a company's fold depends on its name alone, the
same on every run, machine and Python, and the folds partition the rows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from _real import FOLDS, fold_of, rows_of  # noqa: E402

NAMES = [f"Company {i}" for i in range(400)]


@pytest.mark.parametrize(
    ("name", "fold"),
    [("A. O. Smith", "b"), ("A10 Networks", "b"), ("Acciona", "a"), ("ACI Worldwide", "a")],
)
def test_a_company_keeps_its_fold(name: str, fold: str) -> None:
    """Pinned: a change of hash, seed or normalisation would move companies between folds, and every
    choice made on the tuning fold would then have looked at the held-out one."""
    assert fold_of(name) == fold


def test_the_fold_ignores_case_and_surrounding_spaces() -> None:
    assert fold_of("  acciona ") == fold_of("Acciona")


def test_a_fresh_interpreter_draws_the_same_folds() -> None:
    """No per-process hash seed reaches the split (Python's own ``hash`` of a string would)."""
    code = f"import sys; sys.path.insert(0, {str(BENCH)!r}); from _real import fold_of; " + (
        f"print(''.join(fold_of(n) for n in {NAMES!r}))"
    )
    here = "".join(fold_of(n) for n in NAMES)
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        )  # fmt: skip
        assert out.stdout.strip() == here


def test_the_folds_partition_the_rows_about_evenly() -> None:
    rows = [{"name": n} for n in NAMES]
    parts = [rows_of(rows, fold) for fold in FOLDS]
    assert sorted(r["name"] for part in parts for r in part) == sorted(NAMES)
    assert all(150 <= len(part) <= 250 for part in parts)
    assert rows_of(rows, None) == rows
