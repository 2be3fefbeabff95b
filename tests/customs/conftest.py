"""Customs tests run against the hand-built shipments (tests/support/trade.py) in the DuckDB store."""

from __future__ import annotations

from pathlib import Path

import pytest

from leadwire.config import Settings
from tests.support.trade_stores import load_world


@pytest.fixture(scope="session")
def customs_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return load_world(tmp_path_factory.mktemp("customs") / "world")


@pytest.fixture
def settings(settings: Settings, customs_world: Path) -> Settings:
    return settings.model_copy(update={"world_dir": customs_world})
