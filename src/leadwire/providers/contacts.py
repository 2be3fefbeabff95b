"""The contacts port: find the people of a company by its domain.

Adapters (sandbox world, Hunter) return contact data as the upstream gave it;
the hierarchy built on top of it lives in ``leadwire.research.hierarchy``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from leadwire.providers.errors import ProviderError

# Public error codes an adapter may raise; the service maps them onto the API.
CONTACTS_ERROR_CODES = frozenset(
    {
        "invalid_domain",
        "contacts_provider_unauthorized",
        "contacts_provider_rate_limited",
        "contacts_provider_unavailable",
        "contacts_provider_error",
    }
)


@dataclass(frozen=True, slots=True)
class ContactRecord:
    """One person as the upstream returned them.

    ``status`` is the e-mail verification status in the upstream's words
    (valid, accept_all, unknown, invalid, ...); ``department`` and
    ``seniority`` are the upstream's own labels when it has them.
    """

    email: str | None
    status: str | None
    position: str | None
    first_name: str | None
    last_name: str | None
    full_name: str | None
    linkedin_url: str | None
    department: str | None = None
    seniority: str | None = None


@dataclass(frozen=True, slots=True)
class CompanyContacts:
    """The result of one domain search; an empty ``contacts`` list is a successful empty search."""

    domain: str
    company_name: str | None
    contacts: list[ContactRecord] = field(default_factory=list)


class ContactsProviderError(ProviderError):
    """A failure of the upstream, carrying one of ``CONTACTS_ERROR_CODES``."""


@runtime_checkable
class ContactsProvider(Protocol):
    """Anything that can list a company's contacts by domain."""

    async def domain_search(
        self, domain: str, *, limit: int, positions: list[str], locale: str
    ) -> CompanyContacts:
        """Return up to ``limit`` contacts of ``domain`` whose title matches one of ``positions``.

        An empty ``positions`` list means no title filter; ``locale`` (``en`` or
        ``zh``) selects the language of names and titles where the upstream has both.
        """
        ...
