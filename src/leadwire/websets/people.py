"""People lists: the people of found companies, through the contacts port, and how an item's entity
looks for a company or a person."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from leadwire.providers.contacts import ContactsProvider, ContactsProviderError
from leadwire.providers.reasoner import Prospect

PEOPLE_PER_COMPANY = 3
CONCURRENCY = 8


async def expand(
    contacts: ContactsProvider, companies: Sequence[Prospect], positions: list[str]
) -> list[Prospect]:
    """Up to three people per company whose titles answer the positions asked for (most senior first
    when none is named); a company the contacts source cannot answer, or whose domain is not known,
    contributes no one."""
    gate = asyncio.Semaphore(CONCURRENCY)

    async def of(company: Prospect) -> list[Prospect]:
        if company.website is None:  # known by name only (an import's row): no domain to ask about
            return []
        async with gate:
            try:
                found = await contacts.domain_search(
                    company.key, limit=PEOPLE_PER_COMPANY, positions=positions, locale="en"
                )
            except ContactsProviderError:
                return []
        return [_person(company, c) for c in found.contacts if c.full_name or c.email]

    groups = await asyncio.gather(*(of(c) for c in companies))
    return [person for group in groups for person in group]


def _person(company: Prospect, contact: Any) -> Prospect:
    name = contact.full_name or " ".join(x for x in (contact.first_name, contact.last_name) if x)
    key = contact.linkedin_url or contact.email or f"{company.key}#{name}"
    return replace(
        company,
        key=key,
        kind="person",
        name=name or (contact.email or ""),
        title=contact.position,
        company=company.name,
        email=contact.email,
        linkedin_url=contact.linkedin_url,
    )


def entity_of(prospect: Prospect, trade: dict[str, Any] | None = None) -> dict[str, Any]:
    """The item's entity; `trade`: the facts of a trade-seeded candidate (`trade_seed.entity_trade`)."""
    entity = _entity(prospect)
    if trade is not None:
        entity["trade"] = trade
    return entity


def _entity(prospect: Prospect) -> dict[str, Any]:
    location = ", ".join(x for x in (prospect.city, prospect.country) if x) or None
    if prospect.kind == "person":
        return {
            "name": prospect.name,
            "title": prospect.title,
            "company": prospect.company,
            "location": location,
            "linkedin_url": prospect.linkedin_url,
            "email": prospect.email,
            "company_website": prospect.website,
            "company_domain": (prospect.website or "").removeprefix("https://") or None,
            "industry": prospect.industry,
        }
    return {
        "name": prospect.name,
        "website": prospect.website,
        "domain": prospect.key,
        "industry": prospect.industry,
        "industry_code": prospect.industry_code,
        "country": prospect.country,
        "city": prospect.city,
        "location": location,
        "employees": prospect.employees,
        "founded": prospect.founded,
        "description": prospect.description,
        "technologies": list(prospect.technologies),
        "products": list(prospect.products),
        "linkedin_url": prospect.linkedin_url,
    }
