"""POST /api/v2/research/contacts: request rules, plan gate and the created job."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok

URL = "/api/v2/research/contacts"


@pytest.mark.parametrize(
    "domain", ["Acme Inc", "jane@acme.example", "https://www.linkedin.com/company/acme", "acme", "", 42, None]
)
async def test_not_a_domain_is_invalid_domain(
    client: httpx.AsyncClient, accounts: AccountFactory, domain: Any
) -> None:
    acct = await accounts.create()
    response = await client.post(URL, json={"domain": domain}, headers=acct.headers)
    if isinstance(domain, str):
        assert_error(response, 400, "invalid_domain", param="domain")
    else:
        assert response.status_code == 400 and response.json()["error"]["code"] in (
            "invalid_domain",
            "invalid_request",
        )


async def test_missing_domain_is_invalid_domain(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    assert_error(await client.post(URL, json={}, headers=acct.headers), 400, "invalid_domain", param="domain")


@pytest.mark.parametrize(
    ("body", "code", "param"),
    [
        ({"locale": "fr"}, "locale_invalid", "locale"),
        ({"limit": 0}, "invalid_request", "limit"),
        ({"limit": 51}, "invalid_request", "limit"),
        ({"positions": ["sales"] * 31}, "invalid_request", "positions"),
        ({"positions": ["x" * 81]}, "invalid_request", "positions.0"),
        ({"positions": "sales"}, "invalid_request", "positions"),
    ],
)
async def test_parameter_rules(
    client: httpx.AsyncClient, accounts: AccountFactory, body: dict[str, Any], code: str, param: str
) -> None:
    acct = await accounts.create()
    response = await client.post(URL, json={"domain": "acme.example", **body}, headers=acct.headers)
    assert_error(response, 400, code, param=param)


async def test_domain_is_normalised_into_the_job(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    item = assert_ok(
        await client.post(
            URL, json={"domain": "https://www.Acme.example:8443/about?x=1"}, headers=acct.headers
        ),
        202,
    )["item"]
    assert item["action"] == "research.contacts"


async def test_free_plan_has_no_contacts(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create(plan="free")
    response = await client.post(URL, json={"domain": "acme.example"}, headers=acct.headers)
    assert_error(response, 403, "membership_tier_insufficient")
