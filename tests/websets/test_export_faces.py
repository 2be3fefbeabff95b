"""The export on the SDK (sync and async), the CLI and MCP, against a served app: the same bytes as the
REST export, errors as LeadwireError or exit 1, and a file left behind only when it is whole."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner, Result

from leadwire.app import create_app
from leadwire.cli import app as cli
from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from leadwire.platform.runtime import Runtime
from leadwire.websets import export, mcp
from tests.mcp.test_mcp_server import call, error_code
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_ok
from tests.support.jobs import running_worker
from tests.support.lifespan import served
from tests.websets.conftest import create_webset, wait_finished


async def _finished_list(http: httpx.AsyncClient, runtime: Runtime, acct: TestAccount) -> str:
    async with running_worker(runtime):
        webset_id = str(
            (await create_webset(http, acct.headers, query="Swiss chemical companies"))["webset"]["id"]
        )
        await wait_finished(http, acct.headers, webset_id)
    return webset_id


def _cli(base: str, key: str, *args: str) -> Result:
    env = {"LEADWIRE_API_URL": base, "LEADWIRE_API_KEY": key}
    return CliRunner().invoke(cli, ["websets", "export", *args], env=env)


async def test_the_sdk_and_the_cli_export_the_bytes_rest_serves(
    pool_runtime: Runtime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "PAGE_ROWS", 7)  # several chunks
    acct = await AccountFactory(pool_runtime).create(credits=200)
    key = acct.headers["Authorization"].removeprefix("Bearer ")
    async with (
        served(create_app(runtime=pool_runtime)) as base,
        httpx.AsyncClient(base_url=base, timeout=30) as http,
    ):
        webset_id = await _finished_list(http, pool_runtime, acct)
        rest = {
            form: (
                await http.get(
                    f"/api/v2/websets/{webset_id}/export", params={"format": form}, headers=acct.headers
                )
            ).content
            for form in ("csv", "jsonl")
        }

        def sync_export() -> bytes:
            with Leadwire(key, base) as lw:
                return b"".join(lw.export_webset(webset_id))

        async with AsyncLeadwire(key, base) as alw:
            async_jsonl = b"".join([c async for c in alw.export_webset(webset_id, format="jsonl")])
        sync_csv = await asyncio.to_thread(sync_export)
        printed = await asyncio.to_thread(_cli, base, key, webset_id, "--format", "jsonl")
        written = await asyncio.to_thread(_cli, base, key, webset_id, "--output", str(tmp_path / "list.csv"))
        missing = await asyncio.to_thread(
            _cli, base, key, "ws_nothing", "--output", str(tmp_path / "gone.csv")
        )
        with pytest.raises(LeadwireError) as raised:
            async with AsyncLeadwire(key, base) as alw:
                [c async for c in alw.export_webset("ws_nothing")]
    assert rest["csv"].count(b"\r\n") == 26 and len(rest["jsonl"].splitlines()) == 25
    assert sync_csv == rest["csv"] and async_jsonl == rest["jsonl"]
    assert printed.exit_code == 0 and printed.stdout_bytes == rest["jsonl"]
    assert written.exit_code == 0 and (tmp_path / "list.csv").read_bytes() == rest["csv"]
    assert missing.exit_code == 1 and "404 webset_not_found" in missing.stderr
    assert not list(tmp_path.glob("gone.csv*"))
    assert raised.value.status == 404 and raised.value.code == "webset_not_found"


async def test_a_download_cut_short_raises_network_error_and_leaves_no_file(
    pool_runtime: Runtime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    key = acct.headers["Authorization"].removeprefix("Bearer ")
    async with (
        served(create_app(runtime=pool_runtime)) as base,
        httpx.AsyncClient(base_url=base, timeout=30) as http,
    ):
        webset_id = await _finished_list(http, pool_runtime, acct)
        monkeypatch.setattr(export, "PAGE_ROWS", 4)
        real_page, calls = export._page, []

        async def failing_third_page(*args: Any) -> Any:
            calls.append(args)
            if len(calls) % 3 == 0:
                raise RuntimeError("the database went away")
            return await real_page(*args)

        monkeypatch.setattr(export, "_page", failing_third_page)
        with pytest.raises(LeadwireError) as raised:
            async with AsyncLeadwire(key, base, max_retries=0) as alw:
                [c async for c in alw.export_webset(webset_id)]
        cut = await asyncio.to_thread(_cli, base, key, webset_id, "--output", str(tmp_path / "list.csv"))
    assert raised.value.code == "network_error" and "RemoteProtocolError" in str(raised.value.cause)
    assert cut.exit_code == 1 and "network_error" in cut.stderr
    assert not list(tmp_path.glob("list.csv*"))


async def test_the_mcp_tool_returns_the_export_s_text_up_to_its_bound(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    async with running_worker(pool_runtime):
        webset_id = str(
            (await create_webset(pool_client, acct.headers, query="Swiss chemical companies"))["webset"]["id"]
        )
        await wait_finished(pool_client, acct.headers, webset_id)
    rest = await pool_client.get(f"/api/v2/websets/{webset_id}/export", headers=acct.headers)
    whole = await call(pool_client, acct.headers, "export_webset", webset_id=webset_id)
    monkeypatch.setattr(mcp, "MCP_EXPORT_ITEMS", 10)
    monkeypatch.setattr(export, "PAGE_ROWS", 4)
    bounded = await call(pool_client, acct.headers, "export_webset", webset_id=webset_id, format="jsonl")
    unknown = await call(pool_client, acct.headers, "export_webset", webset_id="ws_nothing")
    bad = await call(pool_client, acct.headers, "export_webset", webset_id=webset_id, format="xlsx")
    full = whole["structuredContent"]
    assert full["items"] == 25 and not full["truncated"] and full["content"].encode() == rest.content
    first = bounded["structuredContent"]
    assert first["items"] == 10 and first["truncated"] and len(first["content"].splitlines()) == 10
    assert error_code(unknown) == "webset_not_found" and error_code(bad) == "invalid_request"
    assert_ok(await pool_client.get("/api/v2/credits", headers=acct.headers))
