"""Sandbox adapter of the prospects port: the world's companies, found through its search index.

Ranking runs in a worker thread over an index opened with discovery's deeper candidate budgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from leadwire.providers.prospects import CompanyRef, ProspectQuery
from leadwire.providers.reasoner import Evidence, Prospect
from leadwire.providers.sandbox_search import SandboxIndex

if TYPE_CHECKING:
    from leadwire.search.index import LocalSearchIndex
    from leadwire.search.prospects import CompanyHit


class SandboxProspectSource:
    def __init__(self, world_dir: str | Path) -> None:
        self._index = SandboxIndex(world_dir, discovery=True)

    def __repr__(self) -> str:
        return f"SandboxProspectSource({str(self._index.world_dir)!r})"

    async def companies(self, query: ProspectQuery) -> list[Prospect]:
        def rank(index: LocalSearchIndex) -> list[Prospect]:
            from leadwire.search.prospects import rank_companies

            hits = rank_companies(
                index, query.text, limit=query.limit, exclude=query.exclude, user_location=query.user_location
            )
            return [_prospect(hit) for hit in hits]

        return await self._index.read(rank)

    async def lookup(self, refs: Sequence[CompanyRef]) -> list[Prospect | None]:
        """The world's company of each ref: by domain, else by name (and country, when given)."""

        def find(index: LocalSearchIndex) -> list[Prospect | None]:
            from leadwire.search.prospects import companies_by_key

            domains = [r.domain for r in refs if r.domain]
            names = [r.name for r in refs if not r.domain and r.name]
            by_domain, by_name = companies_by_key(index, domains, names)
            found: list[Prospect | None] = []
            for ref in refs:
                hit = by_domain.get(ref.domain) if ref.domain else by_name.get((ref.name or "").casefold())
                if hit is not None and not ref.domain and ref.country and hit.country != ref.country:
                    hit = None  # a namesake in another country
                found.append(_prospect(hit) if hit is not None else None)
            return found

        return await self._index.read(find)


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
