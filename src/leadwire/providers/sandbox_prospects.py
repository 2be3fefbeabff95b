"""Sandbox adapter of the prospects port: the world's companies, found through its search index.

Ranking runs in a worker thread over an index opened with discovery's deeper candidate budgets.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import anyio.to_thread

from leadwire.providers.prospects import ProspectQuery
from leadwire.providers.reasoner import Evidence, Prospect
from leadwire.providers.search import SearchProviderError

if TYPE_CHECKING:
    from leadwire.search.index import LocalSearchIndex
    from leadwire.search.prospects import CompanyHit


class SandboxProspectSource:
    def __init__(self, world_dir: str | Path) -> None:
        self._world_dir = Path(world_dir)
        self._index: LocalSearchIndex | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"SandboxProspectSource({str(self._world_dir)!r})"

    async def companies(self, query: ProspectQuery) -> list[Prospect]:
        return await anyio.to_thread.run_sync(self._companies, query)

    def _companies(self, query: ProspectQuery) -> list[Prospect]:
        from leadwire.search.prospects import rank_companies

        try:
            hits = rank_companies(
                self._open(),
                query.text,
                limit=query.limit,
                exclude=query.exclude,
                user_location=query.user_location,
            )
        except sqlite3.Error as exc:
            raise SearchProviderError("search_provider_unavailable", f"local index: {exc}") from exc
        return [_prospect(hit) for hit in hits]

    def _open(self) -> LocalSearchIndex:
        from leadwire.search.index import LocalSearchIndex
        from leadwire.search.prospects import DISCOVERY_WEIGHTS

        with self._lock:
            if self._index is None:
                if not (self._world_dir / "world.db").exists():
                    raise SearchProviderError("search_provider_unavailable", "the sandbox world is not built")
                self._index = LocalSearchIndex(self._world_dir, weights=DISCOVERY_WEIGHTS)
            return self._index


def _prospect(hit: CompanyHit) -> Prospect:
    return Prospect(
        key=hit.domain,
        kind="company",
        name=hit.name,
        website=f"https://{hit.domain}",
        industry=hit.industry,
        industry_code=hit.industry_code,
        country=hit.country,
        city=hit.city,
        employees=hit.employees,
        founded=hit.founded,
        description=hit.description,
        technologies=hit.technologies,
        products=hit.products,
        linkedin_url=hit.linkedin_url,
        evidence=tuple(Evidence(url=p.url, title=p.title, text=p.text) for p in hit.evidence),
    )
