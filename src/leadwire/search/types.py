"""What a search is and what it returns, shared by the local search engine and the search port's
adapters: the request, a source and text capping."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Final, Literal

SearchCategory = Literal["company", "news", "financial report", "people", "personal site"]

SEARCH_CATEGORIES: Final[frozenset[str]] = frozenset(
    {"company", "news", "financial report", "people", "personal site"}
)

TRUNCATION_MARKER: Final = "...[truncated]"
DEFAULT_TEXT_CAP: Final = 3000
MAX_SEARCH_LIMIT: Final = 10

_ALPHA2 = re.compile(r"^[A-Z]{2}$")


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """One search as the research service asks it.

    ``include_domains`` keeps sources whose host is one of the domains or a
    subdomain of one; ``user_location`` (ISO 3166-1 alpha-2) is where the
    searcher is, which adapters use to prefer local sources, not to filter.
    """

    query: str
    limit: int = MAX_SEARCH_LIMIT
    category: SearchCategory | None = None
    include_domains: list[str] = field(default_factory=list)
    user_location: str | None = None

    def __post_init__(self) -> None:
        if not self.query.strip():
            raise ValueError("query must not be blank")
        if not 1 <= self.limit <= MAX_SEARCH_LIMIT:
            raise ValueError(f"limit must be between 1 and {MAX_SEARCH_LIMIT}")
        if self.category is not None and self.category not in SEARCH_CATEGORIES:
            raise ValueError(f"unknown category {self.category!r}")
        if self.user_location is not None and not _ALPHA2.match(self.user_location.upper()):
            raise ValueError("user_location must be an ISO 3166-1 alpha-2 code")


@dataclass(frozen=True, slots=True)
class SearchSource:
    """One result, in the shape of a public-web ``source`` of the research API."""

    url: str
    title: str
    published_date: str | None = None
    author: str | None = None
    image: str | None = None
    highlights: list[str] = field(default_factory=list)
    text: str = ""

    def as_dict(self) -> dict[str, object]:
        """The source as the API serialises it (the fields are the wire names)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def cap_text(text: str, limit: int = DEFAULT_TEXT_CAP) -> str:
    """Trim ``text`` to at most ``limit`` characters, ending with ``...[truncated]`` when anything was cut.

    The cut prefers a word boundary near the limit so the marker does not split a word.
    """
    if limit < len(TRUNCATION_MARKER) + 1:
        raise ValueError(f"limit must be at least {len(TRUNCATION_MARKER) + 1}")
    if len(text) <= limit:
        return text
    room = limit - len(TRUNCATION_MARKER)
    head = text[:room]
    space = head.rfind(" ")
    # Only back off to a space when it costs little; a long CJK run has none.
    if space >= room - 40 and space > 0:
        head = head[:space]
    return head.rstrip() + TRUNCATION_MARKER
