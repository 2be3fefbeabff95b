"""The one domain normaliser of every capability and provider, in two modes of one contract.

Both return the canonical host of a bare domain or a website URL: lower-case, without scheme, `www.`,
port, path or trailing dot. Strict (the default) is for a domain a caller names as a company's (the
contacts search, a webset's company): anything that is not a company website — a name, an e-mail
address, a social-network URL, an IP, a public suffix — raises `ValueError` saying why. Lenient never
raises; it is for comparing and filtering hosts found in data (search filters, result URLs).
"""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import idna

if TYPE_CHECKING:
    import tldextract

# RFC 2606 / RFC 6761 reserved names are absent from the public suffix list,
# yet the sandbox world lives under `.example`, so they count as suffixes here.
RESERVED_TLDS = frozenset({"example", "test", "invalid", "localhost"})

# A profile or page on these sites names a presence, not the company's own domain.
SOCIAL_DOMAINS = frozenset(
    {
        "linkedin.com",
        "lnkd.in",
        "facebook.com",
        "fb.com",
        "fb.me",
        "twitter.com",
        "x.com",
        "t.co",
        "instagram.com",
        "youtube.com",
        "youtu.be",
        "tiktok.com",
        "pinterest.com",
        "reddit.com",
        "weibo.com",
        "weibo.cn",
        "t.me",
        "telegram.me",
        "wa.me",
        "whatsapp.com",
        "xing.com",
        "crunchbase.com",
        "medium.com",
        "threads.net",
        "douyin.com",
        "zhihu.com",
        "bilibili.com",
    }
)

_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_ALLOWED_SCHEMES = frozenset({"http", "https"})
_MAX_LENGTH = 253


@lru_cache(maxsize=1)
def _extractor() -> tldextract.TLDExtract:
    # The bundled suffix-list snapshot: no network fetch, no cache directory. Imported on first use:
    # a quarter of a second (it brings `requests`) that a worker which never reads a domain saves.
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def normalise_domain(raw: str, *, strict: bool = True) -> str:
    """The canonical host of ``raw``; strict mode raises ``ValueError`` when it is not a company's."""
    if not strict:
        return _lenient_host(raw)
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        raise ValueError("domain is empty")
    if any(ch.isspace() for ch in text):
        raise ValueError("a company name, not a domain")
    host = _host_of(text)
    host = _to_ascii(host.rstrip(".").lower())
    if host.startswith("www."):
        host = host[4:]
    _check_host(host)
    return host


def _host_of(text: str) -> str:
    lowered = text.lower()
    if lowered.startswith("mailto:"):
        raise ValueError("an e-mail address, not a domain")
    has_scheme = "://" in text
    if not has_scheme and "@" in text.split("/", 1)[0]:
        raise ValueError("an e-mail address, not a domain")
    parts = urlsplit(text if has_scheme else f"//{text}")
    if has_scheme and parts.scheme.lower() not in _ALLOWED_SCHEMES:
        raise ValueError("only http and https URLs name a website")
    if "@" in parts.netloc:
        raise ValueError("credentials or an e-mail address in the URL")
    host = parts.hostname
    if not host:
        raise ValueError("no host in the URL")
    return host


def _to_ascii(host: str) -> str:
    if host.isascii():
        return host
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError as exc:
        raise ValueError("not a valid internationalised domain") from exc


def _check_host(host: str) -> None:
    if _is_ip(host):
        raise ValueError("an IP address, not a domain")
    labels = host.split(".")
    if len(labels) < 2:
        raise ValueError("a bare word, not a domain")
    if len(host) > _MAX_LENGTH or not all(_LABEL.match(label) for label in labels):
        raise ValueError("a label of the domain is not valid")
    if labels[-1].isdigit():
        raise ValueError("a numeric top-level domain")
    registrable = _registrable(host, labels)
    if registrable in SOCIAL_DOMAINS:
        raise ValueError("a social-network URL, not the company's domain")


def _registrable(host: str, labels: list[str]) -> str:
    if labels[-1] in RESERVED_TLDS:
        return ".".join(labels[-2:])
    ext = _extractor()(host)
    if not ext.suffix:
        raise ValueError("unknown top-level domain")
    if not ext.domain:
        raise ValueError("a public suffix, not a registrable domain")
    return f"{ext.domain}.{ext.suffix}"


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _lenient_host(raw: str) -> str:
    value = raw.strip().lower()
    for prefix in ("https://", "http://"):
        if value.startswith(prefix):
            value = value[len(prefix) :]
    value = value.split("/", 1)[0].split(":", 1)[0].rstrip(".")
    if value.startswith("www."):
        value = value[4:]
    return value


def domain_matches(host: str, domains: list[str]) -> bool:
    """True when ``host`` is one of ``domains`` (already normalised) or a subdomain of one."""
    host = normalise_domain(host, strict=False)
    return any(host == d or host.endswith("." + d) for d in domains)
