"""The research capability: public-web search and company contacts (contacts need a paid plan)."""

from __future__ import annotations

from leadwire.platform.capability import Capability, Feature
from leadwire.platform.errors import ErrorCode
from leadwire.providers.data_rights import CONTACTS
from leadwire.research import jobs
from leadwire.research.operations import OPERATIONS

ERRORS = (
    ErrorCode(
        "invalid_domain",
        400,
        when=("contacts: `domain` is missing or not a company domain (a name, an email or a LinkedIn URL)"),
        remedy="send the company's official domain, e.g. `acme.example`",
    ),
)


CAPABILITY = Capability(
    name="research",
    scopes=("research:read", "research:write"),
    routers=("leadwire.research.routes",),
    actions=(jobs.PUBLIC_WEB_ACTION, jobs.CONTACTS_ACTION),
    features=(Feature("research"), CONTACTS.plan_feature),
    operations=OPERATIONS,
    errors=ERRORS,
)
