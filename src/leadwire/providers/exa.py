"""Exa adapter of the search port: a client of Exa's documented ``POST /search`` API.

Failures become ``SearchProviderError`` codes; source text is capped with the port's marker.
"""

from __future__ import annotations

from typing import Any, Final

import httpx

from leadwire.domains import domain_matches, normalise_domain
from leadwire.providers.search import (
    DEFAULT_TEXT_CAP,
    SearchProviderError,
    SearchRequest,
    SearchSource,
    cap_text,
)

DEFAULT_BASE_URL: Final = "https://api.exa.ai"

# Our category names are Exa's own; kept as a table so a rename upstream is one line here.
EXA_CATEGORIES: Final[dict[str, str]] = {
    "company": "company",
    "news": "news",
    "financial report": "financial report",
    "people": "people",
    "personal site": "personal site",
}

_STATUS_CODES: Final[dict[int, str]] = {
    400: "search_provider_invalid_request",
    401: "search_provider_unauthorized",
    402: "search_provider_payment_required",
    403: "search_provider_forbidden",
    422: "search_provider_invalid_request",
    429: "search_provider_rate_limited",
}


class ExaSearchProvider:
    """Searches the public web through Exa; one instance may be shared by concurrent jobs."""

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        client: httpx.AsyncClient | None = None,
        *,
        search_type: str = "auto",
        text_cap: int = DEFAULT_TEXT_CAP,
        highlights_per_url: int = 3,
        highlight_chars: int = 1200,
        timeout: float = 30.0,
    ) -> None:
        self._api_key = api_key
        self._url = base_url.rstrip("/") + "/search"
        self._client = client
        self._search_type = search_type
        self._text_cap = text_cap
        self._highlights_per_url = highlights_per_url
        self._highlight_chars = highlight_chars
        self._timeout = timeout

    async def search(self, request: SearchRequest) -> list[SearchSource]:
        """Run one Exa search and map its results onto ``SearchSource``."""
        payload = self._parse(await self._post(self.request_body(request)))
        results = payload.get("results")
        if not isinstance(results, list):
            raise SearchProviderError("search_provider_error", "response has no results list")
        domains = [normalise_domain(d, strict=False) for d in request.include_domains]
        sources = [self._source(item) for item in results if isinstance(item, dict) and _url(item)]
        # Exa honours includeDomains itself; re-checking keeps the port's subdomain rule exact.
        if domains:
            sources = [s for s in sources if domain_matches(_host(s.url), domains)]
        return sources[: request.limit]

    def request_body(self, request: SearchRequest) -> dict[str, Any]:
        """The JSON body of ``POST /search`` for ``request``."""
        body: dict[str, Any] = {
            "query": request.query,
            "type": self._search_type,
            "numResults": request.limit,
            "contents": {
                # One character over the cap tells us whether Exa trimmed, so the marker is honest.
                "text": {"maxCharacters": self._text_cap + 1},
                # numSentences/highlightsPerUrl are deprecated upstream; a character budget replaces them.
                "highlights": {"query": request.query, "maxCharacters": self._highlight_chars},
            },
        }
        if request.category is not None:
            body["category"] = EXA_CATEGORIES[request.category]
        if request.include_domains:
            body["includeDomains"] = [normalise_domain(d, strict=False) for d in request.include_domains]
        if request.user_location is not None:
            body["userLocation"] = request.user_location.upper()
        return body

    async def _post(self, body: dict[str, Any]) -> httpx.Response:
        headers = {"x-api-key": self._api_key, "content-type": "application/json"}
        try:
            if self._client is not None:
                return await self._client.post(self._url, json=body, headers=headers, timeout=self._timeout)
            async with httpx.AsyncClient(timeout=self._timeout) as client:
                return await client.post(self._url, json=body, headers=headers)
        except httpx.TimeoutException as exc:
            raise SearchProviderError("search_provider_timeout", type(exc).__name__) from exc
        except httpx.HTTPError as exc:
            raise SearchProviderError("search_provider_unavailable", type(exc).__name__) from exc

    def _parse(self, response: httpx.Response) -> dict[str, Any]:
        if response.status_code != 200:
            raise SearchProviderError(_status_code(response.status_code), _error_detail(response))
        try:
            payload = response.json()
        except ValueError as exc:
            raise SearchProviderError("search_provider_error", "response is not JSON") from exc
        if not isinstance(payload, dict):
            raise SearchProviderError("search_provider_error", "response is not a JSON object")
        return payload

    def _source(self, item: dict[str, Any]) -> SearchSource:
        highlights = item.get("highlights") or []
        return SearchSource(
            url=_url(item),
            title=str(item.get("title") or ""),
            published_date=_date(item.get("publishedDate")),
            author=_optional_str(item.get("author")),
            image=_optional_str(item.get("image")),
            highlights=[h for h in highlights if isinstance(h, str) and h.strip()][
                : self._highlights_per_url
            ],
            text=cap_text(str(item.get("text") or ""), self._text_cap),
        )


def _url(item: dict[str, Any]) -> str:
    value = item.get("url")
    return value if isinstance(value, str) else ""


def _status_code(status: int) -> str:
    if status in _STATUS_CODES:
        return _STATUS_CODES[status]
    if status >= 500:
        return "search_provider_unavailable"
    return "search_provider_error"


def _error_detail(response: httpx.Response) -> str:
    """Exa's error body is ``{requestId, error, tag?}``; keep the tag and message, never the request."""
    try:
        body = response.json()
    except ValueError:
        return f"HTTP {response.status_code}"
    if not isinstance(body, dict):
        return f"HTTP {response.status_code}"
    parts = [f"HTTP {response.status_code}"]
    for key in ("tag", "error", "requestId"):
        value = body.get(key)
        if isinstance(value, str) and value:
            parts.append(f"{key}={value[:200]}")
    return " ".join(parts)


def _date(value: object) -> str | None:
    """Exa documents ``publishedDate`` as an ISO timestamp; the port carries the day."""
    if not isinstance(value, str) or len(value) < 10:
        return None
    return value[:10]


def _optional_str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _host(url: str) -> str:
    return normalise_domain(url, strict=False)
