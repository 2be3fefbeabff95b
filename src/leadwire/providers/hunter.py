"""Contacts adapter for Hunter's Domain Search API (``GET /v2/domain-search``).

Pages through a domain's personal e-mail addresses, filters titles against the
requested positions on our side, and returns every field as Hunter sent it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from leadwire.providers.contacts import CompanyContacts, ContactRecord, ContactsProviderError
from leadwire.providers.positions import title_matches

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.hunter.io/v2"
MAX_PAGE_SIZE = 100  # Hunter's documented maximum `limit` per request
FREE_PLAN_PAGE_SIZE = 10  # Free plans reject limit + offset > 10 with `pagination_error`
DEFAULT_MAX_PAGES = 3  # each page is a billed search upstream; bound the cost of a position filter
DEFAULT_TIMEOUT = httpx.Timeout(20.0, connect=5.0)


@dataclass(frozen=True, slots=True)
class DomainSearchPage:
    """One response of the Domain Search endpoint, kept close to its documented shape."""

    domain: str | None
    organization: str | None
    emails: list[dict[str, Any]]
    results: int | None
    limit: int | None
    offset: int | None
    params: dict[str, Any] = field(default_factory=dict)


class HunterContactsProvider:
    """``ContactsProvider`` backed by Hunter; the API key travels in a header, never in a URL or log."""

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        client: httpx.AsyncClient | None = None,
        *,
        max_pages: int = DEFAULT_MAX_PAGES,
    ) -> None:
        if not api_key:
            raise ValueError("a Hunter API key is required")
        self._api_key = api_key
        self._base_url = base_url.rstrip("/")
        self._client = client
        self._max_pages = max(1, max_pages)

    def __repr__(self) -> str:
        return f"HunterContactsProvider(base_url={self._base_url!r})"

    async def domain_search(
        self, domain: str, *, limit: int, positions: list[str], locale: str = "en"
    ) -> CompanyContacts:
        """Return up to ``limit`` personal contacts of ``domain`` matching ``positions``.

        Hunter has one language, so ``locale`` does not change the request.
        """
        page_size = limit if not positions else MAX_PAGE_SIZE
        contacts: list[ContactRecord] = []
        organization: str | None = None
        offset = 0
        for _ in range(self._max_pages):
            page = await self._page(domain, page_size, offset)
            if page is None:
                break
            organization = organization or page.organization
            contacts.extend(
                r for r in map(to_contact, page.emails) if r and title_matches(positions, r.position)
            )
            offset += len(page.emails)
            if len(contacts) >= limit or not page.emails or page.results is None or offset >= page.results:
                break
            page_size = page.limit or page_size  # the free plan may have shrunk it
        return CompanyContacts(domain=domain, company_name=organization, contacts=contacts[:limit])

    async def _page(self, domain: str, limit: int, offset: int) -> DomainSearchPage | None:
        """One page of personal addresses; None when the plan allows no further page."""
        try:
            return await self.search_page(domain, limit=limit, offset=offset, type="personal")
        except _PaginationError:
            if offset > 0:
                return None
            if limit > FREE_PLAN_PAGE_SIZE:
                return await self.search_page(domain, limit=FREE_PLAN_PAGE_SIZE, offset=0, type="personal")
            raise

    async def search_page(
        self,
        domain: str,
        *,
        limit: int = 10,
        offset: int = 0,
        type: str | None = None,
        seniority: str | None = None,
        department: str | None = None,
    ) -> DomainSearchPage:
        """One ``GET /domain-search`` call; every argument is a documented query parameter."""
        params: dict[str, str | int] = {"domain": domain, "limit": limit, "offset": offset}
        optional = {"type": type, "seniority": seniority, "department": department}
        params.update({k: v for k, v in optional.items() if v})
        body = await self._get("/domain-search", params)
        return _parse_page(body)

    async def _get(self, path: str, params: Mapping[str, str | int]) -> Mapping[str, Any]:
        # X-API-KEY is documented as equivalent to ?api_key=; a header keeps the key out of
        # URLs, which httpx logs and exception messages print.
        headers = {"X-API-KEY": self._api_key, "Accept": "application/json"}
        url = f"{self._base_url}{path}"
        try:
            if self._client is not None:
                response = await self._client.get(url, params=params, headers=headers)
            else:
                async with httpx.AsyncClient(timeout=DEFAULT_TIMEOUT) as client:
                    response = await client.get(url, params=params, headers=headers)
        except httpx.TimeoutException:
            raise ContactsProviderError("contacts_provider_unavailable", "timeout") from None
        except httpx.HTTPError as exc:
            raise ContactsProviderError("contacts_provider_unavailable", type(exc).__name__) from None
        return _checked_body(response)


class _PaginationError(ContactsProviderError):
    def __init__(self) -> None:
        super().__init__("contacts_provider_error", "pagination_error")


def _checked_body(response: httpx.Response) -> Mapping[str, Any]:
    if response.status_code == 200:
        try:
            body = response.json()
        except ValueError:
            raise ContactsProviderError("contacts_provider_error", "response is not JSON") from None
        if not isinstance(body, dict) or not isinstance(body.get("data"), dict):
            raise ContactsProviderError("contacts_provider_error", "response has no data object")
        return body
    raise _error_for(response)


def _error_ids(response: httpx.Response) -> list[str]:
    try:
        errors = response.json().get("errors") or []
    except (ValueError, AttributeError):
        return []
    return [str(e.get("id")) for e in errors if isinstance(e, dict) and e.get("id")]


def _error_for(response: httpx.Response) -> ContactsProviderError:
    status, ids = response.status_code, _error_ids(response)
    log.warning("hunter domain-search failed", extra={"status": status, "error_ids": ids})
    if status == 401:
        return ContactsProviderError("contacts_provider_unauthorized")
    if status in (403, 429):
        # 403 is Hunter's per-second rate limit, 429 its plan usage limit.
        return ContactsProviderError("contacts_provider_rate_limited", str(status))
    if status >= 500:
        return ContactsProviderError("contacts_provider_unavailable", str(status))
    if status == 400 and "pagination_error" in ids:
        return _PaginationError()
    if status == 400 and any("domain" in i or i == "wrong_params" for i in ids):
        return ContactsProviderError("invalid_domain", ",".join(ids))
    return ContactsProviderError("contacts_provider_error", f"{status} {','.join(ids)}".strip())


def _parse_page(body: Mapping[str, Any]) -> DomainSearchPage:
    data, meta = body["data"], body.get("meta") or {}
    emails = [e for e in data.get("emails") or [] if isinstance(e, dict)]
    return DomainSearchPage(
        domain=_str(data.get("domain")),
        organization=_str(data.get("organization")),
        emails=emails,
        results=_int(meta.get("results")),
        limit=_int(meta.get("limit")),
        offset=_int(meta.get("offset")),
        params=dict(meta.get("params") or {}),
    )


def to_contact(email: Mapping[str, Any]) -> ContactRecord | None:
    """Map one entry of ``data.emails`` to a ``ContactRecord`` as received; None without an address."""
    value = _str(email.get("value"))
    if not value:
        return None
    verification = email.get("verification") or {}
    first, last = _str(email.get("first_name")), _str(email.get("last_name"))
    full = " ".join(p for p in (first, last) if p) or None
    return ContactRecord(
        email=value,
        status=_str(verification.get("status")) if isinstance(verification, dict) else None,
        position=_str(email.get("position")) or _str(email.get("position_raw")),
        first_name=first,
        last_name=last,
        full_name=full,
        linkedin_url=_str(email.get("linkedin")),
        department=_str(email.get("department")),
        seniority=_str(email.get("seniority")),
    )


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value != "" else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
