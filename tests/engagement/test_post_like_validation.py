"""Post-like creation, v1 and v2: every body rule and account-selection code, permission, idempotency,
the reduced creation item and LinkedIn pacing."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok

V1 = "/api/v1/outreach/linkedin/post-likes"
V2 = "/api/v2/outreach/linkedin/post-likes"
PROFILE = "https://www.linkedin.com/in/ada-lovelace"
GOOD: dict[str, Any] = {"profile_url": PROFILE, "content": "supply chain resilience"}

# (body change, code, param); None as a value removes the field.
BODY_CASES: list[tuple[dict[str, Any], str, str]] = [
    ({"profile_url": None}, "profile_url_required", "profile_url"),
    ({"profile_url": "   "}, "profile_url_required", "profile_url"),
    ({"profile_url": "https://example.com/in/ada"}, "invalid_profile_url", "profile_url"),
    ({"profile_url": "https://www.linkedin.com/company/acme"}, "invalid_profile_url", "profile_url"),
    ({"profile_url": "ftp://linkedin.com/in/ada"}, "invalid_profile_url", "profile_url"),
    ({"profile_url": 42}, "invalid_profile_url", "profile_url"),
    # Dot segments (also percent-encoded) once reached the provider's API root with the account's key.
    ({"profile_url": "linkedin.com/in/%2e%2e"}, "invalid_profile_url", "profile_url"),
    ({"profile_url": "https://www.linkedin.com/in/%2E"}, "invalid_profile_url", "profile_url"),
    ({"profile_url": "https://www.linkedin.com/in/.../"}, "invalid_profile_url", "profile_url"),
    ({"profile_url": "https://www.linkedin.com/in/%252e%252e"}, "invalid_profile_url", "profile_url"),
    ({"content": None}, "content_required", "content"),
    ({"content": " \n "}, "content_required", "content"),
    ({"post_limit": 0}, "post_limit_invalid", "post_limit"),
    ({"post_limit": 51}, "post_limit_invalid", "post_limit"),
    ({"post_limit": "5"}, "post_limit_invalid", "post_limit"),
    ({"post_limit": 2.5}, "post_limit_invalid", "post_limit"),
    ({"locale": "fr"}, "locale_invalid", "locale"),
    ({"locale": 1}, "locale_invalid", "locale"),
    (
        {"min_channel_task_interval_seconds": 86401},
        "min_channel_task_interval_seconds_invalid",
        "min_channel_task_interval_seconds",
    ),
    (
        {"min_channel_task_interval_seconds": "60"},
        "min_channel_task_interval_seconds_invalid",
        "min_channel_task_interval_seconds",
    ),
    ({"account_id": 7}, "invalid_request", "account_id"),
]
ACCEPTED_URLS = [
    "linkedin.com/in/ada-lovelace",
    "http://linkedin.com/in/ada-lovelace/",
    "https://www.linkedin.com/in/ada-lovelace?trk=public_profile",
    "https://de.linkedin.com/in/ada-lovelace/",
]


def _body(change: dict[str, Any]) -> dict[str, Any]:
    body = {**GOOD, **change}
    return {k: v for k, v in body.items() if v is not None}


async def _linkedin_user(accounts: AccountFactory, *, count: int = 1) -> TestAccount:
    acct = await accounts.create()
    for _ in range(count):
        await accounts.connect(acct.user_id, "linkedin")
    return acct


@pytest.mark.parametrize("path", [V1, V2])
async def test_every_body_rule_has_its_code(
    client: httpx.AsyncClient, accounts: AccountFactory, path: str
) -> None:
    acct = await _linkedin_user(accounts)
    for change, code, param in BODY_CASES:
        response = await client.post(path, json=_body(change), headers=acct.headers)
        assert_error(response, 400, code, param=param)
    for url in ACCEPTED_URLS:
        response = await client.post(path, json=_body({"profile_url": url, "junk": 1}), headers=acct.headers)
        assert_ok(response, 202)


async def test_v2_refuses_an_interval_below_60_and_v1_takes_it_as_60(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await _linkedin_user(accounts)
    body = _body({"min_channel_task_interval_seconds": 5})
    response = await client.post(V2, json=body, headers=acct.headers)
    assert_error(response, 400, "min_channel_task_interval_seconds_invalid")
    first = assert_ok(await client.post(V1, json=body, headers=acct.headers), 202)["item"]
    second = assert_ok(await client.post(V1, json=body, headers=acct.headers), 202)["item"]
    gap = _at(second["scheduled_at"]) - _at(first["scheduled_at"])
    assert gap >= timedelta(seconds=60)
    assert_error(
        await client.post(V1, json=_body({"min_channel_task_interval_seconds": 86401}), headers=acct.headers),
        400,
        "min_channel_task_interval_seconds_invalid",
    )


def _at(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


async def test_creation_returns_the_reduced_queued_item_and_paces_linkedin(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await _linkedin_user(accounts)
    body = _body({"min_channel_task_interval_seconds": 300})
    first = assert_ok(await client.post(V2, json=body, headers=acct.headers), 202)["item"]
    assert set(first) == {"id", "status", "action", "channel", "scheduled_at"}
    assert first["status"] == "queued"
    assert first["action"] == "outreach.linkedin.post_like" and first["channel"] == "linkedin"
    second = assert_ok(await client.post(V1, json=body, headers=acct.headers), 202)["item"]
    assert _at(second["scheduled_at"]) - _at(first["scheduled_at"]) >= timedelta(seconds=300)
    job = assert_ok(await client.get(f"/api/v2/jobs/{first['id']}", headers=acct.headers))["item"]
    assert job["status"] == "queued" and job["billing"]["status"] == "not_metered"
    v1_job = assert_ok(await client.get(f"/api/v1/outreach/jobs/{second['id']}", headers=acct.headers))[
        "item"
    ]
    assert v1_job["action"] == "outreach.linkedin.post_like"


async def test_account_selection_codes(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    none = await accounts.create()
    for path in (V1, V2):
        assert_error(
            await client.post(path, json=GOOD, headers=none.headers), 400, "linkedin_account_not_found"
        )

    several = await _linkedin_user(accounts, count=2)
    assert_error(
        await client.post(V1, json=GOOD, headers=several.headers),
        400,
        "account_id_required_multiple_linkedin_accounts",
    )
    assert_error(await client.post(V2, json=GOOD, headers=several.headers), 400, "account_id_required")

    other = await _linkedin_user(accounts)
    foreign = await accounts.connect(other.user_id, "linkedin")
    email = await accounts.connect(several.user_id, "email")
    stale = await accounts.connect(several.user_id, "linkedin", status="reconnect_required")
    gone = await accounts.connect(several.user_id, "linkedin", status="disconnected")
    for path in (V1, V2):
        for account_id, status, code in (
            ("acct_nope", 404, "account_not_found"),
            (foreign, 404, "account_not_found"),
            (email, 409, "connect_account_not_sendable"),
            (stale, 409, "connect_account_reconnect_required"),
            (gone, 409, "connect_account_not_sendable"),
        ):
            response = await client.post(
                path, json={**GOOD, "account_id": account_id}, headers=several.headers
            )
            assert_error(response, status, code)


async def test_v2_says_why_the_only_linkedin_accounts_cannot_act(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    await accounts.connect(acct.user_id, "linkedin", status="reconnect_required")
    assert_error(
        await client.post(V2, json=GOOD, headers=acct.headers), 409, "connect_account_reconnect_required"
    )
    assert_error(await client.post(V1, json=GOOD, headers=acct.headers), 400, "linkedin_account_not_found")
    one_usable = await accounts.connect(acct.user_id, "linkedin")
    item = assert_ok(await client.post(V2, json=GOOD, headers=acct.headers), 202)["item"]
    job = assert_ok(await client.get(f"/api/v2/jobs/{item['id']}", headers=acct.headers))["item"]
    assert job["id"] == item["id"] and one_usable.startswith("acct_")


@pytest.mark.parametrize("path", [V1, V2])
async def test_writing_needs_engagement_write(
    client: httpx.AsyncClient, accounts: AccountFactory, path: str
) -> None:
    acct = await _linkedin_user(accounts)
    reader = await accounts.key(acct.user_id, scopes=["engagement:read", "outreach:write"])
    assert_error(await client.post(path, json=GOOD, headers=reader.headers), 403, "permission_denied")


@pytest.mark.parametrize("path", [V1, V2])
async def test_idempotent_replay_creates_one_job(
    client: httpx.AsyncClient, accounts: AccountFactory, path: str
) -> None:
    acct = await _linkedin_user(accounts)
    headers = {**acct.headers, "Idempotency-Key": "like-1"}
    first = assert_ok(await client.post(path, json=GOOD, headers=headers), 202)
    again = await client.post(path, json=GOOD, headers=headers)
    assert again.status_code == 202 and again.json() == first  # the stored response, replayed
    changed = await client.post(path, json={**GOOD, "content": "other"}, headers=headers)
    assert_error(changed, 409, "idempotency_conflict")
