"""Hunter Domain Search adapter against responses of the documented shape (respx, no network)."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
import respx

from leadwire.providers.contacts import ContactsProvider, ContactsProviderError
from leadwire.providers.hunter import HunterContactsProvider, to_contact

BASE = "https://api.hunter.io/v2"
KEY = "hk_secret_0123456789"


def email(value: str, position: str | None, **extra: Any) -> dict[str, Any]:
    first, last = value.split("@")[0].split(".")
    entry: dict[str, Any] = {
        "value": value,
        "type": "personal",
        "confidence": 92,
        "sources": [
            {
                "domain": "github.com",
                "uri": "http://github.com/x",
                "extracted_on": "2015-07-29",
                "last_seen_on": "2017-07-01",
                "still_on_page": True,
            }
        ],
        "first_name": first.title(),
        "last_name": last.title(),
        "position": position,
        "position_raw": position,
        "seniority": "senior",
        "department": "it",
        "linkedin": None,
        "twitter": None,
        "phone_number": None,
        "verification": {"date": "2019-12-06", "status": "valid"},
    }
    entry.update(extra)
    return entry


def page(emails: list[dict[str, Any]], *, results: int, limit: int, offset: int) -> dict[str, Any]:
    return {
        "data": {
            "domain": "intercom.com",
            "disposable": False,
            "webmail": False,
            "accept_all": True,
            "pattern": "{first}.{last}",
            "organization": "Intercom",
            "linked_domains": [],
            "emails": emails,
        },
        "meta": {
            "results": results,
            "limit": limit,
            "offset": offset,
            "params": {
                "domain": "intercom.com",
                "company": None,
                "type": "personal",
                "seniority": None,
                "department": None,
            },
        },
    }


def errors(status: int, error_id: str, details: str = "x") -> httpx.Response:
    return httpx.Response(status, json={"errors": [{"id": error_id, "code": status, "details": details}]})


@pytest.fixture
def provider() -> HunterContactsProvider:
    return HunterContactsProvider(KEY, client=httpx.AsyncClient())


def test_hunter_provider_satisfies_the_port(provider: HunterContactsProvider) -> None:
    assert isinstance(provider, ContactsProvider)


@respx.mock
async def test_domain_search_maps_documented_fields_as_received(provider: HunterContactsProvider) -> None:
    entry = email(
        "ciaran.lee@intercom.com",
        "Support Engineer",
        linkedin="https://www.linkedin.com/in/ciaranlee",
        verification={"date": "2019-12-06", "status": "accept_all"},
    )
    route = respx.get(f"{BASE}/domain-search").mock(
        return_value=httpx.Response(200, json=page([entry], results=1, limit=20, offset=0))
    )
    result = await provider.domain_search("intercom.com", limit=20, positions=[], locale="en")
    assert result.domain == "intercom.com"
    assert result.company_name == "Intercom"
    [contact] = result.contacts
    assert contact.email == "ciaran.lee@intercom.com"
    assert contact.status == "accept_all"
    assert contact.position == "Support Engineer"
    assert (contact.first_name, contact.last_name, contact.full_name) == ("Ciaran", "Lee", "Ciaran Lee")
    assert contact.linkedin_url == "https://www.linkedin.com/in/ciaranlee"
    assert (contact.department, contact.seniority) == ("it", "senior")
    params = route.calls.last.request.url.params
    assert params["domain"] == "intercom.com"
    assert params["limit"] == "20"
    assert params["offset"] == "0"
    assert params["type"] == "personal"


@respx.mock
async def test_api_key_is_sent_in_a_header_and_never_in_the_url(provider: HunterContactsProvider) -> None:
    route = respx.get(f"{BASE}/domain-search").mock(
        return_value=httpx.Response(200, json=page([], results=0, limit=10, offset=0))
    )
    await provider.domain_search("intercom.com", limit=10, positions=[], locale="en")
    request = route.calls.last.request
    assert request.headers["X-API-KEY"] == KEY
    assert KEY not in str(request.url)
    assert KEY not in repr(provider)


@respx.mock
async def test_empty_search_is_an_empty_contact_list(provider: HunterContactsProvider) -> None:
    respx.get(f"{BASE}/domain-search").mock(
        return_value=httpx.Response(200, json=page([], results=0, limit=10, offset=0))
    )
    result = await provider.domain_search("intercom.com", limit=10, positions=[], locale="zh")
    assert result.contacts == []
    assert result.company_name == "Intercom"


@respx.mock
async def test_positions_filter_client_side_and_paginate_until_limit(
    provider: HunterContactsProvider,
) -> None:
    first = [email(f"a{i}.x@intercom.com", "Support Engineer") for i in range(100)]
    first[10] = email("vp.sales@intercom.com", "VP of Sales")
    second = [
        email("sales.rep@intercom.com", "Account Executive, Sales"),
        email("dir.sales@intercom.com", "Director of Sales"),
    ]
    route = respx.get(f"{BASE}/domain-search").mock(
        side_effect=[
            httpx.Response(200, json=page(first, results=102, limit=100, offset=0)),
            httpx.Response(200, json=page(second, results=102, limit=100, offset=100)),
        ]
    )
    result = await provider.domain_search("intercom.com", limit=2, positions=["sales"], locale="en")
    assert [c.email for c in result.contacts] == ["vp.sales@intercom.com", "sales.rep@intercom.com"]
    assert [c.request.url.params["offset"] for c in route.calls] == ["0", "100"]
    assert route.calls[0].request.url.params["limit"] == "100"


@respx.mock
async def test_pagination_stops_at_the_page_budget() -> None:
    provider = HunterContactsProvider(KEY, client=httpx.AsyncClient(), max_pages=2)
    filler = [email(f"a{i}.x@intercom.com", "Support Engineer") for i in range(100)]
    route = respx.get(f"{BASE}/domain-search").mock(
        return_value=httpx.Response(200, json=page(filler, results=1000, limit=100, offset=0))
    )
    result = await provider.domain_search("intercom.com", limit=5, positions=["sales"], locale="en")
    assert result.contacts == []
    assert route.call_count == 2


@respx.mock
async def test_free_plan_pagination_error_retries_with_ten(provider: HunterContactsProvider) -> None:
    entries = [email(f"p{i}.x@intercom.com", "Engineer") for i in range(10)]
    route = respx.get(f"{BASE}/domain-search").mock(
        side_effect=[
            errors(400, "pagination_error"),
            httpx.Response(200, json=page(entries, results=10, limit=10, offset=0)),
        ]
    )
    result = await provider.domain_search("intercom.com", limit=30, positions=[], locale="en")
    assert len(result.contacts) == 10
    assert [c.request.url.params["limit"] for c in route.calls] == ["30", "10"]


@respx.mock
async def test_pagination_error_on_a_later_page_keeps_what_was_found(
    provider: HunterContactsProvider,
) -> None:
    first = [email(f"a{i}.x@intercom.com", "Support Engineer") for i in range(99)]
    first.append(email("vp.sales@intercom.com", "VP of Sales"))
    respx.get(f"{BASE}/domain-search").mock(
        side_effect=[
            httpx.Response(200, json=page(first, results=300, limit=100, offset=0)),
            errors(400, "pagination_error"),
        ]
    )
    result = await provider.domain_search("intercom.com", limit=5, positions=["sales"], locale="en")
    assert [c.email for c in result.contacts] == ["vp.sales@intercom.com"]


@pytest.mark.parametrize(
    ("response", "code"),
    [
        (errors(401, "authentication_failed"), "contacts_provider_unauthorized"),
        (errors(403, "too_many_requests"), "contacts_provider_rate_limited"),
        (errors(429, "too_many_requests"), "contacts_provider_rate_limited"),
        (errors(500, "internal_error"), "contacts_provider_unavailable"),
        (httpx.Response(503, text="<html>down</html>"), "contacts_provider_unavailable"),
        (errors(400, "invalid_domain"), "invalid_domain"),
        (errors(400, "wrong_params", "You are missing the domain or company parameter"), "invalid_domain"),
        (errors(400, "invalid_department"), "contacts_provider_error"),
        (errors(451, "claimed_email"), "contacts_provider_error"),
        (httpx.Response(200, text="not json"), "contacts_provider_error"),
    ],
)
@respx.mock
async def test_upstream_errors_map_to_public_codes(
    provider: HunterContactsProvider, response: httpx.Response, code: str
) -> None:
    respx.get(f"{BASE}/domain-search").mock(return_value=response)
    with pytest.raises(ContactsProviderError) as info:
        await provider.domain_search("intercom.com", limit=10, positions=[], locale="en")
    assert info.value.code == code


@pytest.mark.parametrize(
    "exc", [httpx.ConnectTimeout("t"), httpx.ReadTimeout("t"), httpx.ConnectError("refused")]
)
@respx.mock
async def test_timeouts_and_transport_errors_are_unavailable(
    provider: HunterContactsProvider, exc: Exception
) -> None:
    respx.get(f"{BASE}/domain-search").mock(side_effect=exc)
    with pytest.raises(ContactsProviderError) as info:
        await provider.domain_search("intercom.com", limit=10, positions=[], locale="en")
    assert info.value.code == "contacts_provider_unavailable"


@respx.mock
async def test_api_key_never_reaches_logs_or_errors(
    provider: HunterContactsProvider, caplog: pytest.LogCaptureFixture
) -> None:
    echoed = errors(401, "authentication_failed", f"bad key {KEY}")
    respx.get(f"{BASE}/domain-search").mock(return_value=echoed)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ContactsProviderError) as info:
        await provider.domain_search("intercom.com", limit=10, positions=[], locale="en")
    assert KEY not in str(info.value)
    assert KEY not in caplog.text


@respx.mock
async def test_search_page_sends_every_documented_filter(provider: HunterContactsProvider) -> None:
    route = respx.get(f"{BASE}/domain-search").mock(
        return_value=httpx.Response(200, json=page([], results=0, limit=5, offset=10))
    )
    result = await provider.search_page(
        "intercom.com",
        limit=5,
        offset=10,
        type="personal",
        seniority="senior,executive",
        department="sales,it",
    )
    params = route.calls.last.request.url.params
    assert dict(params) == {
        "domain": "intercom.com",
        "limit": "5",
        "offset": "10",
        "type": "personal",
        "seniority": "senior,executive",
        "department": "sales,it",
    }
    assert (result.results, result.limit, result.offset) == (0, 5, 10)
    assert result.params["domain"] == "intercom.com"


def test_entry_without_address_is_skipped_and_missing_fields_stay_none() -> None:
    assert to_contact({"value": None, "type": "generic"}) is None
    record = to_contact({"value": "info@intercom.com", "type": "generic", "verification": None})
    assert record is not None
    assert (record.status, record.position, record.full_name, record.linkedin_url) == (None, None, None, None)
