"""A key that reads less than a webhook carries may neither point it elsewhere (a new url or events) nor
send its log again: the bodies were built under the registering key's scopes. A key that reads all of
them takes the webhook over, and its events then carry what that key reads."""

from __future__ import annotations

import httpx
import pytest

from leadwire.config import Settings
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import running_worker
from tests.support.receiver import receiving
from tests.webhooks.conftest import (
    HOOKS,
    HOOKS_ONLY,
    delivering,
    echo_result,
    register,
    settled_deliveries,
    verified,
)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return delivering(settings)


async def test_a_narrower_key_cannot_change_where_a_webhook_sends_nor_retry_its_deliveries(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    narrow = await accounts.key(acct.user_id, scopes=HOOKS_ONLY)
    async with receiving() as receiver, running_worker(runtime):
        hook = await register(client, acct.headers, receiver.url, ["job.succeeded"])
        await echo_result(client, acct.headers, "a secret result")
        (delivery,) = await settled_deliveries(client, acct.headers, hook["id"], 1)
        for change in ({"url": "https://attacker.example.com/"}, {"events": ["*"]}):
            refused = await client.patch(f"{HOOKS}/{hook['id']}", json=change, headers=narrow.headers)
            assert refused.status_code == 403
            assert refused.json()["error"]["code"] == "permission_denied"
        retry = f"{HOOKS}/{hook['id']}/deliveries/{delivery['id']}/retry"
        refused = await client.post(retry, headers=narrow.headers)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "permission_denied"
        shown = assert_ok(await client.get(f"{HOOKS}/{hook['id']}", headers=acct.headers))["item"]
        assert shown["url"] == receiver.url and shown["events"] == ["job.succeeded"]
        # The narrow key may still change what sends nothing elsewhere.
        assert_ok(
            await client.patch(f"{HOOKS}/{hook['id']}", json={"description": "x"}, headers=narrow.headers)
        )


async def test_a_key_that_reads_more_takes_over_the_webhook_it_points_elsewhere(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    narrow = await accounts.key(acct.user_id, scopes=HOOKS_ONLY)
    async with receiving() as receiver, running_worker(runtime):
        hook = await register(client, narrow.headers, receiver.url + "old", ["job.succeeded"])
        changed = {"url": receiver.url}
        assert_ok(await client.patch(f"{HOOKS}/{hook['id']}", json=changed, headers=acct.headers))
        await echo_result(client, acct.headers, "now readable")
        (received,) = await receiver.wait_for(1)
    assert verified(received, hook["secret"])["data"]["result"]["message"] == "now readable"
