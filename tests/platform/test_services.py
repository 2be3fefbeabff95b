"""A process's provider adapters: named at start, each built once at its first use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from leadwire.platform.adapters import Services


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
    services = Services()
    factory = _Counting()
    services.defer("search", factory)
    assert "search" in services and len(services) == 1 and factory.calls == 0
    assert services.built() == []
    first = services["search"]
    assert services["search"] is first and services.get("search") is first
    assert factory.calls == 1 and services.built() == [first]


def test_a_factory_that_fails_fails_again_on_the_next_read() -> None:
    services = Services()
    factory = _Counting(fails=1)
    services.defer("search", factory)
    with pytest.raises(OSError):
        services["search"]
    assert services["search"] == {"built": 2}  # not a KeyError: the adapter is still named


def test_setting_replaces_a_deferred_adapter_and_deleting_forgets_either() -> None:
    services = Services()
    factory = _Counting()
    services.defer("search", factory)
    services["search"] = "a test double"
    assert services["search"] == "a test double" and factory.calls == 0
    services.defer("contacts", factory)
    del services["search"], services["contacts"]
    assert len(services) == 0 and list(services) == []
    with pytest.raises(KeyError):
        del services["search"]
    with pytest.raises(KeyError):
        services["nothing"]


def test_the_prospect_source_reads_the_search_adapter_of_the_services_it_is_built_into(
    tmp_path: Path,
) -> None:
    """One search adapter per process: the prospects read it from the same services, built once."""
    from leadwire.config import Settings
    from leadwire.providers.registry import build_providers

    settings = Settings(data_dir=tmp_path, search_provider="exa", exa_api_key="test-key")
    services = Services()
    build_providers(settings, services)
    assert services["prospects"]._search is services["search"]
    with pytest.raises(ValueError, match="LEADWIRE_EXA_API_KEY"):  # checked at start, not at first use
        build_providers(Settings(data_dir=tmp_path, search_provider="exa"))
