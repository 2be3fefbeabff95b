"""HTTP: create public-web and contacts research jobs (v2)."""

from __future__ import annotations

from fastapi import APIRouter

from leadwire.platform.http import add_job_route, require
from leadwire.research import service
from leadwire.research.schemas import ContactsRequest, PublicWebRequest

router = APIRouter(prefix="/api/v2/research", tags=["research"])

add_job_route(
    router,
    "/public-web",
    name="create_public_web",
    body=PublicWebRequest,
    permission=require("research:write", "task"),
    start=service.start,
    summary="Search public-web sources for one or two queries",
    description=(
        "Creates a `research.public_web` job that searches each query (1-2, up to 500 characters) and "
        "returns up to `search_limit` sources per query with highlights and length-limited text. One "
        "failed query makes the result `partial`; all failed fail the job. Billing: 1 credit per "
        "returned source; `queries x search_limit` credits are reserved at creation and the unused part "
        "released. Needs `research:write`. 202 with the job, or 200 with the finished job when it ends "
        "within `Prefer: wait=N`; read the result at `GET /api/v2/jobs/{id}`."
    ),
)
add_job_route(
    router,
    "/contacts",
    name="create_contacts",
    body=ContactsRequest,
    permission=require("research:write", "task", capability="contacts"),
    start=service.start,
    error_codes=("invalid_domain", "locale_invalid", "membership_tier_insufficient"),
    summary="Find the contacts of a company by its official domain",
    description=(
        "Creates a `research.contacts` job that lists up to `limit` people at the company of `domain` "
        "(protocol and `www.` are removed), optionally only those whose title matches one of "
        "`positions`, with an inferred hierarchy (`nodes`, `edges`) that is a guess from titles, not a "
        "verified reporting line. Status `done` with contacts, `no_result` for an empty search. Billing: "
        "1 credit per contact with an email; `limit` credits reserved at creation. Needs "
        "`research:write` and a paid plan (`membership_tier_insufficient` on `free`)."
    ),
)
