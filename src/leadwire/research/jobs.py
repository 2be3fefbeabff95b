"""Job handlers of the research actions: what the worker runs for public-web and contacts jobs."""

from __future__ import annotations

from typing import Any

from leadwire.platform.billing.prices import per_unit
from leadwire.platform.jobs.context import JobContext
from leadwire.platform.jobs.registry import ActionSpec
from leadwire.research import service
from leadwire.research.schemas import ContactsRequest, PublicWebRequest


async def run_public_web(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    body = PublicWebRequest.model_validate(payload)
    await ctx.progress("searching", 10.0)
    result = await service.search_public_web(ctx.service("search"), body)
    ctx.bill(service.public_web_units(result))
    return result


async def run_contacts(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    body = ContactsRequest.model_validate(payload)
    await ctx.progress("searching", 10.0)
    result = await service.find_contacts(ctx.service("contacts"), body)
    ctx.bill(service.contacts_units(result))
    return result


PUBLIC_WEB_ACTION = ActionSpec(
    action=service.PUBLIC_WEB,
    capability="research",
    handler=run_public_web,
    timeout_seconds=120.0,
    max_units=lambda p: float(len(p["queries"]) * p["search_limit"]),
    price=per_unit(1),  # a credit per returned source
)
CONTACTS_ACTION = ActionSpec(
    action=service.CONTACTS,
    capability="research",
    handler=run_contacts,
    timeout_seconds=120.0,
    max_units=lambda p: float(p["limit"]),
    price=per_unit(1),  # a credit per contact with an email
)
