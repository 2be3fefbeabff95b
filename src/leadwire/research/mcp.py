"""MCP tools of the research capability: public-web search and company contacts, as jobs."""

from __future__ import annotations

from typing import Annotated, Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.http import ToolKit, field_schema
from leadwire.platform.jobs import NewJob, PublicJob
from leadwire.research import service
from leadwire.research.schemas import ContactsRequest, PublicWebRequest

# The arguments' published schemas are the REST models' (limits, enums); the model validates them.
Queries = Annotated[list[str], field_schema(PublicWebRequest, "queries")]
SearchLimit = Annotated[int, field_schema(PublicWebRequest, "search_limit")]
Category = Annotated[str | None, field_schema(PublicWebRequest, "category")]
IncludeDomains = Annotated[list[str] | None, field_schema(PublicWebRequest, "include_domains")]
UserLocation = Annotated[str | None, field_schema(PublicWebRequest, "user_location")]
Domain = Annotated[str, field_schema(ContactsRequest, "domain")]
Positions = Annotated[list[str] | None, field_schema(ContactsRequest, "positions")]
ContactsLimit = Annotated[int, field_schema(ContactsRequest, "limit")]
Locale = Annotated[str, field_schema(ContactsRequest, "locale")]


def register_tools(kit: ToolKit) -> None:
    async def start(
        model: type[PublicWebRequest | ContactsRequest],
        fields: dict[str, Any],
        feature: str,
        wait_seconds: int,
    ) -> PublicJob:
        # Authorised before the arguments are read, as REST does: a key without the scope is refused
        # whatever it sends, and an invalid request still counts against the rate limits.
        caller = await kit.allowed("research:write", "task", feature)
        body = kit.validate(model, fields)
        runtime = kit.get_runtime()

        async def create(session: AsyncSession) -> NewJob:
            return await service.start(session, runtime, caller, body)

        return await kit.start_job(create, wait_seconds)

    @kit.server.tool(description="Search public-web sources (1-2 queries). Returns the research job.")
    async def research_public_web(
        queries: Queries,
        search_limit: SearchLimit = 10,
        category: Category = None,
        include_domains: IncludeDomains = None,
        user_location: UserLocation = None,
        wait_seconds: int = 20,
    ) -> PublicJob:
        body = {
            "queries": queries,
            "search_limit": search_limit,
            "category": category,
            "include_domains": include_domains or [],
            "user_location": user_location,
        }
        return await start(PublicWebRequest, body, "research", wait_seconds)

    @kit.server.tool(description="Contacts of a company by its official domain, with an inferred hierarchy.")
    async def research_contacts(
        domain: Domain,
        positions: Positions = None,
        limit: ContactsLimit = 20,
        locale: Locale = "en",
        wait_seconds: int = 20,
    ) -> PublicJob:
        body = {"domain": domain, "positions": positions or [], "limit": limit, "locale": locale}
        return await start(ContactsRequest, body, "contacts", wait_seconds)
