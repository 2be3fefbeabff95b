"""Hostile requests found by the adversarial run, each a regression test: NUL characters, Unicode digits
in `Prefer`, an oversized chunked MCP body, foreign hosts and origins, trailing slashes, a body that
stalls or a client that leaves mid-body, and no request payload in any log line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from leadwire.app import create_app
from leadwire.platform.db import transaction
from leadwire.platform.logging import pin_library_loggers
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import job_count
from tests.support.lifespan import app_lifespan

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
MARKER = "PAYLOAD-MARKER-7f3a"


async def test_nul_in_a_body_field_is_invalid_request_with_no_job(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create(credits=10)
    for body, param in (
        ({"message": "a\u0000b"}, "message"),
        ({"message": "ok", "extra": {"nested": ["x", "\u0000"]}}, "extra.nested.1"),
        ({"message": "ok", "key\u0000": 1}, "key\u0000"),
    ):
        response = await client.post("/api/v2/test/echo", json=body, headers=acct.headers)
        assert_error(response, 400, "invalid_request", param=param)
    assert await job_count(runtime) == 0
    # The escape as text (a backslash, then u0000) is ordinary text.
    assert_ok(await client.post("/api/v2/test/echo", json={"message": "\\u0000"}, headers=acct.headers), 202)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/v2/jobs/%00"),
        ("POST", "/api/v2/jobs/%00/cancel"),
        ("GET", "/api/v2/jobs/job_%00x"),
        ("GET", "/api/v2/connect/accounts?can_send=%00"),
    ],
)
async def test_nul_in_the_path_or_query_is_invalid_request(
    client: httpx.AsyncClient, accounts: AccountFactory, method: str, path: str
) -> None:
    acct = await accounts.create()
    assert_error(await client.request(method, path, headers=acct.headers), 400, "invalid_request")


def _header_bytes(value: str) -> bytes:
    """Header bytes are read as Latin-1: "²" arrives as itself, characters beyond it as UTF-8 bytes."""
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:
        return value.encode()


@pytest.mark.parametrize("value", ["wait=²", "wait=١٢", "wait=\uff15", "wait=1e3", "wait=-1"])
async def test_prefer_wait_takes_ascii_digits_only(
    client: httpx.AsyncClient, accounts: AccountFactory, value: str
) -> None:
    acct = await accounts.create(credits=10)
    response = await client.post(
        "/api/v2/test/echo",
        json={"sleep": 0.0},
        headers={**acct.headers, "Prefer": _header_bytes(value)},
    )
    assert_ok(response, 202)
    assert "preference-applied" not in response.headers


async def _chunks(total: int, size: int = 64 * 1024) -> AsyncIterator[bytes]:
    yield b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"pad": "'
    sent = 0
    while sent < total:
        yield b"x" * size
        sent += size
    yield b'"}}'


async def test_chunked_mcp_body_over_the_limit_is_413_envelope(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    response = await client.post(
        "/mcp/", content=_chunks(2 * 1024 * 1024), headers={**acct.headers, **MCP_HEADERS}
    )
    assert "content-length" not in response.request.headers  # really chunked
    assert_error(response, 413, "request_payload_too_large")


async def test_mcp_refuses_nul_foreign_origins_and_other_content_types_with_envelopes(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "get_job", "arguments": {"job_id": "\u0000"}},
    }
    headers = {**acct.headers, **MCP_HEADERS}
    assert_error(await client.post("/mcp/", json=call, headers=headers), 400, "invalid_request")
    foreign = {**headers, "Origin": "http://evil.example"}
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    assert_error(
        await client.post("/mcp/", json=listing, headers=foreign), 403, "permission_denied", param="Origin"
    )
    plain = {**headers, "Content-Type": "text/plain"}
    response = await client.post("/mcp/", content=b"{}", headers=plain)
    assert_error(response, 400, "invalid_request", param="Content-Type")


async def test_mcp_without_the_trailing_slash_is_served_not_redirected(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    response = await client.post(
        "/mcp", json=listing, headers={**acct.headers, **MCP_HEADERS, "Host": "leadwire.test"}
    )
    assert response.status_code == 200, response.text
    assert "location" not in response.headers
    assert response.json()["result"]["tools"]


@pytest.mark.parametrize("method", ["GET", "POST"])
async def test_a_trailing_slash_is_404_not_found_never_a_redirect(
    client: httpx.AsyncClient, accounts: AccountFactory, method: str
) -> None:
    acct = await accounts.create(credits=10)
    path = "/api/v2/credits/" if method == "GET" else "/api/v2/test/echo/"
    response = await client.request(method, path, headers=acct.headers, json={} if method == "POST" else None)
    assert_error(response, 404, "not_found")
    assert "location" not in response.headers


async def test_a_host_outside_the_allowed_hosts_is_refused_but_health_answers(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    evil = {**acct.headers, "Host": "evil.example"}
    assert_error(await client.get("/api/v2/credits", headers=evil), 400, "invalid_request", param="Host")
    assert_error(await client.post("/mcp", json={}, headers=evil), 400, "invalid_request", param="Host")
    assert (await client.get("/healthz", headers={"Host": "10.1.2.3:8000"})).status_code == 200
    assert_ok(await client.get("/api/v2/credits", headers={**acct.headers, "Host": "localhost:8000"}))


async def test_every_response_carries_the_security_headers(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    for response in (
        await client.get("/api/v2/credits", headers=acct.headers),
        await client.get("/api/v2/nowhere"),
        await client.get("/healthz"),
    ):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["cache-control"] == "no-store"
        assert "default-src 'none'" in response.headers["content-security-policy"]
    docs_csp = (await client.get("/docs")).headers["content-security-policy"]
    assert "script-src 'self'" in docs_csp  # the page loads its own assets (tests/platform/test_docs_pages)


async def test_metrics_are_closed_unless_a_token_is_set_or_the_operator_opens_them(runtime: Runtime) -> None:
    app = create_app(runtime=runtime)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with (
        app_lifespan(app),
        httpx.AsyncClient(transport=transport, base_url="http://leadwire.test") as http,
    ):
        closed = await http.get("/metrics")
        runtime.settings = runtime.settings.model_copy(update={"metrics_public": True})
        opened = await http.get("/metrics")
    assert_error(closed, 401, "api_key_missing")
    assert "LEADWIRE_METRICS_PUBLIC" in closed.json()["error"]["detail"]
    assert opened.status_code == 200 and "leadwire_http_requests_total" in opened.text


async def test_metrics_need_the_token_when_one_is_configured(runtime: Runtime) -> None:
    runtime.settings = runtime.settings.model_copy(update={"metrics_token": "s3cret-token"})
    app = create_app(runtime=runtime)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with (
        app_lifespan(app),
        httpx.AsyncClient(transport=transport, base_url="http://leadwire.test") as http,
    ):
        assert_error(await http.get("/metrics"), 401, "api_key_missing")
        assert_error(
            await http.get("/metrics", headers={"Authorization": "Bearer nope"}), 401, "api_key_invalid"
        )
        response = await http.get("/metrics", headers={"Authorization": "Bearer s3cret-token"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert "leadwire_http_requests_total" in response.text


async def _asgi_call(app: Any, scope: dict[str, Any], messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drive the ASGI app directly: `messages` are what the client sends, then it waits forever."""
    sent: list[dict[str, Any]] = []
    pending = list(messages)

    async def receive() -> dict[str, Any]:
        if pending:
            return pending.pop(0)
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async with app_lifespan(app):
        await app(scope, receive, send)
    return sent


def _scope(path: str, headers: dict[str, str]) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (k.lower().encode(), v.encode()) for k, v in {"host": "leadwire.test", **headers}.items()
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("leadwire.test", 80),
    }


async def test_a_body_that_stalls_gets_408_and_no_job(runtime: Runtime, accounts: AccountFactory) -> None:
    runtime.settings = runtime.settings.model_copy(update={"body_timeout_seconds": 0.2})
    acct = await accounts.create(credits=10)
    app = create_app(runtime=runtime)
    headers = {**acct.headers, "content-type": "application/json"}
    sent = await _asgi_call(
        app,
        _scope("/api/v2/test/echo", headers),
        [{"type": "http.request", "body": b'{"mess', "more_body": True}],
    )
    assert sent[0]["status"] == 408
    assert b'"request_timeout"' in sent[1]["body"]
    assert await job_count(runtime) == 0


async def test_a_client_that_leaves_mid_body_is_logged_as_such_not_as_500(
    runtime: Runtime, accounts: AccountFactory, caplog: pytest.LogCaptureFixture
) -> None:
    acct = await accounts.create(credits=10)
    app = create_app(runtime=runtime)
    caplog.set_level(logging.INFO)
    headers = {**acct.headers, "content-type": "application/json"}
    sent = await _asgi_call(
        app,
        _scope("/api/v2/test/echo", headers),
        [{"type": "http.request", "body": b'{"mess', "more_body": True}, {"type": "http.disconnect"}],
    )
    assert not any(m.get("status") == 500 for m in sent)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    access = [r for r in caplog.records if r.name == "leadwire.access"]
    assert [getattr(r, "status", None) for r in access] == [499]
    assert await job_count(runtime) == 0


async def test_database_errors_never_carry_statement_parameters(runtime: Runtime) -> None:
    with pytest.raises(Exception) as caught:
        async with transaction(runtime.sessionmaker) as session:
            await session.execute(text("INSERT INTO no_such_table (a) VALUES (:value)"), {"value": MARKER})
    assert MARKER not in str(caught.value)


async def test_no_log_line_carries_a_request_payload(
    client: httpx.AsyncClient, accounts: AccountFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A hostile-input run with a marker in every body, query and header value: no log line shows it."""
    acct = await accounts.create(credits=10)
    pin_library_loggers()  # as `leadwire serve` configures logging, even at LEADWIRE_LOG_LEVEL=debug
    caplog.set_level(logging.DEBUG)
    headers = {**acct.headers, "Idempotency-Key": MARKER}
    bodies: list[Any] = [
        {"message": MARKER},
        {"message": MARKER, "units": MARKER},
        {"message": MARKER + "\u0000"},
        {"message": MARKER, "fail": "raise"},
        [MARKER],
        MARKER,
    ]
    for body in bodies:
        await client.post("/api/v2/test/echo", json=body, headers=headers)
        await client.post(
            "/api/v2/test/echo", json=body, headers={**acct.headers, "Prefer": f"wait=1,{MARKER}"}
        )
    await client.post(
        "/api/v2/test/echo",
        content=MARKER.encode(),
        headers={**acct.headers, "content-type": "application/json"},
    )
    await client.get(f"/api/v2/jobs/{MARKER}", headers=acct.headers)
    await client.get(f"/api/v2/connect/accounts?can_send={MARKER}", headers=acct.headers)
    await client.get("/api/v2/credits", headers={"Authorization": f"Bearer lw_live_{MARKER}"})
    await client.post(
        "/mcp/",
        json={"jsonrpc": "2.0", "id": 1, "method": MARKER, "params": {"x": MARKER}},
        headers={**acct.headers, **MCP_HEADERS},
    )
    await client.get("/api/v2/test/boom", headers=acct.headers)
    assert caplog.records  # the run did log (access lines, the boom's traceback)
    for record in caplog.records:
        if record.name.startswith(("httpx", "httpcore")):
            continue  # the test's own HTTP client
        line = record.getMessage() + (
            logging.Formatter().formatException(record.exc_info) if record.exc_info else ""
        )
        assert MARKER not in line, line


def nested(depth: int, leaf: str = "\u0000") -> str:
    """A body nesting arrays ``depth`` deep around ``leaf`` (NUL by default)."""
    return '{"message": "ok", "a": ' + "[" * depth + f'"{leaf}"' + "]" * depth + "}"


@pytest.mark.parametrize("leaf", ["\\u0000", "x"])
@pytest.mark.parametrize("depth", [300, 1000, 5000])
@pytest.mark.parametrize("idempotent", [False, True])
async def test_a_body_nested_past_the_limit_is_invalid_request_before_any_walk(
    client: httpx.AsyncClient,
    accounts: AccountFactory,
    runtime: Runtime,
    leaf: str,
    depth: int,
    idempotent: bool,
) -> None:
    """1,000 levels with NUL at the bottom once raised RecursionError in the NUL check: a 500. With an
    Idempotency-Key, 300 levels once failed writing its fingerprint (orjson writes 254): a 500 too.
    Past orjson's 1,024 levels the parser stops: still the depth rule, not "malformed"."""
    acct = await accounts.create(credits=10)
    headers = {**acct.headers, "Content-Type": "application/json"}
    if idempotent:
        headers["Idempotency-Key"] = f"deep-{depth}-{leaf}"
    response = await client.post("/api/v2/test/echo", content=nested(depth, leaf), headers=headers)
    assert_error(response, 400, "invalid_request")
    assert "nested deeper" in response.json()["error"]["detail"]
    shallow = await client.post("/api/v2/test/echo", content=nested(20, "x"), headers=headers)
    assert_ok(shallow, 202)
    assert await job_count(runtime) == 1


async def test_mcp_refuses_a_deeply_nested_body_without_a_key_as_400(client: httpx.AsyncClient) -> None:
    body = '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"a": ' + "[" * 1000
    body += '"\\u0000"' + "]" * 1000 + "}}"
    response = await client.post("/mcp/", content=body, headers=MCP_HEADERS)
    assert_error(response, 400, "invalid_request")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v2/websets?cursor=a.%C3%A9",
        "/api/v2/websets?cursor=%C3%A9.%C3%A9",
        "/api/v2/websets?cursor=%F0%9F%98%80.abc",
    ],
)
async def test_a_cursor_with_non_ascii_characters_is_invalid_request(
    client: httpx.AsyncClient, accounts: AccountFactory, path: str
) -> None:
    """compare_digest takes only ASCII text: a hand-edited cursor once raised TypeError, a 500."""
    acct = await accounts.create()
    assert_error(await client.get(path, headers=acct.headers), 400, "invalid_request", param="cursor")
