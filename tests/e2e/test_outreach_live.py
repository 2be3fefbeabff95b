"""Outreach on a live `leadwire serve --no-build-world` process (one server for the module): the official
MCP Python client calling `dispatch_outreach` with the demo key, the sync SDK's `dispatch`, and
`leadwire outreach like` talking to the server."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from leadwire.client import Leadwire, LeadwireError
from leadwire.providers.sandbox_channels import Outbox
from tests.support.processes import LEADWIRE, free_port, leadwire_process, process_env, wait_ready

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class LiveServer:
    base: str
    key: str
    data_dir: Path
    env: dict[str, str]

    @property
    def cli_env(self) -> dict[str, str]:
        return {**self.env, "LEADWIRE_API_URL": self.base, "LEADWIRE_API_KEY": self.key}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("outreach-live")
    data_dir = root / "var"
    port = free_port()
    env = process_env(data_dir, LEADWIRE_PORT=str(port))
    base = f"http://127.0.0.1:{port}"
    log = root / "serve.log"
    with leadwire_process(["serve", "--no-build-world"], env, log) as process:
        wait_ready(base, process, log)
        key = (data_dir / "demo-api-key").read_text().strip()
        yield LiveServer(base=base, key=key, data_dir=data_dir, env=env)


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content if getattr(block, "type", None) == "text")


async def test_official_mcp_client_dispatches_an_email_with_the_demo_key(server: LiveServer) -> None:
    headers = {"Authorization": f"Bearer {server.key}"}
    timeout = httpx2.Timeout(30.0, read=60.0)
    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout) as http,
        streamable_http_client(f"{server.base}/mcp/", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        info = await session.initialize()
        assert info.server_info.name == "leadwire"
        tools = {tool.name for tool in (await session.list_tools()).tools}
        assert {"dispatch_outreach", "like_linkedin_post", "list_accounts"} <= tools

        listed = await session.call_tool("list_accounts", {"can_send": True})
        assert not listed.is_error, text_of(listed)
        accounts = listed.structured_content["result"]
        email_account = next(a for a in accounts if a["channel"] == "email" and a["provider"] == "sandbox")

        sent = await session.call_tool(
            "dispatch_outreach",
            {
                "account_id": email_account["account_id"],
                "channel": "email",
                "recipient": {"address": "grace@navy.example", "name": "Grace Hopper"},
                "content": {"subject": "Over MCP", "text": "Sent by the official client."},
                "metadata": {"via": "mcp"},
                "wait_seconds": 20,
            },
        )
        assert not sent.is_error, text_of(sent)
        job = sent.structured_content
        assert (job["status"], job["action"], job["channel"]) == ("succeeded", "outreach.dispatch", "email")
        assert job["result"]["recipient"] == "grace@navy.example" and job["metadata"] == {"via": "mcp"}

        refused = await session.call_tool(
            "dispatch_outreach",
            {
                "account_id": email_account["account_id"],
                "channel": "email",
                "recipient": {"address": "grace@navy.example"},
                "content": {"text": "no subject"},
            },
        )
        assert refused.is_error is True
        assert text_of(refused).endswith("content_subject_required: content.subject")

        polled = await session.call_tool("get_job", {"job_id": job["id"]})
        assert polled.structured_content["status"] == "succeeded"
    delivered = [r for r in Outbox(server.data_dir).read("email") if r["subject"] == "Over MCP"]
    assert len(delivered) == 1 and delivered[0]["recipient"]["address"] == "grace@navy.example"


def test_sync_sdk_dispatch_waits_for_the_delivered_job_and_refuses_with_leadwire_error(
    server: LiveServer,
) -> None:
    with Leadwire(server.key, server.base) as sdk:
        whatsapp = next(a for a in sdk.accounts(can_send=True) if a["channel"] == "whatsapp")["account_id"]
        job = sdk.dispatch(
            whatsapp, "whatsapp", {"phone": "+4915123456789"}, {"text": "Hallo from the SDK"}, wait=20
        )
        assert (job["status"], job["action"], job["channel"]) == (
            "succeeded",
            "outreach.dispatch",
            "whatsapp",
        )
        assert job["result"]["recipient"] == "+4915123456789"
        assert sdk.outreach_job(job["id"])["status"] == "succeeded"
        with pytest.raises(LeadwireError) as caught:
            sdk.dispatch(whatsapp, "whatsapp", {"phone": "not a number"}, {"text": "x"}, version="v1")
        assert (caught.value.status, caught.value.code, caught.value.param) == (
            400,
            "invalid_request",
            "recipient.phone",
        )
    (record,) = [r for r in Outbox(server.data_dir).read("whatsapp") if r["text"] == "Hallo from the SDK"]
    assert record["recipient"] == {"phone": "+4915123456789"}


def like(server: LiveServer, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LEADWIRE, "outreach", "like", *args], env=server.cli_env, capture_output=True, text=True, timeout=60
    )


def test_cli_like_with_an_invalid_profile_url_exits_1_with_the_status_and_code(server: LiveServer) -> None:
    refused = like(server, "--profile", "https://example.com/in/ada", "--topic", "robotics")
    assert refused.returncode == 1, refused.stdout
    assert "400 invalid_profile_url" in refused.stderr and "(profile_url)" in refused.stderr
    assert refused.stdout == ""
    blank = like(server, "--profile", "https://www.linkedin.com/in/ada-lovelace", "--topic", "  ")
    assert blank.returncode == 1 and "400 content_required" in blank.stderr
    old_api = like(server, "--profile", "linkedin.com/company/acme", "--topic", "x", "--api-version", "v1")
    assert old_api.returncode == 1 and "400 invalid_profile_url" in old_api.stderr


def test_cli_like_prints_the_queued_job_and_json_on_request(server: LiveServer) -> None:
    done = like(server, "--profile", "https://www.linkedin.com/in/ada-lovelace", "--topic", "robotics")
    assert done.returncode == 0, done.stderr
    first_line = done.stdout.splitlines()[0]
    assert first_line.startswith("job job_") and first_line.endswith("outreach.linkedin.post_like  queued")
    assert "channel      linkedin" in done.stdout

    as_json = like(server, "--profile", "https://www.linkedin.com/in/ada-lovelace", "--topic", "ai", "--json")
    assert as_json.returncode == 0, as_json.stderr
    item = json.loads(as_json.stdout)
    assert (item["status"], item["action"], item["channel"]) == (
        "queued",
        "outreach.linkedin.post_like",
        "linkedin",
    )
