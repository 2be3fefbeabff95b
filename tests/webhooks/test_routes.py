"""/api/v2/webhooks: registering, reading, changing, deleting and rotating webhooks; every refusal with
its code; one account never sees another's; the default settings refuse private addresses."""

from __future__ import annotations

import base64
import socket
import threading
from typing import Any

import httpx
import pytest

from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.webhooks.conftest import HOOKS, register

# Resolves nowhere offline: accepted at creation (every delivery checks the address again).
PUBLIC_URL = "https://hooks.leadwire-receiver.test/in"


async def test_creation_shows_the_secret_once_and_reads_never_do(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    created = await register(
        client, acct.headers, PUBLIC_URL, ["job.succeeded", "webset.completed"], description="crm"
    )
    assert created["id"].startswith("wh_") and created["status"] == "active"
    assert created["events"] == ["job.succeeded", "webset.completed"]
    assert created["secret"].startswith("whsec_")
    assert 24 <= len(base64.b64decode(created["secret"][len("whsec_") :])) <= 64
    read = assert_ok(await client.get(f"{HOOKS}/{created['id']}", headers=acct.headers))["item"]
    assert "secret" not in read and read["description"] == "crm" and read["disabled_reason"] is None
    listed = assert_ok(await client.get(HOOKS, headers=acct.headers))
    assert [w["id"] for w in listed["items"]] == [created["id"]] and "secret" not in listed["items"][0]


async def test_a_replayed_creation_is_the_same_webhook_without_its_secret(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    headers = {**acct.headers, "Idempotency-Key": "hook-1"}
    body = {"url": PUBLIC_URL, "events": ["*"]}
    first = assert_ok(await client.post(HOOKS, json=body, headers=headers), 201)["item"]
    replay = await client.post(HOOKS, json=body, headers=headers)
    assert replay.status_code == 201 and replay.headers["idempotent-replayed"] == "true"
    again = replay.json()["item"]
    assert again["id"] == first["id"] and "secret" not in again
    assert len(assert_ok(await client.get(HOOKS, headers=acct.headers))["items"]) == 1


async def test_list_pages_newest_first_with_a_cursor(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    ids = [(await register(client, acct.headers, f"{PUBLIC_URL}/{n}"))["id"] for n in range(3)]
    first = assert_ok(await client.get(HOOKS, params={"limit": 2}, headers=acct.headers))
    assert [w["id"] for w in first["items"]] == ids[::-1][:2] and first["has_more"]
    rest = assert_ok(
        await client.get(HOOKS, params={"limit": 2, "cursor": first["next_cursor"]}, headers=acct.headers)
    )
    assert [w["id"] for w in rest["items"]] == [ids[0]] and not rest["has_more"]
    assert_error(
        await client.get(HOOKS, params={"cursor": "x.y"}, headers=acct.headers), 400, "invalid_request"
    )
    assert_error(await client.get(HOOKS, params={"limit": "0"}, headers=acct.headers), 400, "invalid_request")


async def test_patch_changes_only_the_fields_given(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    hook = await register(client, acct.headers, PUBLIC_URL, ["job.failed"], metadata={"team": "ops"})
    changed = assert_ok(
        await client.patch(
            f"{HOOKS}/{hook['id']}", json={"status": "disabled", "events": ["*"]}, headers=acct.headers
        )
    )["item"]
    assert changed["status"] == "disabled" and changed["events"] == ["*"]
    assert changed["url"] == PUBLIC_URL and changed["metadata"] == {"team": "ops"}
    assert changed["disabled_reason"] == "disabled by its owner"
    enabled = assert_ok(
        await client.patch(f"{HOOKS}/{hook['id']}", json={"status": "active"}, headers=acct.headers)
    )["item"]
    assert enabled["status"] == "active" and enabled["disabled_reason"] is None


async def test_delete_removes_it_and_a_second_delete_is_not_found(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    hook = await register(client, acct.headers, PUBLIC_URL)
    gone = assert_ok(await client.delete(f"{HOOKS}/{hook['id']}", headers=acct.headers))["item"]
    assert gone == {"id": hook["id"], "deleted": True}
    assert_error(await client.delete(f"{HOOKS}/{hook['id']}", headers=acct.headers), 404, "webhook_not_found")
    assert_error(await client.get(f"{HOOKS}/{hook['id']}", headers=acct.headers), 404, "webhook_not_found")


async def test_another_accounts_webhook_is_not_found_on_every_route(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    alice, bob = await accounts.create(), await accounts.create()
    hook = await register(client, alice.headers, PUBLIC_URL)
    path = f"{HOOKS}/{hook['id']}"
    for response in (
        await client.get(path, headers=bob.headers),
        await client.patch(path, json={"status": "disabled"}, headers=bob.headers),
        await client.delete(path, headers=bob.headers),
        await client.post(f"{path}/rotate-secret", headers=bob.headers),
        await client.get(f"{path}/deliveries", headers=bob.headers),
        await client.post(f"{path}/deliveries/whd_x/retry", headers=bob.headers),
    ):
        assert_error(response, 404, "webhook_not_found")
    assert assert_ok(await client.get(HOOKS, headers=bob.headers))["items"] == []


async def test_an_unknown_delivery_is_not_found(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    hook = await register(client, acct.headers, PUBLIC_URL)
    response = await client.post(f"{HOOKS}/{hook['id']}/deliveries/whd_nope/retry", headers=acct.headers)
    assert_error(response, 404, "webhook_delivery_not_found")
    bad = await client.get(
        f"{HOOKS}/{hook['id']}/deliveries", params={"status": "lost"}, headers=acct.headers
    )
    assert_error(bad, 400, "invalid_request")


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.leadwire-receiver.test/in",  # plain http to a public receiver
        "ftp://hooks.leadwire-receiver.test/in",
        "hooks.leadwire-receiver.test/in",
        "https://user:pw@hooks.leadwire-receiver.test/in",
        "https://hooks.leadwire-receiver.test/in#frag",
        "https://" + "a" * 2050 + ".test/",
    ],
)
async def test_a_url_we_would_never_call_is_invalid_webhook_url(
    client: httpx.AsyncClient, accounts: AccountFactory, url: str
) -> None:
    acct = await accounts.create()
    response = await client.post(HOOKS, json={"url": url, "events": ["*"]}, headers=acct.headers)
    assert_error(response, 400, "invalid_webhook_url", param="url")


async def test_a_missing_url_is_invalid_webhook_url(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    response = await client.post(HOOKS, json={"events": ["*"]}, headers=acct.headers)
    assert_error(response, 400, "invalid_webhook_url")


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://10.1.2.3/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://localhost:8443/hook",
        # IPv4-compatible and IPv4-translated forms of loopback and the metadata address
        "https://[::7f00:1]/hook",
        "https://[::127.0.0.1]/hook",
        "https://[::a9fe:a9fe]/hook",
        "https://[::ffff:0:7f00:1]/hook",
    ],
)
async def test_a_private_address_is_refused_by_default_without_saying_which(
    client: httpx.AsyncClient, accounts: AccountFactory, url: str
) -> None:
    """The refusal names no address: neither the one a literal is read as nor what a name (here
    `localhost`) resolved to, so the check is no way to look up the operator's internal names."""
    acct = await accounts.create()
    response = await client.post(HOOKS, json={"url": url, "events": ["*"]}, headers=acct.headers)
    body = assert_error(response, 400, "webhook_url_not_allowed", param="url")
    assert body["error"]["detail"] == "the URL's host is not allowed: a private or reserved address"
    hook = await register(client, acct.headers, PUBLIC_URL)
    moved = await client.patch(f"{HOOKS}/{hook['id']}", json={"url": url}, headers=acct.headers)
    assert assert_error(moved, 400, "webhook_url_not_allowed")["error"] == body["error"] | {
        "request_id": moved.headers["x-request-id"]
    }


async def test_a_host_whose_lookup_outlasts_the_setting_is_accepted_unchecked(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The resolver hangs: registration waits `LEADWIRE_EGRESS_LOOKUP_TIMEOUT_SECONDS`, not the
    resolver's own timeouts, and accepts the URL as it accepts a name that does not resolve yet (every
    delivery checks the address again)."""
    monkeypatch.setattr(runtime.settings, "egress_lookup_timeout_seconds", 0.2)
    release = threading.Event()

    def hanging(host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        release.wait(timeout=30)  # then a loopback answer: refused, had registration waited for it
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    monkeypatch.setattr(socket, "getaddrinfo", hanging)
    acct = await accounts.create()
    try:
        hook = await register(client, acct.headers, "https://slow-dns.leadwire-receiver.test/in")
    finally:
        release.set()
    assert hook["status"] == "active"


@pytest.mark.parametrize("events", [[], ["job.exploded"], "job.succeeded", [1]])
async def test_unknown_or_empty_events_are_invalid_webhook_events(
    client: httpx.AsyncClient, accounts: AccountFactory, events: object
) -> None:
    acct = await accounts.create()
    response = await client.post(HOOKS, json={"url": PUBLIC_URL, "events": events}, headers=acct.headers)
    assert_error(response, 400, "invalid_webhook_events")


async def test_the_account_limit_is_webhook_limit_exceeded(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch, runtime: Runtime
) -> None:
    monkeypatch.setattr(runtime.settings, "webhook_limit_per_account", 2)
    acct = await accounts.create()
    for n in range(2):
        await register(client, acct.headers, f"{PUBLIC_URL}/{n}")
    response = await client.post(HOOKS, json={"url": PUBLIC_URL, "events": ["*"]}, headers=acct.headers)
    assert_error(response, 409, "webhook_limit_exceeded")


async def test_reading_needs_webhooks_read_and_writing_webhooks_write(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    reader = await accounts.key(owner.user_id, scopes=["webhooks:read"])
    writer_only = await accounts.key(owner.user_id, scopes=["webhooks:write"])
    hook = await register(client, owner.headers, PUBLIC_URL)
    assert_ok(await client.get(HOOKS, headers=reader.headers))
    refused = await client.post(HOOKS, json={"url": PUBLIC_URL, "events": ["*"]}, headers=reader.headers)
    assert_error(refused, 403, "permission_denied")
    assert_error(
        await client.get(f"{HOOKS}/{hook['id']}", headers=writer_only.headers), 403, "permission_denied"
    )


async def test_rotation_answers_a_new_secret(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    hook = await register(client, acct.headers, PUBLIC_URL)
    rotated = assert_ok(await client.post(f"{HOOKS}/{hook['id']}/rotate-secret", headers=acct.headers))[
        "item"
    ]
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != hook["secret"]


async def test_listening_to_an_unknown_type_is_invalid_webhook_events(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    response = await client.get(
        f"{HOOKS}/stream", params={"events": "job.succeeded,job.exploded"}, headers=acct.headers
    )
    assert_error(response, 400, "invalid_webhook_events", param="events")
    reader = await accounts.key(acct.user_id, scopes=["webhooks:read"])
    assert_error(await client.get(f"{HOOKS}/stream", headers=reader.headers), 403, "permission_denied")
