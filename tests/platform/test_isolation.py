"""Isolation between two users for every resource type (docs/api.md, Scopes and plans): Bob, holding
every scope, cannot read, list, stream, cancel or use anything of Alice's — jobs of every kind (v2 and
v1), their results, websets and their streams, connected accounts, credits — on REST and MCP; he gets
the resource's `*_not_found` code, never a 403 that would confirm the id exists, and Alice's state is
unchanged."""

from __future__ import annotations

from typing import Any

import httpx

from leadwire.platform.runtime import Runtime
from tests.customs.test_customs_routes import CANDIDATES
from tests.engagement.test_post_like_validation import GOOD as POST_LIKE
from tests.mcp.test_mcp_server import call, error_text
from tests.outreach.test_dispatch_validation import email
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.websets.conftest import all_items, create_webset, wait_finished

DONE = ("succeeded", "failed", "cancelled")


async def created(client: httpx.AsyncClient, acct: TestAccount, path: str, body: dict[str, Any]) -> str:
    response = await client.post(path, json=body, headers={**acct.headers, "Idempotency-Key": f"k-{path}"})
    job_id: str = assert_ok(response, 202)["item"]["id"]
    return job_id


async def alice_jobs(
    client: httpx.AsyncClient, accounts: AccountFactory, alice: TestAccount
) -> dict[str, str]:
    """One job of every kind, created through the public API (an account per outreach job: no pacing)."""
    accounts_ = {n: await accounts.connect(alice.user_id, c) for n, c in (("e1", "email"), ("e2", "email"))}
    linkedin = [await accounts.connect(alice.user_id, "linkedin") for _ in range(2)]
    return {
        "echo": await created(client, alice, "/api/v2/test/echo", {"message": "alice"}),
        "public_web": await created(client, alice, "/api/v2/research/public-web", {"queries": ["logistics"]}),
        "contacts": await created(client, alice, "/api/v2/research/contacts", {"domain": "acme.example"}),
        "customs": await created(client, alice, "/api/v2/customs/company-candidates", CANDIDATES),
        "dispatch_v2": await created(client, alice, "/api/v2/outreach/dispatches", email(accounts_["e1"])),
        "dispatch_v1": await created(client, alice, "/api/v1/outreach/dispatches", email(accounts_["e2"])),
        "like_v2": await created(
            client, alice, "/api/v2/outreach/linkedin/post-likes", {**POST_LIKE, "account_id": linkedin[0]}
        ),
        "like_v1": await created(
            client, alice, "/api/v1/outreach/linkedin/post-likes", {**POST_LIKE, "account_id": linkedin[1]}
        ),
        "webset": (await create_webset(client, alice.headers, query="banks"))["preparation_job"]["id"],
    }


async def assert_jobs_hidden(client: httpx.AsyncClient, bob: TestAccount, jobs: dict[str, str]) -> None:
    for kind, job_id in jobs.items():
        for path in (f"/api/v2/jobs/{job_id}", f"/api/v1/outreach/jobs/{job_id}"):
            response = await client.get(path, headers=bob.headers)
            assert_error(response, 404, "task_not_found")
            assert job_id not in response.text, kind
        assert "task_not_found" in error_text(await call(client, bob.headers, "get_job", job_id=job_id))


async def test_no_job_of_another_user_can_be_read_or_cancelled_on_v1_v2_or_mcp(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    alice, bob = await accounts.create(credits=1000), await accounts.create(credits=1000)
    jobs = await alice_jobs(client, accounts, alice)
    before = {
        k: assert_ok(await client.get(f"/api/v2/jobs/{j}", headers=alice.headers))["item"]
        for k, j in jobs.items()
    }
    assert all(job["status"] in ("queued", "scheduled") for job in before.values()), before
    await assert_jobs_hidden(client, bob, jobs)
    for job_id in jobs.values():
        response = await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=bob.headers)
        assert_error(response, 404, "task_not_found")
        assert "task_not_found" in error_text(await call(client, bob.headers, "cancel_job", job_id=job_id))
    # Bob's same idempotency key is his own: a job of his, not a replay of Alice's.
    mine = await created(client, bob, "/api/v2/test/echo", {"message": "bob"})
    assert mine != jobs["echo"]
    assert_ok(await client.get(f"/api/v2/jobs/{mine}", headers=bob.headers))
    for kind, job_id in jobs.items():
        after = assert_ok(await client.get(f"/api/v2/jobs/{job_id}", headers=alice.headers))["item"]
        assert after["status"] == before[kind]["status"], kind  # nothing Bob did cancelled it
    for job_id in (jobs["dispatch_v1"], jobs["like_v1"]):
        assert_ok(await client.get(f"/api/v1/outreach/jobs/{job_id}", headers=alice.headers))
    # Finished, with their results (or errors): still Alice's alone. (Without a sandbox world the
    # outreach jobs are paced or retried; these end at once.)
    queued = {k: jobs[k] for k in ("echo", "public_web", "contacts", "customs", "webset")}
    async with running_worker(runtime):
        finished = {
            k: await poll_job(client, alice.headers, j, until=DONE, timeout=30) for k, j in queued.items()
        }
    assert finished["echo"]["status"] == "succeeded" and finished["echo"]["result"]
    await assert_jobs_hidden(client, bob, jobs)


async def test_connected_accounts_and_credits_are_each_users_own(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    alice, bob = await accounts.create(credits=1000), await accounts.create(credits=7)
    mailbox = await accounts.connect(alice.user_id, "email")
    linkedin = await accounts.connect(alice.user_id, "linkedin")
    provider = await accounts.connect_provider(
        alice.user_id, "linkedin", "unipile", {"unipile_dsn": "https://u.example", "unipile_account_id": "a"}
    )
    bobs = await accounts.connect(bob.user_id, "whatsapp")
    assert_ok(
        await client.post("/api/v2/research/public-web", json={"queries": ["q"]}, headers=alice.headers), 202
    )
    alices = {mailbox, linkedin, provider}
    for path in ("/api/v2/connect/accounts", "/api/v1/connect/accounts"):
        listed = {a["account_id"] for a in assert_ok(await client.get(path, headers=bob.headers))["items"]}
        assert listed == {bobs}
        assert alices <= {
            a["account_id"] for a in assert_ok(await client.get(path, headers=alice.headers))["items"]
        }
    over_mcp = (await call(client, bob.headers, "list_accounts"))["structuredContent"]["result"]
    assert [a["account_id"] for a in over_mcp] == [bobs]
    # Alice's accounts cannot be used by Bob: not found, as if they did not exist.
    for version in ("v1", "v2"):
        response = await client.post(
            f"/api/{version}/outreach/dispatches", json=email(mailbox), headers=bob.headers
        )
        assert_error(response, 404, "account_not_found", param="account_id")
    for account in (linkedin, provider):
        for version in ("v1", "v2"):
            response = await client.post(
                f"/api/{version}/outreach/linkedin/post-likes",
                json={**POST_LIKE, "account_id": account},
                headers=bob.headers,
            )
            assert_error(response, 404, "account_not_found")
    text = error_text(await call(client, bob.headers, "dispatch_outreach", **email(mailbox)))
    assert "account_not_found" in text
    # Credits: Bob sees his balance, untouched by Alice's reservation; Alice sees hers.
    theirs = assert_ok(await client.get("/api/v2/credits", headers=bob.headers))["item"]
    assert (theirs["balance"], theirs["reserved"], theirs["available"]) == (7, 0, 7)
    assert (await call(client, bob.headers, "get_credits"))["structuredContent"]["balance"] == 7
    hers = assert_ok(await client.get("/api/v2/credits", headers=alice.headers))["item"]
    assert hers["balance"] == 1000 and hers["reserved"] > 0


async def test_websets_their_items_strategy_streams_and_find_more_are_the_owners_alone(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    factory = AccountFactory(world_runtime)
    alice, bob = await factory.create(credits=500), await factory.create(credits=500)
    webset_id = (await create_webset(world_client, alice.headers, query="software companies"))["webset"]["id"]
    own_id = (await create_webset(world_client, bob.headers, query="banks"))["webset"]["id"]
    async with running_worker(world_runtime):
        assert (await wait_finished(world_client, alice.headers, webset_id))["status"] == "completed"
        more = await world_client.post(
            f"/api/v2/websets/{webset_id}/find-more",
            json={},
            headers={**alice.headers, "Idempotency-Key": "m"},
        )
        find_more = assert_ok(more, 202)["item"]["id"]
        await poll_job(world_client, alice.headers, find_more, until=DONE, timeout=60)
        await wait_finished(world_client, bob.headers, own_id)
    items = await all_items(world_client, alice.headers, webset_id)
    assert items
    # Lists show only one's own.
    listed = assert_ok(await world_client.get("/api/v2/websets", headers=bob.headers))["items"]
    assert [w["id"] for w in listed] == [own_id]
    assert (
        webset_id not in (await world_client.get(f"/api/v2/websets/{own_id}/items", headers=bob.headers)).text
    )
    mcp_listed = (await call(world_client, bob.headers, "list_websets"))["structuredContent"]
    assert webset_id not in str(mcp_listed) and own_id in str(mcp_listed)
    # Every read, stream and Find More of Alice's list is 404 for Bob.
    reads = (
        "",
        "/strategy",
        "/items",
        "/items?detail=full",
        "/items/stream",
        f"/find-more/stream?job_id={find_more}",
    )
    for suffix in reads:
        response = await world_client.get(f"/api/v2/websets/{webset_id}{suffix}", headers=bob.headers)
        assert_error(response, 404, "webset_not_found")
        assert items[0]["id"] not in response.text
    response = await world_client.post(
        f"/api/v2/websets/{webset_id}/find-more", json={}, headers={**bob.headers, "Idempotency-Key": "m"}
    )
    assert_error(response, 404, "webset_not_found")
    # Alice's Find More job on Bob's own list: the job is not his.
    response = await world_client.get(
        f"/api/v2/websets/{own_id}/find-more/stream", params={"job_id": find_more}, headers=bob.headers
    )
    assert_error(response, 404, "task_not_found")
    for tool in ("get_webset", "get_webset_strategy", "list_webset_items", "find_more_webset"):
        assert "webset_not_found" in error_text(
            await call(world_client, bob.headers, tool, webset_id=webset_id)
        )
    # Alice's list is as it was, and Bob was charged nothing for it.
    assert await all_items(world_client, alice.headers, webset_id) == items
    job = assert_ok(await world_client.get(f"/api/v2/jobs/{find_more}", headers=alice.headers))["item"]
    assert job["status"] in DONE
    credits = assert_ok(await world_client.get("/api/v2/credits", headers=bob.headers))["item"]
    own_items = len(await all_items(world_client, bob.headers, own_id))
    assert credits["balance"] == 500 - own_items and credits["reserved"] == 0
