"""The public-web search port: one query in, ranked sources with highlights and capped text out.

Adapters: the sandbox's local hybrid index (``providers.sandbox_search``) and Exa (``providers.exa``).
The request and source types live with the local search engine (``leadwire.search.types``), which
both the engine and every adapter use.
"""

from __future__ import annotations

from typing import Final, Protocol, runtime_checkable

from leadwire.providers.errors import ProviderError
from leadwire.search.types import (
    DEFAULT_TEXT_CAP,
    MAX_SEARCH_LIMIT,
    SEARCH_CATEGORIES,
    TRUNCATION_MARKER,
    SearchCategory,
    SearchRequest,
    SearchSource,
    cap_text,
)

__all__ = [
    "DEFAULT_TEXT_CAP",
    "MAX_SEARCH_LIMIT",
    "SEARCH_CATEGORIES",
    "SEARCH_ERROR_CODES",
    "TRUNCATION_MARKER",
    "SearchCategory",
    "SearchProvider",
    "SearchProviderError",
    "SearchRequest",
    "SearchSource",
    "cap_text",
]

# Public error codes an adapter may raise; the research service maps them onto the API.
SEARCH_ERROR_CODES: Final[frozenset[str]] = frozenset(
    {
        "search_provider_invalid_request",
        "search_provider_unauthorized",
        "search_provider_payment_required",
        "search_provider_forbidden",
        "search_provider_rate_limited",
        "search_provider_unavailable",
        "search_provider_timeout",
        "search_provider_error",
    }
)


class SearchProviderError(ProviderError):
    """A failure of the search upstream, carrying one of ``SEARCH_ERROR_CODES``."""


@runtime_checkable
class SearchProvider(Protocol):
    """Anything that can answer a public-web search."""

    async def search(self, request: SearchRequest) -> list[SearchSource]:
        """At most ``request.limit`` sources, best first; an empty list is a successful empty search."""
        ...
