"""Research rules: start public-web and contacts jobs, and turn provider answers into results."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller
from leadwire.platform.jobs import JobFailure, NewJob, create_job
from leadwire.platform.runtime import Runtime
from leadwire.providers.contacts import ContactsProvider, ContactsProviderError
from leadwire.providers.search import SearchProvider, SearchProviderError, SearchRequest
from leadwire.research.hierarchy import infer_hierarchy
from leadwire.research.schemas import ContactsRequest, PublicWebRequest

PUBLIC_WEB = "research.public_web"
CONTACTS = "research.contacts"


async def start(
    session: AsyncSession, runtime: Runtime, caller: Caller, body: PublicWebRequest | ContactsRequest
) -> NewJob:
    """Create the research job for a validated request, in the request's transaction."""
    action = PUBLIC_WEB if isinstance(body, PublicWebRequest) else CONTACTS
    return await create_job(
        session, runtime.notifier, caller, action=action, payload=body.model_dump(), draining=runtime.draining
    )


async def search_public_web(search: SearchProvider, body: PublicWebRequest) -> dict[str, Any]:
    """Run every query; one failed query makes the result `partial`, all failed fail the job."""

    async def one(query: str) -> list[dict[str, object]] | SearchProviderError:
        request = SearchRequest(
            query=query,
            limit=body.search_limit,
            category=body.category,
            include_domains=body.include_domains,
            user_location=body.user_location,
        )
        try:
            return [source.as_dict() for source in await search.search(request)]
        except SearchProviderError as exc:
            return exc

    outcomes = await asyncio.gather(*(one(q) for q in body.queries))
    results, errors, searched, failures = [], [], [], []
    for query, outcome in zip(body.queries, outcomes, strict=True):
        if isinstance(outcome, SearchProviderError):
            errors.append({"query": query, "code": outcome.code})
            failures.append(outcome)
            continue
        searched.append(query)
        results.append({"query": query, "sources": outcome})
    if not searched:
        raise JobFailure(failures[0].code, failures[0].detail)
    return {
        "status": "partial" if errors else "complete",
        "queries": list(body.queries),
        "searched_queries": searched,
        "results_per_query": body.search_limit,
        "results": results,
        "errors": errors,
    }


def public_web_units(result: dict[str, Any]) -> int:
    """Billing: one unit per returned source."""
    return sum(len(r["sources"]) for r in result["results"])


async def find_contacts(provider: ContactsProvider, body: ContactsRequest) -> dict[str, Any]:
    try:
        found = await provider.domain_search(
            body.domain, limit=body.limit, positions=body.positions, locale=body.locale
        )
    except ContactsProviderError as exc:
        raise JobFailure(exc.code, exc.detail) from None
    contacts = found.contacts[: body.limit]
    hierarchy = infer_hierarchy(found.company_name, body.domain, contacts)
    return {
        "status": "done" if contacts else "no_result",
        "domain": body.domain,
        "company_name": found.company_name,
        "contacts": [
            {
                "email": c.email,
                "status": c.status,
                "position": c.position,
                "first_name": c.first_name,
                "last_name": c.last_name,
                "full_name": c.full_name,
                "linkedin_url": c.linkedin_url,
            }
            for c in contacts
        ],
        **hierarchy.as_dict(),
    }


def contacts_units(result: dict[str, Any]) -> int:
    """Billing: one unit per contact with an email."""
    return sum(1 for c in result["contacts"] if c["email"])
