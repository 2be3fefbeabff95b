"""The console's prospect-list pages ask what the API asks of a list made of contacts: a key without
`research:read` or a free plan gets the API's refusal on the list's page, its live stream, its export,
Find More and the creation form, and nothing is written (SQLite and PostgreSQL)."""

from __future__ import annotations

import httpx

from leadwire.platform.runtime import Runtime
from tests.console.signing import csrf_of, sign_in
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import job_count

PEOPLE = {"query": "CTOs of software companies", "target_kind": "person"}


async def test_a_person_list_is_refused_on_every_console_route_without_the_contacts_scope(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    factory = AccountFactory(world_runtime)
    owner = await factory.create(credits=500)
    created = assert_ok(await world_client.post("/api/v2/websets", json=PEOPLE, headers=owner.headers), 202)
    webset_id = created["item"]["webset"]["id"]
    websets_only = await factory.key(owner.user_id, scopes=["websets:read", "websets:write"])
    await sign_in(world_client, websets_only.key)
    form = await world_client.get("/console/websets")
    token, before = csrf_of(form.text), await job_count(world_runtime)
    live = await world_client.get(f"/console/websets/{webset_id}/live")
    assert live.status_code == 403  # a bare status: an EventSource does not retry it
    for response in (
        await world_client.get(f"/console/websets/{webset_id}"),
        await world_client.get(f"/console/websets/{webset_id}/export"),
        await world_client.post(f"/console/websets/{webset_id}/find-more", data={"csrf": token}),
        await world_client.post(
            "/console/websets", data={"csrf": token, "query": "CTOs", "count": "25", "target_kind": "person"}
        ),
    ):
        assert response.status_code == 403, (response.request.url, response.text[:300])
        assert "permission_denied" in response.text and "research:read" in response.text
    assert await job_count(world_runtime) == before


async def test_a_free_plan_cannot_make_a_person_list_in_the_console(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    owner = await AccountFactory(world_runtime).create(credits=500, plan="free")
    await sign_in(world_client, owner.key)
    form = await world_client.get("/console/websets")
    refused = await world_client.post(
        "/console/websets",
        data={"csrf": csrf_of(form.text), "query": "CTOs", "count": "25", "target_kind": "person"},
    )
    assert refused.status_code == 403 and "membership_tier_insufficient" in refused.text
    assert assert_ok(await world_client.get("/api/v2/websets", headers=owner.headers))["items"] == []
