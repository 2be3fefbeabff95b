"""Job handlers of the research actions: what the worker runs for public-web and contacts jobs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from leadwire.platform.billing import per_unit
from leadwire.platform.jobs import ActionSpec, Handler, JobContext
from leadwire.platform.validation import RequestModel
from leadwire.research import service
from leadwire.research.schemas import ContactsRequest, ContactsResult, PublicWebRequest, PublicWebResult


def _search_job(
    request: type[RequestModel],
    provider: str,
    run: Callable[[Any, Any], Awaitable[dict[str, Any]]],
    units: Callable[[dict[str, Any]], int],
    kind: str,
) -> Handler:
    """A research handler: validate the payload, search with the named provider, bill the result."""

    async def handle(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
        body = request.model_validate(payload)
        await ctx.progress("searching", 10.0)
        result = await run(ctx.adapter(provider), body)
        ctx.bill(units(result), kind=kind)
        return result

    return handle


run_public_web = _search_job(
    PublicWebRequest, "search", service.search_public_web, service.public_web_units, "sources"
)
run_contacts = _search_job(
    ContactsRequest, "contacts", service.find_contacts, service.contacts_units, "contacts"
)


PUBLIC_WEB_ACTION = ActionSpec(
    action=service.PUBLIC_WEB,
    scopes="research",
    handler=run_public_web,
    timeout_seconds=120.0,
    max_units=lambda p: {"sources": float(len(p["queries"]) * p["search_limit"])},
    price=per_unit(1, kind="sources"),  # a credit per returned source
    result=PublicWebResult,
)
CONTACTS_ACTION = ActionSpec(
    action=service.CONTACTS,
    scopes="research",
    handler=run_contacts,
    timeout_seconds=120.0,
    max_units=lambda p: {"contacts": float(p["limit"])},
    price=per_unit(1, kind="contacts"),  # a credit per contact with an email
    result=ContactsResult,
)
