"""Small sandbox worlds built once per test session (a small build takes about a second)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from leadwire.sandbox.world import WorldStats, build_world

AS_OF = date(2025, 6, 1)


def _build(tmp_path_factory: pytest.TempPathFactory, name: str, seed: int) -> tuple[Path, WorldStats]:
    world_dir = tmp_path_factory.mktemp(name) / "world"
    stats = build_world(world_dir, seed=seed, size="small", as_of=AS_OF, progress=False)
    return world_dir, stats


@pytest.fixture(scope="session")
def small_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory, "small", 7)[0]


@pytest.fixture(scope="session")
def small_stats(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, WorldStats]:
    return _build(tmp_path_factory, "small-stats", 7)


@pytest.fixture(scope="session")
def other_seed_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory, "other-seed", 8)[0]
