"""Site context for the search index: every page also carries what its site's home page says.

A team page or an investor-relations page rarely repeats what the company does or
where it is; its site's home page does. Search engines lean on such site-level
signals, and so does this index: a page's ``site`` field is the title and first
thousand characters of its site's home page (empty for the home page itself).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from urllib.parse import urlsplit

from leadwire.search.text import clip

# About a home page's worth: long enough to hold what the company does and where, short enough
# that a site's context never outweighs a page's own words.
SITE_CONTEXT_CHARS = 1000


@dataclass(frozen=True, slots=True)
class PageRef:
    """What the site context needs to know of one document."""

    rowid: int
    url: str
    domain: str
    title: str
    text: str


@cache
def _extractor() -> object:
    import tldextract

    # The bundled public-suffix snapshot only: no network, no cache directory.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


@lru_cache(maxsize=65536)
def site_host(host: str) -> str:
    """The registrable domain of ``host``; off the public-suffix list (``.example``), its last two labels."""
    host = host.lower().strip(".")
    result = _extractor()(host)  # type: ignore[operator]
    if result.suffix and result.domain:
        return f"{result.domain}.{result.suffix}"
    labels = host.split(".")
    return ".".join(labels[-2:])


_HOME_PATHS = frozenset({"", "index.html", "index.htm", "home", "en", "zh"})


def is_home_page(page: PageRef) -> bool:
    """A root URL (``/``, ``/index.html``, ...) on the site's own host or its ``www.``."""
    parts = urlsplit(page.url)
    host = (parts.hostname or page.domain).lower()
    site = site_host(host)
    return host in (site, f"www.{site}") and parts.path.strip("/").lower() in _HOME_PATHS and not parts.query


def site_roots(pages: Iterable[PageRef]) -> dict[str, PageRef]:
    """The home page of every site that has one among ``pages`` (the lowest rowid if several)."""
    roots: dict[str, PageRef] = {}
    for page in pages:
        if not is_home_page(page):
            continue
        host = site_host(page.domain)
        current = roots.get(host)
        if current is None or page.rowid < current.rowid:
            roots[host] = page
    return roots


def context_of(root: PageRef) -> str:
    """The site context a root page lends: its title and text, cut at a word boundary."""
    return clip(f"{root.title}. {root.text}", SITE_CONTEXT_CHARS)


def site_text(page: PageRef, roots: dict[str, PageRef]) -> str:
    """The ``site`` field of ``page``: its site's context, or nothing when it is the home page."""
    root = roots.get(site_host(page.domain))
    if root is None or root.rowid == page.rowid:
        return ""
    return context_of(root)


def write_sites(con: sqlite3.Connection, roots: dict[str, PageRef]) -> None:
    """Store each site's context, for the insert trigger to give new pages of known sites at once."""
    con.executemany(
        "INSERT OR REPLACE INTO search_sites(host, root_rowid, context) VALUES (?, ?, ?)",
        [(host, root.rowid, context_of(root)) for host, root in roots.items()],
    )


def pages_of_sites(con: sqlite3.Connection, hosts: set[str]) -> list[PageRef]:
    """Every document on the given sites (or their subdomains)."""
    found: list[PageRef] = []
    for host in sorted(hosts):
        cursor = con.execute(
            "SELECT rowid, url, domain, title, text FROM documents WHERE domain = ? OR domain LIKE ?",
            (host, "%." + host),
        )
        found.extend(PageRef(int(r), u or "", d or "", t or "", x or "") for r, u, d, t, x in cursor)
    return found
