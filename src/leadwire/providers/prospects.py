"""The prospects port: companies that answer a discovery query, with their records and evidence.

Adapters: the sandbox's index over the world's companies and documents (``providers.sandbox_prospects``)
and ``SearchProspectSource``, which reads companies out of any public-web search port (Exa): a result's
site is the company, its page the evidence, and the facts a record would hold are left unknown for the
reasoner to judge from the text.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from leadwire.domains import normalise_domain
from leadwire.providers.reasoner import Evidence, Prospect
from leadwire.providers.search import SearchProvider, SearchProviderError, SearchRequest

__all__ = ["CompanyRef", "ProspectQuery", "ProspectSource", "SearchProspectSource", "SearchProviderError"]


@dataclass(frozen=True, slots=True)
class ProspectQuery:
    """One planned query: the next ``limit`` companies not in ``exclude`` (domains already found)."""

    text: str
    limit: int
    exclude: frozenset[str] = frozenset()
    user_location: str | None = None


@dataclass(frozen=True, slots=True)
class CompanyRef:
    """A company a user named (a row of an import): by normalised domain, else by name and country."""

    name: str | None
    domain: str | None
    country: str | None

    def as_named(self) -> Prospect:
        """The company as the ref describes it, when no source knows it: no fact invented, so a reasoner
        judges it from what it is given (its key: the domain, else the normalised name and country)."""
        name = self.name or self.domain or ""
        key = self.domain or "name:" + " ".join(name.casefold().split()) + (
            f"@{self.country}" if self.country else ""
        )
        return Prospect(
            key=key,
            kind="company",
            name=name,
            website=f"https://{self.domain}" if self.domain else None,
            country=self.country,
        )


@runtime_checkable
class ProspectSource(Protocol):
    async def companies(self, query: ProspectQuery) -> list[Prospect]:
        """Best first; fewer than ``limit`` means the query has nothing more to give."""
        ...

    async def lookup(self, refs: Sequence[CompanyRef]) -> list[Prospect | None]:
        """Each named company as the source knows it (its record and pages), None where it knows none."""
        ...


class SearchProspectSource:
    """Companies from a public-web search port; a search returns at most ten sources, so a query
    gives at most ten new companies and the strategy's breadth does the rest."""

    def __init__(self, search: SearchProvider) -> None:
        self._search = search

    async def companies(self, query: ProspectQuery) -> list[Prospect]:
        request = SearchRequest(
            query=query.text[:500], limit=10, category="company", user_location=query.user_location or None
        )
        sources = await self._search.search(request)
        found: dict[str, Prospect] = {}
        for source in sources:
            domain = _site(source.url)
            if not domain or domain in query.exclude or domain in found:
                continue
            found[domain] = Prospect(
                key=domain,
                kind="company",
                name=_name_of(source.title, domain),
                website=f"https://{domain}",
                description=source.text[:1500] or None,
                evidence=(Evidence(url=source.url, title=source.title, text=source.text[:1500]),),
            )
        return list(found.values())[: query.limit]

    async def lookup(self, refs: Sequence[CompanyRef]) -> list[Prospect | None]:
        """A company named by its domain: the search's pages on that domain. One named only by name is
        not looked up: a web search by name would pick a namesake as readily as the company."""
        gate = asyncio.Semaphore(4)

        async def one(ref: CompanyRef) -> Prospect | None:
            if not ref.domain:
                return None
            request = SearchRequest(
                query=(ref.name or ref.domain)[:500], limit=3, include_domains=[ref.domain]
            )
            async with gate:
                sources = await self._search.search(request)
            if not sources:
                return None
            evidence = tuple(Evidence(url=s.url, title=s.title, text=s.text[:1500]) for s in sources)
            return Prospect(
                key=ref.domain,
                kind="company",
                name=ref.name or _name_of(sources[0].title, ref.domain),
                website=f"https://{ref.domain}",
                country=ref.country,
                description=sources[0].text[:1500] or None,
                evidence=evidence,
            )

        return list(await asyncio.gather(*(one(ref) for ref in refs)))


def _site(url: str) -> str | None:
    try:
        domain = normalise_domain(url, strict=False)
    except ValueError:
        return None
    return domain.removeprefix("www.") or None


def _name_of(title: str, domain: str) -> str:
    """A page title's company part ("Acme GmbH | Pumps" -> "Acme GmbH"), else the domain."""
    for separator in (" | ", " - ", " – ", " — ", ": "):
        if separator in title:
            title = title.split(separator)[0]
    return title.strip() or domain
