"""Every framework-level failure reaches the client as the error envelope
(docs/api.md, Envelopes and request ids)."""

from __future__ import annotations

import httpx

from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok


async def test_unknown_route_is_not_found_with_or_without_key(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    assert_error(await client.get("/api/v2/nothing-here"), 404, "not_found")
    assert_error(await client.get("/api/v2/nothing-here", headers=acct.headers), 404, "not_found")


async def test_wrong_method_is_method_not_allowed(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    response = await client.delete("/api/v2/credits", headers=acct.headers)
    assert_error(response, 405, "method_not_allowed")
    assert "GET" in response.headers["allow"]


async def test_malformed_json_is_invalid_request(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    response = await client.post(
        "/api/v2/test/echo",
        content=b'{"message": ',
        headers={**acct.headers, "Content-Type": "application/json"},
    )
    assert_error(response, 400, "invalid_request")


async def test_wrong_content_type_is_invalid_request(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    response = await client.post(
        "/api/v2/test/echo",
        content=b'{"message": "x"}',
        headers={**acct.headers, "Content-Type": "text/plain"},
    )
    assert_error(response, 400, "invalid_request", param="Content-Type")


async def test_non_object_json_is_invalid_request(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    assert_error(
        await client.post("/api/v2/test/echo", json=[1, 2], headers=acct.headers), 400, "invalid_request"
    )
    assert_error(
        await client.post("/api/v2/test/echo", json="x", headers=acct.headers), 400, "invalid_request"
    )


async def test_wrong_type_names_the_field(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    response = await client.post("/api/v2/test/echo", json={"sleep": "soon"}, headers=acct.headers)
    assert_error(response, 400, "invalid_request", param="sleep")


async def test_body_over_the_default_limit_is_413_from_content_length(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    big = b'{"message": "' + b"x" * (1024 * 1024 + 10) + b'"}'
    response = await client.post(
        "/api/v2/test/echo", content=big, headers={**acct.headers, "Content-Type": "application/json"}
    )
    assert_error(response, 413, "request_payload_too_large")


async def test_body_over_the_limit_is_413_while_streaming(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()

    async def chunks():  # no Content-Length: the limit must be enforced as the body arrives
        yield b'{"message": "'
        for _ in range(40):
            yield b"y" * 32768
        yield b'"}'

    response = await client.post(
        "/api/v2/test/echo", content=chunks(), headers={**acct.headers, "Content-Type": "application/json"}
    )
    assert_error(response, 413, "request_payload_too_large")


async def test_unexpected_exception_is_internal_error_without_internals(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    response = await client.get("/api/v2/test/boom", headers=acct.headers)
    assert_error(response, 500, "internal_error")
    assert "secret internal detail" not in response.text


async def test_query_parameter_of_wrong_value_is_invalid_request(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    response = await client.get("/api/v2/connect/accounts?can_send=maybe", headers=acct.headers)
    assert_error(response, 400, "invalid_request", param="can_send")


async def test_every_response_carries_a_request_id(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    body = assert_ok(await client.get("/api/v2/credits", headers=acct.headers))
    assert body["request_id"].startswith("req_")
    assert (await client.get("/healthz")).headers["x-request-id"].startswith("req_")


async def test_unknown_body_fields_are_ignored(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    response = await client.post(
        "/api/v2/test/echo", json={"message": "hi", "extra": {"a": 1}}, headers=acct.headers
    )
    assert_ok(response, 202)


async def test_post_like_body_limit_is_32_kb(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    body = b'{"profile_url": "' + b"x" * (33 * 1024) + b'"}'
    response = await client.post(
        "/api/v2/outreach/linkedin/post-likes",
        content=body,
        headers={**acct.headers, "Content-Type": "application/json"},
    )
    assert_error(response, 413, "request_payload_too_large")


async def test_dispatch_body_limit_is_12_mb(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    headers = {
        **acct.headers,
        "Content-Type": "application/json",
        "Content-Length": str(12 * 1024 * 1024 + 1),
    }

    async def body():  # declared over the limit: refused before it is read
        yield b"{}"

    response = await client.post("/api/v1/outreach/dispatches", content=body(), headers=headers)
    assert_error(response, 413, "request_payload_too_large")
