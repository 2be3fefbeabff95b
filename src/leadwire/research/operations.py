"""What the research capability lets a caller do: its permission and its two creations, each declared
once for REST, MCP and (through OpenAPI) the SDK and the CLI."""

from __future__ import annotations

from leadwire.platform.callers import Permission
from leadwire.platform.jobs import job_operation
from leadwire.providers.data_rights import CONTACTS as CONTACT_DATA
from leadwire.research import service
from leadwire.research.schemas import ContactsRequest, PublicWebRequest

WRITE = Permission("research:write", "task")

PUBLIC_WEB = job_operation(
    name="research_public_web",
    body=PublicWebRequest,
    permission=WRITE,
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
    tool_description="Search public-web sources (1-2 queries). Returns the research job.",
)
CONTACTS = job_operation(
    name="research_contacts",
    body=ContactsRequest,
    permission=Permission("research:write", "task", feature=CONTACT_DATA.feature),
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
    tool_description="Contacts of a company by its official domain, with an inferred hierarchy.",
)
OPERATIONS = (PUBLIC_WEB, CONTACTS)
