"""A process's provider adapters: named at start, each built once at its first use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from leadwire.platform.adapters import Adapters


class _Counting:
    def __init__(self, fails: int = 0) -> None:
        self.calls = 0
        self.fails = fails

    def __call__(self) -> Any:
        self.calls += 1
        if self.calls <= self.fails:
            raise OSError("the index is not there yet")
        return {"built": self.calls}


def test_an_adapter_is_built_at_its_first_read_and_once() -> None:
    adapters = Adapters()
    factory = _Counting()
    adapters.defer("search", factory)
    assert "search" in adapters and len(adapters) == 1 and factory.calls == 0
    assert adapters.built() == []
    first = adapters["search"]
    assert adapters["search"] is first and adapters.get("search") is first
    assert factory.calls == 1 and adapters.built() == [first]


def test_a_factory_that_fails_fails_again_on_the_next_read() -> None:
    adapters = Adapters()
    factory = _Counting(fails=1)
    adapters.defer("search", factory)
    with pytest.raises(OSError):
        adapters["search"]
    assert adapters["search"] == {"built": 2}  # not a KeyError: the adapter is still named


def test_setting_replaces_a_deferred_adapter_and_deleting_forgets_either() -> None:
    adapters = Adapters()
    factory = _Counting()
    adapters.defer("search", factory)
    adapters["search"] = "a test double"
    assert adapters["search"] == "a test double" and factory.calls == 0
    adapters.defer("contacts", factory)
    del adapters["search"], adapters["contacts"]
    assert len(adapters) == 0 and list(adapters) == []
    with pytest.raises(KeyError):
        del adapters["search"]
    with pytest.raises(KeyError):
        adapters["nothing"]


def test_the_prospect_source_reads_the_search_adapter_of_the_services_it_is_built_into(
    tmp_path: Path,
) -> None:
    """One search adapter per process: the prospects read it from the same adapters, built once."""
    from leadwire.config import Settings
    from leadwire.providers.registry import build_providers

    settings = Settings(data_dir=tmp_path, search_provider="exa", exa_api_key="test-key")
    adapters = Adapters()
    build_providers(settings, adapters)
    assert adapters["prospects"]._search is adapters["search"]
    with pytest.raises(ValueError, match="LEADWIRE_EXA_API_KEY"):  # checked at start, not at first use
        build_providers(Settings(data_dir=tmp_path, search_provider="exa"))
