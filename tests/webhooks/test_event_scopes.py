"""Events carry what their receiver may read: a job event holds the job's result only for a webhook (or
a `webhooks/stream`) whose key reads the job's capability, else the job's id, action, status and
billing; a webhook whose registering key was revoked or expired, or narrowed, reads no more than it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import httpx
import orjson
import pytest
from standardwebhooks.webhooks import WebhookVerificationError

from leadwire.config import Settings
from leadwire.platform.http.auth import caller_for_digest
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.platform.users import digest_key
from leadwire.webhooks import listen
from leadwire.webhooks.outbox import readable_scopes
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import running_worker
from tests.support.receiver import receiving
from tests.webhooks.conftest import HOOKS_ONLY, delivering, echo_result, register, verified
from tests.websets.conftest import create_webset, wait_finished

BRIEF = {"id", "action", "status", "billing"}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return delivering(settings)


async def test_a_webhook_whose_key_cannot_read_the_job_gets_its_id_action_status_and_billing(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    narrow = await accounts.key(acct.user_id, scopes=HOOKS_ONLY)
    async with receiving() as receiver, running_worker(runtime):
        whole = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        brief = await register(client, narrow.headers, receiver.url, ["job.succeeded"])
        job = await echo_result(client, acct.headers, "a secret result")
        received = await receiver.wait_for(2)
    by_hook = {}
    for r in received:
        for hook in (whole, brief):
            with contextlib.suppress(WebhookVerificationError):
                by_hook[hook["id"]] = verified(r, hook["secret"])
    full, short = by_hook[whole["id"]], by_hook[brief["id"]]
    assert full["id"] == short["id"] and full["type"] == short["type"] == "job.succeeded"
    assert full["data"]["result"]["message"] == "a secret result"
    assert short["data"] == {
        "id": job["id"],
        "action": job["action"],
        "status": "succeeded",
        "billing": job["billing"],
    }
    # The narrow key itself is refused the job: the event tells it no more than that refusal.
    refused = await client.get(f"/api/v2/jobs/{job['id']}", headers=narrow.headers)
    assert refused.status_code == 403


async def test_a_webhook_whose_registering_key_was_revoked_gets_briefs(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    registrar = await accounts.key(acct.user_id)
    async with receiving() as receiver, running_worker(runtime):
        hook = await register(client, registrar.headers, receiver.url, ["job.succeeded"])
        assert_ok(await client.post(f"/api/v2/keys/{registrar.key_id}/revoke", headers=acct.headers))
        job = await echo_result(client, acct.headers, "kept from a revoked key")
        (received,) = await receiver.wait_for(1)
    event = verified(received, hook["secret"])
    assert set(event["data"]) == BRIEF and event["data"]["id"] == job["id"]


async def test_a_webhook_whose_key_cannot_read_lists_is_told_which_list_ended_and_nothing_it_holds(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    accounts = AccountFactory(world_runtime)
    acct = await accounts.create()
    narrow = await accounts.key(acct.user_id, scopes=HOOKS_ONLY)
    async with receiving() as receiver, running_worker(world_runtime):
        whole = await register(world_client, acct.headers, receiver.url, ["webset.completed"])
        brief = await register(world_client, narrow.headers, receiver.url, ["webset.completed"])
        created = await create_webset(world_client, acct.headers, query="software companies", count=25)
        webset = await wait_finished(world_client, acct.headers, created["webset"]["id"])
        received = await receiver.wait_for(2)
    by_hook = {}
    for r in received:
        for hook in (whole, brief):
            with contextlib.suppress(WebhookVerificationError):
                by_hook[hook["id"]] = verified(r, hook["secret"])
    full, short = by_hook[whole["id"]]["data"], by_hook[brief["id"]]["data"]
    assert full["id"] == webset["id"] and full["status"] == "completed" and set(full) > set(short)
    assert short == {"id": webset["id"], "status": "completed", "job_id": full["job_id"], "run": full["run"]}


def test_what_a_webhook_reads_is_its_key_scopes_narrowed_to_the_key_as_it_stands() -> None:
    now = utcnow()

    def hook(*, creator_key_id: str | None = "key_1", gone: bool = False, **key: Any) -> SimpleNamespace:
        """A row of the outbox's query: the webhook's columns and its registering key (None: gone)."""
        fields = {"scopes": ["research:read", "webhooks:write"], "revoked_at": None, "expires_at": None}
        api_key = None if gone else SimpleNamespace(**(fields | key))
        return SimpleNamespace(creator_key_id=creator_key_id, scopes=fields["scopes"], ApiKey=api_key)

    assert readable_scopes(hook(), now) == {"research:read", "webhooks:write"}
    assert readable_scopes(hook(scopes=["webhooks:write"]), now) == {"webhooks:write"}
    assert readable_scopes(hook(revoked_at=now), now) == frozenset()
    assert readable_scopes(hook(expires_at=now - timedelta(seconds=1)), now) == frozenset()
    assert readable_scopes(hook(expires_at=now + timedelta(days=1)), now) == {
        "research:read",
        "webhooks:write",
    }
    assert readable_scopes(hook(gone=True), now) == frozenset()  # the key is gone
    assert readable_scopes(hook(creator_key_id=None), now) is None  # registered before keys were recorded


async def test_the_stream_of_a_key_that_cannot_read_the_job_gets_its_brief(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    narrow = await accounts.key(acct.user_id, scopes=HOOKS_ONLY)
    streams = {}
    for key in (acct, narrow):
        caller = await caller_for_digest(runtime, digest_key(key.key))
        assert caller is not None
        streams[key.key_id] = _messages(runtime, caller)
    try:
        for messages in streams.values():
            assert (await anext(messages))["event"] == "ready"
        async with running_worker(runtime):
            job = await echo_result(client, acct.headers, "streamed")
            full, short = [
                await asyncio.wait_for(anext(m), timeout=15)
                for m in (streams[acct.key_id], streams[narrow.key_id])
            ]
    finally:
        for messages in streams.values():
            await messages.aclose()
    assert full["data"]["result"]["message"] == "streamed"
    assert short["data"] == {
        "id": job["id"],
        "action": job["action"],
        "status": "succeeded",
        "billing": job["billing"],
    }


async def _messages(runtime: Runtime, caller: Any) -> AsyncGenerator[dict[str, Any]]:
    """The stream's events (`ready`, then each event's body as sent), as `leadwire webhooks listen` reads
    them."""

    async def allowed() -> bool:
        return True

    async for sent in listen.stream(runtime, caller, ["job.succeeded"], allowed):
        data = orjson.loads(str(sent.data))
        yield {"event": sent.event, **(orjson.loads(data["body"]) if sent.event == "webhook" else data)}
