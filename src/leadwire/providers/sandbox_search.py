"""Sandbox adapter of the search port: the local hybrid index over the world's documents.

The index is opened on first use and searched in a worker thread, so the event loop never waits on it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import anyio.to_thread

from leadwire.providers.search import DEFAULT_TEXT_CAP, SearchProviderError, SearchRequest, SearchSource

if TYPE_CHECKING:
    from leadwire.search.index import LocalSearchIndex

T = TypeVar("T")


class SandboxIndex:
    """The search index of ``<world_dir>/world.db``, opened on first use and read in a worker thread;
    ``discovery`` opens it with discovery's deeper candidate budgets. Safe to share between threads."""

    def __init__(
        self, world_dir: str | Path, *, text_cap: int = DEFAULT_TEXT_CAP, discovery: bool = False
    ) -> None:
        self.world_dir = Path(world_dir)
        self._text_cap = text_cap
        self._discovery = discovery
        self._index: LocalSearchIndex | None = None
        self._lock = threading.Lock()

    async def read(self, reader: Callable[[LocalSearchIndex], T]) -> T:
        """``reader(index)`` in a worker thread; a missing world or a failed read is a provider error."""
        return await anyio.to_thread.run_sync(self._read, reader)

    def _read(self, reader: Callable[[LocalSearchIndex], T]) -> T:
        index = self._open()
        try:
            return reader(index)
        except sqlite3.Error as exc:
            raise SearchProviderError("search_provider_unavailable", f"local index: {exc}") from exc

    def _open(self) -> LocalSearchIndex:
        # Imported here so that loading the providers package does not pull in numpy and the index.
        from leadwire.search.index import LocalSearchIndex
        from leadwire.search.prospects import DISCOVERY_WEIGHTS

        with self._lock:
            if self._index is None:
                if not (self.world_dir / "world.db").exists():
                    raise SearchProviderError("search_provider_unavailable", "the sandbox world is not built")
                weights = DISCOVERY_WEIGHTS if self._discovery else None
                self._index = LocalSearchIndex(self.world_dir, text_cap=self._text_cap, weights=weights)
            return self._index


class SandboxSearchProvider:
    """``SearchProvider`` answering from ``<world_dir>/world.db`` and its search index."""

    def __init__(self, world_dir: str | Path, *, text_cap: int = DEFAULT_TEXT_CAP) -> None:
        self._index = SandboxIndex(world_dir, text_cap=text_cap)

    def __repr__(self) -> str:
        return f"SandboxSearchProvider({str(self._index.world_dir)!r})"

    async def search(self, request: SearchRequest) -> list[SearchSource]:
        return await self._index.read(lambda index: index.search(request))
