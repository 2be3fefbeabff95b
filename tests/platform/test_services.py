"""A process's provider adapters: named at start, each built once at its first use."""

from __future__ import annotations

from typing import Any

import pytest

from leadwire.platform.services import Services


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


def test_adopting_keeps_deferred_adapters_deferred() -> None:
    source, target = Services(), Services()
    factory = _Counting()
    source.defer("search", factory)
    source["reasoner"] = "built"
    target.adopt(source)
    assert sorted(target) == ["reasoner", "search"] and factory.calls == 0
    assert target.built() == ["built"]
    assert target["search"] == {"built": 1}
