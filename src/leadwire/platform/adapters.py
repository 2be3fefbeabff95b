"""The provider adapters of a process, by name, each built at its first use.

A process names its adapters at start (the settings are checked then: a missing key stops it there)
but builds one only when a job or a request first reaches it: a worker that never runs a customs job
never imports DuckDB or opens the trade store, and one that never verifies a prospect never loads
the reasoner's rules and embeddings. That is most of a worker's start-up (a worker starts in a third
less time; docs/benchmarks.md, Job throughput).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

Factory = Callable[[], Any]


class Adapters(MutableMapping[str, Any]):
    """Reading an entry builds it; so do `values()`, `items()` and `pop()`, which read every entry or
    the one they take. `built()` is what there is without building anything."""

    def __init__(self) -> None:
        self._built: dict[str, Any] = {}
        self._deferred: dict[str, Factory] = {}

    def defer(self, name: str, factory: Factory) -> None:
        """`name` is built by `factory()` when it is first read (replacing what was there)."""
        self._built.pop(name, None)
        self._deferred[name] = factory

    def built(self) -> list[Any]:
        """The adapters built so far (what there is to close)."""
        return list(self._built.values())

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            factory = self._deferred[name]  # KeyError: no such service
            self._built[name] = factory()  # a factory that fails stays, to fail again next time
            del self._deferred[name]
        return self._built[name]

    def __setitem__(self, name: str, value: Any) -> None:
        self._deferred.pop(name, None)
        self._built[name] = value

    def __delitem__(self, name: str) -> None:
        if name in self._built:
            del self._built[name]
        else:
            del self._deferred[name]  # KeyError: no such service

    def __contains__(self, name: object) -> bool:
        return name in self._built or name in self._deferred

    def __iter__(self) -> Iterator[str]:
        return iter([*self._built, *self._deferred])

    def __len__(self) -> int:
        return len(self._built) + len(self._deferred)
