"""Errors that explain: the `detail` of each refusal says why (the missing scope, the expected header
form, the credits needed and available, the limit exceeded), over REST and as the MCP tool error."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator

import httpx
import pytest

from leadwire.platform.body_limits import DEFAULT_BODY_LIMIT
from leadwire.platform.plans import PLANS, RateLimit
from tests.mcp.test_mcp_server import MCP_HEADERS, call, error_text
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import create_echo

HEADER_FORMS = ("Authorization: Bearer <key>", "x-api-key: <key>")


def detail_of(response: httpx.Response, status: int, code: str) -> str:
    detail = assert_error(response, status, code)["error"].get("detail")
    assert isinstance(detail, str) and detail, response.text
    return detail


@pytest.fixture
def tight_free_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    plan = PLANS["free"]
    # An hour-long window keeps the test's requests inside one (windows are aligned to the clock).
    limits = {**plan.rate_limits, "read": RateLimit(per_key=3, per_account=5, window_seconds=3600)}
    monkeypatch.setitem(PLANS, "free", dataclasses.replace(plan, rate_limits=limits))


# --- permission_denied names the missing scope ------------------------------------------------------


async def test_permission_denied_names_the_scope_the_key_lacks(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    reader = await accounts.key(owner.user_id, scopes=["research:read"])
    detail = detail_of(await client.get("/api/v2/credits", headers=reader.headers), 403, "permission_denied")
    assert "credits:read" in detail


async def test_permission_denied_on_a_job_names_the_scope_of_its_capability(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    job_id = assert_ok(await create_echo(client, owner.headers), 202)["item"]["id"]
    credits_only = await accounts.key(owner.user_id, scopes=["credits:read"])
    read = await client.get(f"/api/v2/jobs/{job_id}", headers=credits_only.headers)
    assert "research:read" in detail_of(read, 403, "permission_denied")
    reader = await accounts.key(owner.user_id, scopes=["research:read"])
    cancel = await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=reader.headers)
    assert "research:write" in detail_of(cancel, 403, "permission_denied")


async def test_permission_denied_tool_error_names_the_scope(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    reader = await accounts.key(owner.user_id, scopes=["research:read", "credits:read"])
    text = error_text(await call(client, reader.headers, "research_public_web", queries=["q"]))
    assert "permission_denied" in text and "research:write" in text
    job_id = assert_ok(await create_echo(client, owner.headers), 202)["item"]["id"]
    text = error_text(await call(client, reader.headers, "cancel_job", job_id=job_id))
    assert "permission_denied" in text and "research:write" in text


# --- a key sent in the wrong form: the detail shows the right ones ------------------------------------


@pytest.mark.parametrize(
    "header",
    ["Token {key}", "{key}", "bearer", "Basic dXNlcjpwYXNz"],
    ids=["token-scheme", "no-scheme", "scheme-only", "basic"],
)
async def test_a_key_without_bearer_is_api_key_invalid_showing_both_header_forms(
    client: httpx.AsyncClient, accounts: AccountFactory, header: str
) -> None:
    acct = await accounts.create()
    response = await client.get("/api/v2/credits", headers={"Authorization": header.format(key=acct.key)})
    detail = detail_of(response, 401, "api_key_invalid")
    assert all(form in detail for form in HEADER_FORMS), detail
    assert acct.key not in response.text  # the key is never echoed


async def test_no_key_is_api_key_missing_showing_both_header_forms(client: httpx.AsyncClient) -> None:
    detail = detail_of(await client.get("/api/v2/credits"), 401, "api_key_missing")
    assert all(form in detail for form in HEADER_FORMS), detail


async def test_other_key_refusals_say_why_without_the_key(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    unknown = "lw_live_" + "q" * 32
    response = await client.get("/api/v2/credits", headers={"x-api-key": unknown})
    assert "no such key" in detail_of(response, 401, "api_key_invalid") and unknown not in response.text
    response = await client.get("/api/v2/credits", headers={"x-api-key": "sk_" + "q" * 20})
    assert "lw_live_" in detail_of(response, 401, "api_key_invalid")
    acct = await accounts.create()
    await accounts.revoke(acct.key_id)
    response = await client.get("/api/v2/credits", headers=acct.headers)
    assert "revoked" in detail_of(response, 401, "api_key_revoked") and acct.key not in response.text


# --- insufficient_credits gives both amounts ---------------------------------------------------------


async def test_insufficient_credits_gives_the_required_and_available_credits(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=10)
    # The echo action reserves 1.5 credits a unit, rounded up once: 7 units need 11 credits.
    response = await create_echo(client, acct.headers, {"max_units": 7})
    detail = detail_of(response, 402, "insufficient_credits")
    assert re.search(r"\b11 credits\b", detail) and re.search(r"\b10 are available\b", detail), detail


async def test_insufficient_credits_counts_what_running_jobs_hold(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=20)
    assert_ok(await create_echo(client, acct.headers, {"max_units": 6, "sleep": 30}), 202)  # holds 9
    detail = detail_of(await create_echo(client, acct.headers, {"max_units": 8}), 402, "insufficient_credits")
    assert re.search(r"\b12 credits\b", detail) and re.search(r"\b11 are available\b", detail), detail


async def test_insufficient_credits_tool_error_gives_both_amounts(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=0)
    text = error_text(await call(client, acct.headers, "research_public_web", queries=["software"]))
    needed = re.search(r"insufficient_credits — this request needs (\d+) credits and 0 are available", text)
    assert needed is not None and int(needed.group(1)) > 0, text


# --- request_payload_too_large gives the limit (and the declared size) -------------------------------


async def test_payload_too_large_gives_the_limit_and_the_declared_size(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    big = b'{"message": "' + b"x" * (DEFAULT_BODY_LIMIT + 10) + b'"}'
    response = await client.post(
        "/api/v2/test/echo", content=big, headers={**acct.headers, "Content-Type": "application/json"}
    )
    detail = detail_of(response, 413, "request_payload_too_large")
    assert f"1 MiB ({DEFAULT_BODY_LIMIT} bytes)" in detail and f"{len(big)} bytes" in detail, detail


async def test_payload_too_large_while_streaming_gives_the_path_limit(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: only the limit is known
        yield b'{"profile_url": "'
        for _ in range(3):
            yield b"y" * 16384
        yield b'"}'

    response = await client.post(
        "/api/v2/outreach/linkedin/post-likes",
        content=chunks(),
        headers={**acct.headers, "Content-Type": "application/json", "Idempotency-Key": "big"},
    )
    assert "32 KiB (32768 bytes)" in detail_of(response, 413, "request_payload_too_large")


async def test_payload_too_large_on_the_mcp_face_gives_the_limit(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    # Too large to be read as a tool call: the MCP face answers with the REST envelope, detail included.
    acct = await accounts.create()

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_credits", "x": "'
        for _ in range(40):
            yield b"z" * 32768
        yield b'"}}'

    response = await client.post("/mcp/", content=chunks(), headers={**acct.headers, **MCP_HEADERS})
    assert f"1 MiB ({DEFAULT_BODY_LIMIT} bytes)" in detail_of(response, 413, "request_payload_too_large")


# --- the rate-limit 429s give the limit and the window ------------------------------------------------


async def test_rate_limit_refusals_give_the_limit_and_the_window(
    client: httpx.AsyncClient, accounts: AccountFactory, tight_free_plan: None
) -> None:
    first = await accounts.create(plan="free")
    second = await accounts.key(first.user_id)
    for _ in range(3):
        assert_ok(await client.get("/api/v2/credits", headers=first.headers))
    per_key = detail_of(
        await client.get("/api/v2/credits", headers=first.headers), 429, "api_key_rate_limit_exceeded"
    )
    assert "3 read requests per 3600 s" in per_key and "this key" in per_key, per_key
    for _ in range(2):
        assert_ok(await client.get("/api/v2/credits", headers=second.headers))
    shared = detail_of(
        await client.get("/api/v2/credits", headers=second.headers), 429, "api_rate_limit_exceeded"
    )
    assert "5 read requests per 3600 s" in shared and "account" in shared, shared


async def test_rate_limit_tool_error_gives_the_limit_and_the_window(
    client: httpx.AsyncClient, accounts: AccountFactory, tight_free_plan: None
) -> None:
    acct = await accounts.create(plan="free")
    for _ in range(3):
        assert_ok(await client.get("/api/v2/credits", headers=acct.headers))
    text = error_text(await call(client, acct.headers, "get_credits"))
    assert "api_key_rate_limit_exceeded — 3 read requests per 3600 s" in text, text


# --- MCP tool errors carry code, param and detail ------------------------------------------------------


async def test_tool_error_carries_code_param_and_detail(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    rest = await client.post(
        "/api/v2/research/public-web", json={"queries": ["a", "b", "c"]}, headers=acct.headers
    )
    error = assert_error(rest, 400, "invalid_request")["error"]
    assert error.get("param") and error.get("detail"), error
    text = error_text(await call(client, acct.headers, "research_public_web", queries=["a", "b", "c"]))
    assert text.endswith(f"invalid_request: {error['param']} — {error['detail']}"), text
