"""Sandbox adapter of the search port: the local hybrid index over the world's documents.

The index is opened on first use and searched in a worker thread, so the event loop never waits on it.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import anyio.to_thread

from leadwire.providers.search import DEFAULT_TEXT_CAP, SearchProviderError, SearchRequest, SearchSource

if TYPE_CHECKING:
    from leadwire.search.index import LocalSearchIndex


class SandboxSearchProvider:
    """``SearchProvider`` answering from ``<world_dir>/world.db`` and its search index."""

    def __init__(self, world_dir: str | Path, *, text_cap: int = DEFAULT_TEXT_CAP) -> None:
        self._world_dir = Path(world_dir)
        self._text_cap = text_cap
        self._index: LocalSearchIndex | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"SandboxSearchProvider({str(self._world_dir)!r})"

    async def search(self, request: SearchRequest) -> list[SearchSource]:
        return await anyio.to_thread.run_sync(self._search, request)

    def _search(self, request: SearchRequest) -> list[SearchSource]:
        index = self._open()
        try:
            return index.search(request)
        except sqlite3.Error as exc:
            raise SearchProviderError("search_provider_unavailable", f"local index: {exc}") from exc

    def _open(self) -> LocalSearchIndex:
        # Imported here so that loading the providers package does not pull in numpy and the index.
        from leadwire.search.index import LocalSearchIndex

        with self._lock:
            if self._index is None:
                if not (self._world_dir / "world.db").exists():
                    raise SearchProviderError("search_provider_unavailable", "the sandbox world is not built")
                self._index = LocalSearchIndex(self._world_dir, text_cap=self._text_cap)
            return self._index
