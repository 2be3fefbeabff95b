"""MCP over streamable HTTP at /mcp/: same keys, scopes and account-wide allowances as REST."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadwire.platform.plans import PLANS, RateLimit
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import create_echo, poll_job, running_worker

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


async def rpc(
    http: httpx.AsyncClient, headers: dict[str, str], method: str, params: dict[str, Any]
) -> httpx.Response:
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    return await http.post("/mcp/", json=body, headers={**headers, **MCP_HEADERS})


async def call(
    http: httpx.AsyncClient, headers: dict[str, str], tool: str, **arguments: Any
) -> dict[str, Any]:
    response = await rpc(http, headers, "tools/call", {"name": tool, "arguments": arguments})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()["result"]
    return result


def error_text(result: dict[str, Any]) -> str:
    assert result["isError"] is True, result
    return str(result["content"][0]["text"])


def error_code(result: dict[str, Any]) -> str:
    """The code of a tool error: its text is `Error executing tool <name>: <code>[: <param>][ — <detail>]`."""
    text = error_text(result)
    assert text.startswith("Error executing tool "), text
    return text.split(": ", 1)[1].split(" — ")[0].split(":")[0]


async def test_initialize_and_list_tools(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    init = await rpc(
        client,
        acct.headers,
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    )
    assert init.status_code == 200 and init.json()["result"]["serverInfo"]["name"] == "leadwire"
    tools = (await rpc(client, acct.headers, "tools/list", {})).json()["result"]["tools"]
    assert {t["name"] for t in tools} == {
        "get_credits",
        "list_credit_entries",
        "create_webset",
        "list_websets",
        "get_webset",
        "get_webset_strategy",
        "list_webset_items",
        "find_more_webset",
        "export_webset",
        "create_import",
        "list_imports",
        "get_import",
        "delete_import",
        "suppress_recipient",
        "list_suppressions",
        "get_suppression",
        "delete_suppression",
        "list_outreach_queue",
        "get_sending_policy",
        "set_sending_policy",
        "create_enrichment",
        "list_enrichments",
        "get_enrichment",
        "cancel_enrichment",
        "delete_enrichment",
        "create_monitor",
        "list_monitors",
        "get_monitor",
        "update_monitor",
        "delete_monitor",
        "list_monitor_runs",
        "list_accounts",
        "resume_account",
        "research_public_web",
        "research_contacts",
        "get_job",
        "cancel_job",
        "list_jobs",
        "dispatch_outreach",
        "like_linkedin_post",
        "customs_company_candidates",
        "customs_companies_search",
        "customs_counterparties",
        "customs_categories",
        "customs_trends",
        "customs_countries",
        "customs_trade_report",
        "create_webhook",
        "list_webhooks",
        "get_webhook",
        "update_webhook",
        "delete_webhook",
        "rotate_webhook_secret",
        "list_webhook_deliveries",
        "retry_webhook_delivery",
        "list_api_keys",
        "create_api_key",
        "revoke_api_key",
    }


async def test_requests_without_a_valid_key_are_refused_with_the_envelope(client: httpx.AsyncClient) -> None:
    assert_error(await rpc(client, {}, "tools/list", {}), 401, "api_key_missing")
    bad = {"Authorization": "Bearer lw_live_" + "z" * 32}
    assert_error(await rpc(client, bad, "tools/list", {}), 401, "api_key_invalid")


async def test_credits_and_accounts_match_rest(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create(credits=321)
    await accounts.connect(acct.user_id, "email")
    credits = (await call(client, acct.headers, "get_credits"))["structuredContent"]
    rest = assert_ok(await client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert {k: credits[k] for k in ("balance", "reserved", "available")} == {
        k: rest[k] for k in ("balance", "reserved", "available")
    }
    listed = await call(client, acct.headers, "list_accounts", can_send=True)
    assert listed["isError"] is False
    rest_accounts = assert_ok(await client.get("/api/v2/connect/accounts", headers=acct.headers))["items"]
    assert listed["structuredContent"]["result"] == rest_accounts


async def test_scope_and_argument_rules_are_the_rest_rules(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    reader = await accounts.key(acct.user_id, scopes=["research:read", "credits:read"])
    assert "permission_denied" in error_text(
        await call(client, reader.headers, "research_public_web", queries=["q"])
    )
    assert "invalid_domain" in error_text(
        await call(client, acct.headers, "research_contacts", domain="Acme Inc")
    )
    assert "invalid_request" in error_text(
        await call(client, acct.headers, "research_public_web", queries=["a", "b", "c"])
    )
    assert "task_not_found" in error_text(await call(client, acct.headers, "get_job", job_id="job_nope"))
    unknown = [{"source": "webset", "id": "ws_nope"}]
    excluded = await call(client, acct.headers, "create_webset", query="banks", exclude=unknown)
    assert error_code(excluded) == "exclusion_not_found"
    unknown_source = [{"source": "crm", "id": "crm_1"}]
    refused = await call(client, acct.headers, "create_webset", query="banks", exclude=unknown_source)
    assert error_code(refused) == "invalid_exclusion"
    unknown_seed = {"type": "import", "id": "imp_nope"}
    assert error_code(
        await call(client, acct.headers, "create_webset", query="banks", seed=unknown_seed)
    ) == ("webset_seed_not_found")
    bad_seed = {"type": "search", "id": "x"}
    assert error_code(await call(client, acct.headers, "create_webset", query="banks", seed=bad_seed)) == (
        "webset_seed_invalid"
    )


async def test_mcp_and_rest_share_the_account_allowance(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = PLANS["free"]
    limits = {**plan.rate_limits, "read": RateLimit(per_key=50, per_account=3, window_seconds=3600)}
    monkeypatch.setitem(PLANS, "free", dataclasses.replace(plan, rate_limits=limits))
    acct = await accounts.create(plan="free")
    other_key = await accounts.key(acct.user_id)
    for _ in range(3):
        assert_ok(await client.get("/api/v2/credits", headers=acct.headers))
    assert "api_rate_limit_exceeded" in error_text(await call(client, other_key.headers, "get_credits"))


async def test_research_tool_runs_the_job_and_returns_it(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    acct = await AccountFactory(world_runtime).create(credits=50)
    async with running_worker(world_runtime):
        result = await call(
            world_client,
            acct.headers,
            "research_public_web",
            queries=["software company"],
            search_limit=2,
            wait_seconds=20,
        )
    job = result["structuredContent"]
    assert job["status"] == "succeeded" and job["action"] == "research.public_web"
    assert job["result"]["results"][0]["sources"]
    polled = assert_ok(await world_client.get(f"/api/v2/jobs/{job['id']}", headers=acct.headers))["item"]
    assert (
        polled["id"] == job["id"]
        and polled["billing"]["charged_credits"] == job["billing"]["charged_credits"]
    )


async def test_a_research_tool_call_without_credits_is_insufficient_credits(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=0)
    rest = await client.post("/api/v2/research/public-web", json={"queries": ["q"]}, headers=acct.headers)
    assert_error(rest, 402, "insufficient_credits")
    result = await call(client, acct.headers, "research_public_web", queries=["q"], wait_seconds=0)
    assert error_code(result) == "insufficient_credits"


async def test_cancelling_a_running_job_over_mcp_is_job_already_running(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    acct = await accounts.create()
    gate, started = tmp_path / "gate", tmp_path / "started"
    body = {"block_file": str(gate), "started_file": str(started)}
    job_id = assert_ok(await create_echo(client, acct.headers, body), 202)["item"]["id"]
    async with running_worker(runtime):
        await poll_job(client, acct.headers, job_id, until=("running",))
        assert (
            error_code(await call(client, acct.headers, "cancel_job", job_id=job_id)) == "job_already_running"
        )
        gate.write_text("go")
        job = await poll_job(client, acct.headers, job_id, until=("succeeded",))
    assert job["status"] == "succeeded"


async def test_a_key_over_its_own_limit_over_mcp_is_api_key_rate_limit_exceeded(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = PLANS["free"]
    limits = {**plan.rate_limits, "read": RateLimit(per_key=2, per_account=50, window_seconds=3600)}
    monkeypatch.setitem(PLANS, "free", dataclasses.replace(plan, rate_limits=limits))
    acct = await accounts.create(plan="free")
    for _ in range(2):
        assert (await call(client, acct.headers, "get_credits"))["isError"] is False
    assert error_code(await call(client, acct.headers, "get_credits")) == "api_key_rate_limit_exceeded"
    assert_error(
        await client.get("/api/v2/credits", headers=acct.headers), 429, "api_key_rate_limit_exceeded"
    )


async def test_an_expired_or_revoked_key_on_mcp_is_its_401(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    expired = await accounts.key(acct.user_id, expires_in=timedelta(seconds=-1))
    assert_error(await rpc(client, expired.headers, "tools/list", {}), 401, "api_key_expired")
    revoked = await accounts.key(acct.user_id)
    await accounts.revoke(revoked.key_id)
    assert_error(await rpc(client, revoked.headers, "tools/list", {}), 401, "api_key_revoked")


async def test_the_get_stream_is_not_offered_to_anyone(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    """A GET once opened an SSE stream for any valid key, scope or not, held open indefinitely: a stateless
    server has nothing to send on it, so it refuses the GET (405, as the transport allows)."""
    acct = await accounts.create(scopes=[])
    sse = {"Accept": "text/event-stream"}
    for headers in ({**sse, **acct.headers}, sse):
        response = await client.get("/mcp/", headers=headers)
        assert_error(response, 405, "method_not_allowed")
        assert response.headers["allow"] == "POST, DELETE"
