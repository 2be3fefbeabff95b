"""Every refusal of the webset endpoints carries its documented code (docs/api.md, Errors), on REST and
as the MCP tools' tool error, and no refused request leaves a list."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.mcp.test_mcp_server import call
from tests.mcp.test_outreach_tools import refusal
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "webset_query_required"),
        ({"query": "   "}, "webset_query_required"),
        ({"query": 5}, "webset_query_required"),
        ({"query": "x" * 2001}, "webset_query_too_long"),
        ({"query": "banks", "count": 50}, "webset_count_invalid"),
        ({"query": "banks", "count": "25"}, "webset_count_invalid"),
        ({"query": "banks", "target_kind": "robot"}, "webset_target_kind_unsupported"),
        ({"query": "banks", "locale": "fr"}, "locale_invalid"),
        ({"query": "banks", "title": "t" * 201}, "invalid_request"),
    ],
)
async def test_create_refusals_have_their_codes(
    client: httpx.AsyncClient, accounts: AccountFactory, body: dict[str, Any], code: str
) -> None:
    acct = await accounts.create(plan="business")
    assert_error(await client.post("/api/v2/websets", json=body, headers=acct.headers), 400, code)
    listed = assert_ok(await client.get("/api/v2/websets", headers=acct.headers))
    assert listed["items"] == []


async def test_a_count_outside_the_plan_is_403(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create(plan="free", credits=5000)
    response = await client.post(
        "/api/v2/websets", json={"query": "banks", "count": 100}, headers=acct.headers
    )
    assert_error(response, 403, "webset_count_not_available_for_tier")


async def test_not_enough_credits_is_402_and_creates_nothing(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=10)
    assert_error(
        await client.post("/api/v2/websets", json={"query": "banks"}, headers=acct.headers),
        402,
        "insufficient_credits",
    )
    assert assert_ok(await client.get("/api/v2/websets", headers=acct.headers))["items"] == []


async def test_scopes_are_enforced(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create(credits=100)
    reader = await accounts.key(acct.user_id, scopes=["websets:read"])
    assert_error(
        await client.post("/api/v2/websets", json={"query": "banks"}, headers=reader.headers),
        403,
        "permission_denied",
    )
    writer = await accounts.key(acct.user_id, scopes=["websets:write"])
    assert_error(await client.get("/api/v2/websets", headers=writer.headers), 403, "permission_denied")


async def test_reads_of_unknown_or_foreign_lists_are_404(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner, other = await accounts.create(credits=100), await accounts.create(credits=100)
    created = assert_ok(
        await client.post("/api/v2/websets", json={"query": "banks"}, headers=owner.headers), 202
    )
    webset_id = created["item"]["webset"]["id"]
    for path in ("", "/strategy", "/items"):
        assert_error(
            await client.get(f"/api/v2/websets/{webset_id}{path}", headers=other.headers),
            404,
            "webset_not_found",
        )
        assert_error(
            await client.get(f"/api/v2/websets/ws_nope{path}", headers=owner.headers), 404, "webset_not_found"
        )
    response = await client.post(
        f"/api/v2/websets/{webset_id}/find-more", json={}, headers={**other.headers, "Idempotency-Key": "k1"}
    )
    assert_error(response, 404, "webset_not_found")


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"limit": "0"}, "limit"),
        ({"limit": "101"}, "limit"),
        ({"limit": "x"}, "limit"),
        ({"cursor": "tampered.cursor"}, "cursor"),
    ],
)
async def test_list_parameters(
    client: httpx.AsyncClient, accounts: AccountFactory, params: dict[str, str], param: str
) -> None:
    acct = await accounts.create()
    response = await client.get("/api/v2/websets", params=params, headers=acct.headers)
    assert_error(response, 400, "invalid_request")
    assert response.json()["error"]["param"] == param


async def test_list_filter_kind_and_pages(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create(plan="business", credits=1000)
    for kind in ("company", "person", "company"):
        assert_ok(
            await client.post(
                "/api/v2/websets", json={"query": "banks", "target_kind": kind}, headers=acct.headers
            ),
            202,
        )
    assert_error(
        await client.get("/api/v2/websets", params={"target_kind": "x"}, headers=acct.headers),
        400,
        "webset_target_kind_unsupported",
    )
    first = assert_ok(await client.get("/api/v2/websets", params={"limit": 2}, headers=acct.headers))
    assert len(first["items"]) == 2 and first["has_more"] is True
    second = assert_ok(
        await client.get(
            "/api/v2/websets", params={"limit": 2, "cursor": first["next_cursor"]}, headers=acct.headers
        )
    )
    assert len(second["items"]) == 1 and second["has_more"] is False and second["next_cursor"] is None
    people = assert_ok(
        await client.get("/api/v2/websets", params={"target_kind": "person"}, headers=acct.headers)
    )
    assert [i["target_kind"] for i in people["items"]] == ["person"]
    bad = await client.get(
        "/api/v2/websets",
        params={"limit": 2, "cursor": first["next_cursor"], "target_kind": "person"},
        headers=acct.headers,
    )
    assert_error(bad, 400, "invalid_request")


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"match": "all"}, "match"),
        ({"detail": "huge"}, "detail"),
        ({"detail": "full", "limit": "11"}, "limit"),
        ({"detail": "standard", "limit": "26"}, "limit"),
        ({"limit": "51"}, "limit"),
        ({"cursor": "x.y"}, "cursor"),
    ],
)
async def test_items_parameters(
    client: httpx.AsyncClient, accounts: AccountFactory, params: dict[str, str], param: str
) -> None:
    acct = await accounts.create(credits=100)
    created = assert_ok(
        await client.post("/api/v2/websets", json={"query": "banks"}, headers=acct.headers), 202
    )
    webset_id = created["item"]["webset"]["id"]
    response = await client.get(f"/api/v2/websets/{webset_id}/items", params=params, headers=acct.headers)
    assert_error(response, 400, "invalid_request")
    assert response.json()["error"]["param"] == param


async def test_find_more_needs_a_key_and_an_idle_list(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    created = assert_ok(
        await client.post("/api/v2/websets", json={"query": "banks"}, headers=acct.headers), 202
    )
    webset_id = created["item"]["webset"]["id"]
    path = f"/api/v2/websets/{webset_id}/find-more"
    assert_error(await client.post(path, json={}, headers=acct.headers), 400, "idempotency_key_required")
    keyed = {**acct.headers, "Idempotency-Key": "fm-1"}
    assert_error(await client.post(path, json={"count": 7}, headers=keyed), 400, "webset_count_invalid")
    assert_error(
        await client.post(path, json={}, headers={**acct.headers, "Idempotency-Key": "fm-2"}),
        409,
        "webset_busy",
    )


async def test_cancelling_the_queued_preparation_job_cancels_the_list(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    created = assert_ok(
        await client.post("/api/v2/websets", json={"query": "banks"}, headers=acct.headers), 202
    )
    job_id, webset_id = created["item"]["preparation_job"]["id"], created["item"]["webset"]["id"]
    assert_ok(await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=acct.headers))
    webset = assert_ok(await client.get(f"/api/v2/websets/{webset_id}", headers=acct.headers))["item"]
    assert webset["status"] == "cancelled" and webset["progress"]["stop_reason"] == "cancelled"
    credits = assert_ok(await client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["reserved"] == 0 and credits["balance"] == 100
    strategy = assert_ok(await client.get(f"/api/v2/websets/{webset_id}/strategy", headers=acct.headers))[
        "item"
    ]
    assert strategy["readiness"] == "cancelled" and strategy["strategy"] is None


# (arguments of the create_webset tool, which are the REST body, and the code both refusals carry)
CREATE_REFUSALS: list[tuple[dict[str, Any], str]] = [
    ({"query": "   "}, "webset_query_required"),
    ({"query": "x" * 2001}, "webset_query_too_long"),
    ({"query": "banks", "count": 50}, "webset_count_invalid"),
    ({"query": "banks", "target_kind": "robot"}, "webset_target_kind_unsupported"),
    ({"query": "banks", "locale": "fr"}, "locale_invalid"),
]


@pytest.mark.parametrize(("arguments", "code"), CREATE_REFUSALS)
async def test_a_create_webset_tool_refusal_is_the_rest_code(
    client: httpx.AsyncClient, accounts: AccountFactory, arguments: dict[str, Any], code: str
) -> None:
    acct = await accounts.create(plan="business")
    assert_error(await client.post("/api/v2/websets", json=arguments, headers=acct.headers), 400, code)
    result = await call(client, acct.headers, "create_webset", **arguments)
    assert refusal(result, "create_webset").split(":")[0] == code
    assert assert_ok(await client.get("/api/v2/websets", headers=acct.headers))["items"] == []


async def test_a_count_outside_the_plan_over_mcp_is_webset_count_not_available_for_tier(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(plan="free", credits=5000)
    result = await call(client, acct.headers, "create_webset", query="banks", count=100)
    assert refusal(result, "create_webset").split(":")[0] == "webset_count_not_available_for_tier"
    assert assert_ok(await client.get("/api/v2/websets", headers=acct.headers))["items"] == []


async def test_find_more_over_mcp_on_a_list_still_preparing_is_webset_busy(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100)
    created = assert_ok(
        await client.post("/api/v2/websets", json={"query": "banks"}, headers=acct.headers), 202
    )
    webset_id = created["item"]["webset"]["id"]
    invalid = await call(client, acct.headers, "find_more_webset", webset_id=webset_id, count=7)
    assert refusal(invalid, "find_more_webset").split(":")[0] == "webset_count_invalid"
    busy = await call(client, acct.headers, "find_more_webset", webset_id=webset_id)
    assert refusal(busy, "find_more_webset").split(":")[0] == "webset_busy"
