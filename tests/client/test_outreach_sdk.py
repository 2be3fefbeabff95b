"""The SDK's outreach calls against the real app: dispatch on v1 and v2 with a file attachment, the
reduced item, waiting, v1's job read, and refusals as LeadwireError."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from leadwire.client import AsyncLeadwire, LeadwireError, attachment_from_file
from leadwire.platform.runtime import Runtime
from leadwire.providers.sandbox_channels import Outbox
from tests.support.accounts import AccountFactory
from tests.support.jobs import running_worker


@pytest.mark.parametrize("version", ["v1", "v2"])
async def test_dispatch_with_a_file_then_wait_for_the_job(
    app: FastAPI, runtime: Runtime, accounts: AccountFactory, tmp_path: Path, version: str
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "email")
    deck = tmp_path / "deck.pdf"
    deck.write_bytes(b"%PDF-1.4 deck")
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with AsyncLeadwire(owner.key, "http://leadwire.test", transport=transport) as sdk:
        item = await sdk.dispatch(
            account,
            "email",
            {"address": "jane@acme.example"},
            {"subject": "Deck", "text": "Attached.", "attachments": [attachment_from_file(deck)]},
            metadata={"crm_id": "L-1"},
            version=version,
        )
        assert set(item) == {"id", "status", "action", "channel", "scheduled_at"}
        async with running_worker(runtime):
            job = await sdk.wait_for(item["id"], timeout=20)
        assert job["status"] == "succeeded" and job["metadata"] == {"crm_id": "L-1"}
        assert (await sdk.outreach_job(item["id"]))["id"] == item["id"]
        with pytest.raises(LeadwireError) as caught:
            await sdk.dispatch(
                account, "email", {"address": "jane@acme.example"}, {"text": "x"}, version=version
            )
        assert (caught.value.status, caught.value.code) == (400, "content_subject_required")
    (sent,) = Outbox(runtime.settings.data_dir).read("email")
    assert sent["attachments"] == [{"filename": "deck.pdf", "content_type": "application/pdf", "bytes": 13}]


def test_an_unknown_version_is_refused_before_any_request() -> None:
    from leadwire.client import Leadwire

    with Leadwire("lw_live_x", "http://127.0.0.1:9") as sdk, pytest.raises(ValueError):
        sdk.dispatch("acct", "email", {}, {}, version="v3")


def test_a_waited_call_outlasts_its_wait_and_action_failed_is_never_retried() -> None:
    from leadwire.client.core import LeadwireError, creation, should_retry

    call = creation("/api/v1/outreach/linkedin/post-likes", {"content": "x"}, idempotency_key=None, wait=55)
    assert (
        call.request["timeout"] >= 55 + 10
        and call.headers is not None
        and call.headers["Prefer"] == "wait=55"
    )
    assert "timeout" not in creation("/p", {}, idempotency_key=None, wait=None).request
    assert should_retry(LeadwireError(502, "action_failed"), 0, 3) is None  # the v1 like failed: an answer
    assert should_retry(LeadwireError(502, "invalid_response"), 0, 3) is not None  # a proxy's 502: retry
