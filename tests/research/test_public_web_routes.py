"""POST /api/v2/research/public-web: every request rule (docs/api.md, Public-web research), and the job it
creates."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok

URL = "/api/v2/research/public-web"


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({}, "queries"),
        ({"queries": []}, "queries"),
        ({"queries": ["a", "b", "c"]}, "queries"),
        ({"queries": ["x" * 501]}, "queries.0"),
        ({"queries": ["  "]}, "queries"),
        ({"queries": "just a string"}, "queries"),
        ({"queries": [42]}, "queries.0"),
        ({"queries": ["q"], "search_limit": 0}, "search_limit"),
        ({"queries": ["q"], "search_limit": 11}, "search_limit"),
        ({"queries": ["q"], "search_limit": "5"}, "search_limit"),
        ({"queries": ["q"], "category": "blogs"}, "category"),
        (
            {"queries": ["q"], "include_domains": ["a.com", "b.com", "c.com", "d.com", "e.com", "f.com"]},
            "include_domains",
        ),
        ({"queries": ["q"], "include_domains": ["not a domain"]}, "include_domains"),
        ({"queries": ["q"], "user_location": "DEU"}, "user_location"),
        ({"queries": ["q"], "user_location": "XX"}, "user_location"),
    ],
)
async def test_invalid_requests_name_the_field(
    client: httpx.AsyncClient, accounts: AccountFactory, body: dict[str, Any], param: str
) -> None:
    acct = await accounts.create()
    assert_error(await client.post(URL, json=body, headers=acct.headers), 400, "invalid_request", param=param)


async def test_valid_request_creates_a_research_job_and_reserves_credits(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    body = {
        "queries": ["logistics software Germany", "freight news"],
        "search_limit": 5,
        "category": "news",
        "include_domains": ["https://www.Example.example/about"],
        "user_location": "de",
    }
    item = assert_ok(await client.post(URL, json=body, headers=acct.headers), 202)["item"]
    assert item["action"] == "research.public_web" and item["status"] == "queued" and "channel" not in item
    credits = assert_ok(await client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["reserved"] == 10  # 2 queries x 5 sources x 1 credit


async def test_needs_research_write_scope(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    reader = await accounts.key(acct.user_id, scopes=["research:read"])
    assert_error(
        await client.post(URL, json={"queries": ["q"]}, headers=reader.headers), 403, "permission_denied"
    )


async def test_not_enough_credits_for_the_reservation(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=5)
    response = await client.post(URL, json={"queries": ["q"], "search_limit": 10}, headers=acct.headers)
    assert_error(response, 402, "insufficient_credits")
