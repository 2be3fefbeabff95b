"""The console's credits and webhooks pages over HTTP (SQLite and PostgreSQL): the balance beside its
ledger (a billed job's reservation and charge, filtered by kind); a webhook created from the form shows
its signing secret once, receives signed deliveries on a loopback receiver, lists them in its log, sends
one again from the Retry button and is deleted; another account's webhook is not found; a key without
the scope gets the API's refusal."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from leadwire.config import Settings
from leadwire.platform.runtime import Runtime
from tests.console.signing import csrf_of, sign_in
from tests.credits.test_ledger import billed_job
from tests.support.accounts import AccountFactory
from tests.support.jobs import create_echo, poll_job, running_worker
from tests.support.receiver import receiving
from tests.webhooks.conftest import delivering, settled_deliveries, verified

HOOK_LINK = re.compile(r'href="/console/webhooks/(wh_\w+)"')


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return delivering(settings)


async def _finished_echo(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    job = (await create_echo(client, headers, {"message": "hi"})).json()["item"]
    return await poll_job(client, headers, job["id"], until=("succeeded", "failed"))


async def test_the_credits_page_shows_the_balance_and_its_ledger(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create(credits=321)
    job_id = await billed_job(client, runtime, owner)
    await sign_in(client, owner.key)
    page = await client.get("/console/credits")
    assert page.status_code == 200
    balance = (await client.get("/api/v2/credits", headers=owner.headers)).json()["item"]
    assert f"<dd>{balance['balance']}</dd>" in page.text and f"<dd>{balance['available']}</dd>" in page.text
    assert page.text.count(f'href="/console/jobs/{job_id}"') == 3  # reserved, released, charged
    grants = await client.get("/console/credits", params={"kind": "grant"})
    assert "+321" in grants.text and job_id not in grants.text
    narrow = await accounts.key(owner.user_id, scopes=["accounts:read"])
    await sign_in(client, narrow.key)
    refused = await client.get("/console/credits")
    assert refused.status_code == 403 and "permission_denied" in refused.text and "321" not in refused.text


async def test_a_webhook_made_in_the_console_shows_its_secret_once_and_logs_its_deliveries(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(), await accounts.create()
    await sign_in(client, owner.key)
    form = await client.get("/console/webhooks")
    token = csrf_of(form.text)
    async with receiving() as receiver, running_worker(runtime):
        made = await client.post(
            "/console/webhooks", data={"csrf": token, "url": receiver.url, "events": ["job.succeeded"]}
        )
        assert made.status_code == 201
        secret = re.search(r'<code class="secret">([^<]+)</code>', made.text)
        assert secret
        webhook_id = HOOK_LINK.search(made.text)
        assert webhook_id
        hook = webhook_id.group(1)
        assert secret.group(1) not in (await client.get("/console/webhooks")).text  # shown once
        await _finished_echo(client, owner.headers)
        (first,) = await receiver.wait_for(1)
        assert verified(first, secret.group(1))["type"] == "job.succeeded"
        await settled_deliveries(client, owner.headers, hook, 1)
        log = await client.get(f"/console/webhooks/{hook}")
        assert log.status_code == 200 and "job.succeeded" in log.text and "HTTP 200" in log.text
        retry = re.search(r'action="(/console/webhooks/[^"]+/retry)"', log.text)
        assert retry
        again = await client.post(retry.group(1), data={"csrf": token})
        assert again.status_code == 303
        await receiver.wait_for(2)
    log = await client.get(f"/console/webhooks/{hook}", params={"status": "succeeded"})
    assert "job.succeeded" in log.text
    await sign_in(client, stranger.key)
    foreign = await client.get(f"/console/webhooks/{hook}")
    assert foreign.status_code == 404 and "webhook_not_found" in foreign.text
    gone = await client.post(f"/console/webhooks/{hook}/delete", data={"csrf": csrf_of(foreign.text)})
    assert gone.status_code == 404
    await sign_in(client, owner.key)
    page = await client.get("/console/webhooks")
    deleted = await client.post(f"/console/webhooks/{hook}/delete", data={"csrf": csrf_of(page.text)})
    assert deleted.status_code == 303 and hook not in (await client.get("/console/webhooks")).text


async def test_a_refused_webhook_form_shows_the_code_and_creates_nothing(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    await sign_in(client, owner.key)
    token = csrf_of((await client.get("/console/webhooks")).text)
    no_events = await client.post("/console/webhooks", data={"csrf": token, "url": "https://hooks.example"})
    assert no_events.status_code == 400 and "invalid_webhook_events" in no_events.text
    bad_url = await client.post(
        "/console/webhooks", data={"csrf": token, "url": "ftp://x", "events": ["job.succeeded"]}
    )
    assert bad_url.status_code == 400 and "invalid_webhook_url" in bad_url.text
    forged = await client.post("/console/webhooks", data={"csrf": "x", "url": "https://h.example"})
    assert forged.status_code == 403
    listed = (await client.get("/api/v2/webhooks", headers=owner.headers)).json()["items"]
    assert listed == []


async def test_the_keys_page_creates_a_key_shown_once_and_revoking_the_sessions_key_ends_it(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(), await accounts.create()
    await sign_in(client, owner.key)
    page = await client.get("/console/keys")
    assert page.status_code == 200 and "(this session)" in page.text
    token = csrf_of(page.text)
    made = await client.post(
        "/console/keys", data={"csrf": token, "name": "CRM sync", "scopes": ["websets:read"]}
    )
    assert made.status_code == 201
    shown = re.search(r'<code class="secret">([^<]+)</code>', made.text)
    assert shown
    new_key = shown.group(1)
    assert new_key not in (await client.get("/console/keys")).text  # shown once
    as_new = {"Authorization": f"Bearer {new_key}"}
    assert (await client.get("/api/v2/websets", headers=as_new)).status_code == 200
    assert (await client.get("/api/v2/credits", headers=as_new)).status_code == 403
    new_id = (await client.get("/api/v2/keys", headers=owner.headers)).json()["items"][0]["id"]
    theirs = (await client.get("/api/v2/keys", headers=stranger.headers)).json()["items"][0]["id"]
    foreign = await client.post(f"/console/keys/{theirs}/revoke", data={"csrf": token})
    assert foreign.status_code == 404 and "api_key_not_found" in foreign.text
    revoked = await client.post(f"/console/keys/{new_id}/revoke", data={"csrf": token})
    assert revoked.status_code == 303 and revoked.headers["location"] == "/console/keys"
    assert (await client.get("/api/v2/websets", headers=as_new)).status_code == 401
    narrow = await accounts.key(owner.user_id, scopes=["keys:read", "keys:write"])
    await sign_in(client, narrow.key)
    page = await client.get("/console/keys")
    beyond = await client.post("/console/keys", data={"csrf": csrf_of(page.text), "scopes": ["credits:read"]})
    assert beyond.status_code == 403 and "permission_denied" in beyond.text
    own = await client.post(f"/console/keys/{narrow.key_id}/revoke", data={"csrf": csrf_of(page.text)})
    assert own.status_code == 303 and own.headers["location"] == "/console/sign-in"
    assert (await client.get("/console")).headers["location"] == "/console/sign-in"
