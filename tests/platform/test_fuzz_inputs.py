"""No input produces a 5xx or a framework error: arbitrary JSON bodies, content types, Prefer and
Idempotency-Key headers, path ids, list limits of digits beyond ASCII and monitors' cron expressions
against every route, checked for the envelope (Hypothesis)."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.runtime import build_runtime
from tests.support.accounts import AccountFactory
from tests.support.fuzzing import (
    PAGED_LISTS,
    cron_text,
    deep_json,
    examples,
    hostile_text,
    number_text,
    time_zones,
)
from tests.support.lifespan import app_lifespan

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=40)
    | hostile_text,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=12,
)
FIELDS = [
    "query",
    "count",
    "criteria",
    "account_id",
    "channel",
    "recipient",
    "profile_url",
    "content",
    "queries",
    "search_limit",
    "category",
    "include_domains",
    "user_location",
    "domain",
    "positions",
    "limit",
    "locale",
    "message",
    "sleep",
    "units",
]
bodies = st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6) | json_values
POSTS = ["/api/v2/research/public-web", "/api/v2/research/contacts", "/api/v2/jobs/job_x/cancel"]
GETS = [
    "/api/v2/jobs/{id}",
    "/api/v1/outreach/jobs/{id}",
    "/api/v2/connect/accounts?can_send={id}",
    "/api/v2/credits",
    "/api/v2/nowhere/{id}",
    "/api/v2/websets?cursor={id}",
    "/api/v2/websets/ws_x/items?cursor={id}",
]
header_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


def _assert_envelope(response: httpx.Response) -> None:
    assert response.status_code < 500, (response.status_code, response.text)
    body = response.json()
    assert body["ok"] in (True, False)
    if body["ok"] is False:
        assert body["error"]["code"] == body["error"]["message"]
        assert body["error"]["request_id"] == response.headers["x-request-id"]


@pytest.fixture
def fuzz_settings(settings: Settings) -> Settings:
    return settings


def test_arbitrary_inputs_never_produce_a_server_error(fuzz_settings: Settings) -> None:
    loop = asyncio.new_event_loop()

    async def setup() -> tuple[Any, httpx.AsyncClient, dict[str, str], Any, str, str]:
        runtime = await build_runtime(fuzz_settings)
        app = create_app(runtime=runtime)
        lifespan = app_lifespan(app)
        await lifespan.__aenter__()
        acct = await AccountFactory(runtime).create(credits=10_000)
        http = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, raise_app_exceptions=False),
            base_url="http://leadwire.test",
        )
        made = await http.post("/api/v2/websets", json={"query": "software companies"}, headers=acct.headers)
        webset_id = made.json()["item"]["webset"]["id"]
        weekly = {"webset_id": webset_id, "cadence": {"cron": "0 9 * * 1"}}
        monitor_id = (await http.post("/api/v2/monitors", json=weekly, headers=acct.headers)).json()["item"][
            "id"
        ]
        return runtime, http, acct.headers, lifespan, webset_id, monitor_id

    runtime, http, headers, lifespan, webset_id, monitor_id = loop.run_until_complete(setup())

    @settings(max_examples=examples(150))
    @given(
        path=st.sampled_from(POSTS),
        body=bodies,
        content_type=st.sampled_from(
            [
                "application/json",
                "application/json; charset=utf-8",
                "text/plain",
                "application/x-www-form-urlencoded",
            ]
        ),
        prefer=st.none() | header_text,
        key=st.none() | header_text,
        raw=st.booleans(),
    )
    def post(path: str, body: Any, content_type: str, prefer: str | None, key: str | None, raw: bool) -> None:
        extra = {"Content-Type": content_type}
        if prefer is not None:
            extra["Prefer"] = prefer
        if key is not None:
            extra["Idempotency-Key"] = key
        encoded = json.dumps(body).encode()  # stdlib: integers beyond 64 bits too
        content = encoded[:-1] if raw else encoded  # raw: truncated, broken JSON
        response = loop.run_until_complete(http.post(path, content=content, headers={**headers, **extra}))
        _assert_envelope(response)

    @settings(max_examples=examples(60))
    @given(path=st.sampled_from(GETS), value=header_text | hostile_text)
    def get(path: str, value: str) -> None:
        url = path.replace("{id}", quote(value, safe=""))  # non-ASCII arrives as percent-encoded UTF-8
        _assert_envelope(loop.run_until_complete(http.get(url, headers=headers)))

    @settings(max_examples=examples(60))
    @given(path=st.sampled_from(PAGED_LISTS), value=number_text | header_text)
    def limits(path: str, value: str) -> None:
        url = f"{path}?limit={quote(value, safe='')}"
        _assert_envelope(loop.run_until_complete(http.get(url, headers=headers)))

    @settings(max_examples=examples(60))
    @given(cron=cron_text, zone=time_zones, change=st.booleans())
    def crons(cron: str, zone: str, change: bool) -> None:
        cadence = {"cron": cron, "timezone": zone}
        sent = (
            http.patch(f"/api/v2/monitors/{monitor_id}", json={"cadence": cadence}, headers=headers)
            if change
            else http.post(
                "/api/v2/monitors", json={"webset_id": webset_id, "cadence": cadence}, headers=headers
            )
        )
        _assert_envelope(loop.run_until_complete(sent))

    rpc_methods = st.sampled_from(["initialize", "tools/list", "tools/call", "ping", "nowhere"])
    rpc_bodies = st.fixed_dictionaries(
        {"jsonrpc": st.just("2.0"), "id": st.integers(0, 9) | hostile_text, "method": rpc_methods},
        optional={"params": json_values | deep_json},
    )

    @settings(max_examples=examples(60))
    @given(body=rpc_bodies | bodies, keyed=st.booleans())
    def mcp(body: Any, keyed: bool) -> None:
        """MCP answers JSON-RPC, not the envelope: never a 5xx, always JSON, with or without a key."""
        mcp_headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        if keyed:
            mcp_headers.update(headers)
        response = loop.run_until_complete(http.post("/mcp/", content=json.dumps(body), headers=mcp_headers))
        assert response.status_code < 500, (response.status_code, response.text)
        assert response.headers["content-type"].startswith(("application/json", "text/event-stream"))

    try:
        post()
        get()
        limits()
        crons()
        mcp()
    finally:

        async def teardown() -> None:
            await http.aclose()
            await lifespan.__aexit__(None, None, None)
            await runtime.close()

        loop.run_until_complete(teardown())
        loop.close()
