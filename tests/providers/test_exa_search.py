"""Exa search adapter against responses of Exa's documented shape (respx, no network)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import respx

from leadwire.providers.exa import ExaSearchProvider
from leadwire.providers.search import TRUNCATION_MARKER, SearchProvider, SearchProviderError, SearchRequest

BASE = "https://api.exa.ai"
KEY = "exa_test_key_0123"


def result(url: str, **extra: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "title": "A Comprehensive Overview of Large Language Models",
        "url": url,
        "publishedDate": "2023-11-16T01:36:32.547Z",
        "author": "Humza Naveed",
        "id": url,
        "image": "https://arxiv.org/pdf/2307.06435.pdf/page_1.png",
        "favicon": "https://arxiv.org/favicon.ico",
        "text": "Abstract Large Language Models (LLMs) have recently demonstrated remarkable capabilities...",
        "highlights": ["Such requirements have limited their adoption..."],
        "highlightScores": [0.4600165784358978],
    }
    item.update(extra)
    return item


def response(results: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "requestId": "b5947044c4b78efa9552a7c89b306d95",
        "results": results,
        "resolvedSearchType": "",
        "costDollars": {"total": 0.007, "search": {"neural": 0.007}},
    }


@pytest.fixture
def exa() -> ExaSearchProvider:
    return ExaSearchProvider(KEY, base_url=BASE)


def test_it_implements_the_port(exa: ExaSearchProvider) -> None:
    assert isinstance(exa, SearchProvider)


@respx.mock
async def test_success_maps_results_and_sends_the_documented_body(exa: ExaSearchProvider) -> None:
    route = respx.post(f"{BASE}/search").mock(
        return_value=httpx.Response(200, json=response([result("https://arxiv.org/abs/2307.06435")]))
    )
    request = SearchRequest(
        query="llm overview",
        limit=5,
        category="financial report",
        include_domains=["WWW.Arxiv.org"],
        user_location="us",
    )
    sources = await exa.search(request)

    sent = route.calls.last.request
    assert sent.headers["x-api-key"] == KEY
    body = json.loads(sent.content)
    assert body["query"] == "llm overview"
    assert body["numResults"] == 5
    assert body["type"] == "auto"
    assert body["category"] == "financial report"
    assert body["includeDomains"] == ["arxiv.org"]
    assert body["userLocation"] == "US"
    assert body["contents"]["text"] == {"maxCharacters": 3001}
    assert body["contents"]["highlights"]["query"] == "llm overview"

    assert len(sources) == 1
    source = sources[0]
    assert source.url == "https://arxiv.org/abs/2307.06435"
    assert source.title == "A Comprehensive Overview of Large Language Models"
    assert source.published_date == "2023-11-16"
    assert source.author == "Humza Naveed"
    assert source.image == "https://arxiv.org/pdf/2307.06435.pdf/page_1.png"
    assert source.highlights == ["Such requirements have limited their adoption..."]
    assert source.text.startswith("Abstract Large Language Models")


@pytest.mark.parametrize("category", ["company", "news", "financial report", "people", "personal site"])
def test_every_category_maps_to_an_exa_category(exa: ExaSearchProvider, category: str) -> None:
    body = exa.request_body(SearchRequest(query="q", category=category))  # type: ignore[arg-type]
    assert body["category"] in {"company", "news", "financial report", "people", "personal site"}


def test_optional_fields_are_left_out(exa: ExaSearchProvider) -> None:
    body = exa.request_body(SearchRequest(query="q"))
    assert "category" not in body and "includeDomains" not in body and "userLocation" not in body


@respx.mock
async def test_empty_results_are_an_empty_list(exa: ExaSearchProvider) -> None:
    respx.post(f"{BASE}/search").mock(return_value=httpx.Response(200, json=response([])))
    assert await exa.search(SearchRequest(query="nothing")) == []


@respx.mock
async def test_missing_optional_fields_become_none(exa: ExaSearchProvider) -> None:
    bare = {"id": "https://x.example/a", "url": "https://x.example/a", "title": "X", "author": None}
    respx.post(f"{BASE}/search").mock(return_value=httpx.Response(200, json=response([bare])))
    [source] = await exa.search(SearchRequest(query="x"))
    assert (source.published_date, source.author, source.image, source.highlights, source.text) == (
        None,
        None,
        None,
        [],
        "",
    )


@respx.mock
async def test_long_text_is_capped_with_the_marker() -> None:
    exa = ExaSearchProvider(KEY, base_url=BASE, text_cap=200)
    respx.post(f"{BASE}/search").mock(
        return_value=httpx.Response(200, json=response([result("https://a.example/", text="word " * 41)]))
    )
    [source] = await exa.search(SearchRequest(query="x"))
    assert source.text.endswith(TRUNCATION_MARKER) and len(source.text) <= 200


@respx.mock
async def test_text_at_the_cap_is_not_marked() -> None:
    exa = ExaSearchProvider(KEY, base_url=BASE, text_cap=200)
    respx.post(f"{BASE}/search").mock(
        return_value=httpx.Response(200, json=response([result("https://a.example/", text="x" * 200)]))
    )
    [source] = await exa.search(SearchRequest(query="x"))
    assert source.text == "x" * 200


@respx.mock
async def test_results_outside_the_included_domains_are_dropped(exa: ExaSearchProvider) -> None:
    respx.post(f"{BASE}/search").mock(
        return_value=httpx.Response(
            200,
            json=response([result("https://blog.acme.example/p"), result("https://notacme.example/")]),
        )
    )
    sources = await exa.search(SearchRequest(query="x", include_domains=["acme.example"]))
    assert [s.url for s in sources] == ["https://blog.acme.example/p"]


@pytest.mark.parametrize(
    ("status", "body", "code"),
    [
        (
            400,
            {"requestId": "r1", "error": "Invalid request body", "tag": "INVALID_REQUEST_BODY"},
            "search_provider_invalid_request",
        ),
        (401, {"requestId": "r2", "error": "Invalid API key"}, "search_provider_unauthorized"),
        (
            402,
            {"requestId": "r3", "error": "No more credits", "tag": "NO_MORE_CREDITS"},
            "search_provider_payment_required",
        ),
        (403, {"requestId": "r4", "error": "Forbidden", "tag": "ACCESS_DENIED"}, "search_provider_forbidden"),
        (429, {"requestId": "r5", "error": "Rate limit exceeded"}, "search_provider_rate_limited"),
        (500, {"requestId": "r6", "error": "Internal error"}, "search_provider_unavailable"),
        (502, None, "search_provider_unavailable"),
        (503, None, "search_provider_unavailable"),
    ],
)
@respx.mock
async def test_error_statuses_map_to_codes(
    exa: ExaSearchProvider, status: int, body: dict[str, Any] | None, code: str
) -> None:
    reply = httpx.Response(status, json=body) if body is not None else httpx.Response(status, text="<html>")
    respx.post(f"{BASE}/search").mock(return_value=reply)
    with pytest.raises(SearchProviderError) as caught:
        await exa.search(SearchRequest(query="x"))
    assert caught.value.code == code
    assert KEY not in str(caught.value)


@respx.mock
async def test_timeout_is_a_provider_error(exa: ExaSearchProvider) -> None:
    respx.post(f"{BASE}/search").mock(side_effect=httpx.ReadTimeout("slow"))
    with pytest.raises(SearchProviderError) as caught:
        await exa.search(SearchRequest(query="x"))
    assert caught.value.code == "search_provider_timeout"


@respx.mock
async def test_connection_failure_is_unavailable(exa: ExaSearchProvider) -> None:
    respx.post(f"{BASE}/search").mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(SearchProviderError) as caught:
        await exa.search(SearchRequest(query="x"))
    assert caught.value.code == "search_provider_unavailable"


@respx.mock
async def test_a_body_that_is_not_a_search_response_is_an_error(exa: ExaSearchProvider) -> None:
    respx.post(f"{BASE}/search").mock(return_value=httpx.Response(200, text="not json"))
    with pytest.raises(SearchProviderError) as caught:
        await exa.search(SearchRequest(query="x"))
    assert caught.value.code == "search_provider_error"


@respx.mock
async def test_a_shared_client_is_used() -> None:
    route = respx.post(f"{BASE}/search").mock(return_value=httpx.Response(200, json=response([])))
    async with httpx.AsyncClient() as client:
        await ExaSearchProvider(KEY, base_url=BASE, client=client).search(SearchRequest(query="x"))
    assert route.called


@respx.mock
async def test_results_without_a_url_are_skipped(exa: ExaSearchProvider) -> None:
    respx.post(f"{BASE}/search").mock(
        return_value=httpx.Response(
            200, json=response([{"id": "x", "title": "no url"}, result("https://a.example/")])
        )
    )
    assert [s.url for s in await exa.search(SearchRequest(query="x"))] == ["https://a.example/"]
