"""Authentication, key lifecycle, scopes, plans and isolation (docs/api.md, Scopes and plans)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta

import httpx
import pytest

from leadwire.platform.admission.key_cache import KeyCache
from leadwire.platform.runtime import Runtime
from leadwire.platform.users import all_scopes
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok


async def test_missing_key_is_api_key_missing(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/api/v2/credits"), 401, "api_key_missing")


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "Bearer lw_live_" + "a" * 32},
        {"Authorization": "Bearer nonsense"},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"Authorization": "Bearer "},
        {"x-api-key": "lw_live_" + "b" * 32},
        {"x-api-key": ""},
    ],
)
async def test_unknown_or_malformed_key_is_api_key_invalid(
    client: httpx.AsyncClient, headers: dict[str, str]
) -> None:
    assert_error(await client.get("/api/v2/credits", headers=headers), 401, "api_key_invalid")


async def test_key_works_in_both_headers(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    assert_ok(await client.get("/api/v2/credits", headers={"Authorization": f"Bearer {acct.key}"}))
    assert_ok(await client.get("/api/v2/credits", headers={"x-api-key": acct.key}))


async def test_revoked_key_is_api_key_revoked(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    await accounts.revoke(acct.key_id)
    assert_error(await client.get("/api/v2/credits", headers=acct.headers), 401, "api_key_revoked")


async def test_a_used_key_revoked_is_refused_at_once_in_the_revoking_process(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    runtime.key_cache.ttl = 3600.0  # a cached key stays trusted all test long, unless forgotten
    acct = await accounts.create()
    other = await accounts.key(acct.user_id)
    for key in (acct, other):
        assert_ok(await client.get("/api/v2/credits", headers=key.headers))
    await accounts.revoke(acct.key_id)
    assert_error(await client.get("/api/v2/credits", headers=acct.headers), 401, "api_key_revoked")
    assert_ok(await client.get("/api/v2/credits", headers=other.headers))  # only that key is forgotten


async def test_a_key_read_while_it_is_revoked_is_not_cached(runtime: Runtime) -> None:
    cache = KeyCache(3600.0)
    before = cache.generation
    cache.forget("key_revoked_meanwhile")  # a revocation heard while the read was under way
    cache.put("digest", _Record("key_x", time.monotonic()), generation=before)
    assert cache.get("digest") is None
    cache.put("digest", _Record("key_x", time.monotonic()), generation=cache.generation)
    assert cache.get("digest") is not None


@dataclass(frozen=True)
class _Record:
    key_id: str
    fetched_at: float


async def test_expired_key_is_api_key_expired(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    expired = await accounts.key(acct.user_id, expires_in=timedelta(seconds=-1))
    assert_error(await client.get("/api/v2/credits", headers=expired.headers), 401, "api_key_expired")


@pytest.mark.parametrize(
    ("path", "scope"),
    [
        ("/api/v2/credits", "credits:read"),
        ("/api/v2/connect/accounts", "accounts:read"),
        ("/api/v1/connect/accounts", "accounts:read"),
    ],
)
async def test_scope_matrix(
    client: httpx.AsyncClient, accounts: AccountFactory, path: str, scope: str
) -> None:
    owner = await accounts.create()
    with_scope = await accounts.key(owner.user_id, scopes=[scope])
    without_scope = await accounts.key(owner.user_id, scopes=[s for s in all_scopes() if s != scope])
    assert_ok(await client.get(path, headers=with_scope.headers))
    assert_error(await client.get(path, headers=without_scope.headers), 403, "permission_denied")


async def test_plan_without_capability_is_membership_tier_insufficient(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    free = await accounts.create(plan="free")
    pro = await accounts.create(plan="pro")
    assert_error(
        await client.get("/api/v2/test/customs-probe", headers=free.headers),
        403,
        "membership_tier_insufficient",
    )
    assert (await client.get("/api/v2/test/customs-probe", headers=pro.headers)).status_code == 200


async def test_key_is_never_logged(
    client: httpx.AsyncClient, accounts: AccountFactory, caplog: pytest.LogCaptureFixture
) -> None:
    acct = await accounts.create()
    caplog.set_level("DEBUG")
    await client.get("/api/v2/credits", headers=acct.headers)
    await client.get("/api/v2/test/boom", headers=acct.headers)
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert "leadwire.access" in {r.name for r in caplog.records}
    assert acct.key not in logged
    assert acct.key_id in logged


async def test_an_unknown_key_is_read_once_then_known_as_a_miss(
    client: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leadwire.platform.http import auth

    reads: list[str] = []
    real = auth.find_key_by_digest

    async def counted(session, digest):  # type: ignore[no-untyped-def]
        reads.append(digest)
        return await real(session, digest)

    monkeypatch.setattr(auth, "find_key_by_digest", counted)
    unknown = {"Authorization": "Bearer lw_live_" + "m" * 32}
    for _ in range(5):
        assert_error(await client.get("/api/v2/credits", headers=unknown), 401, "api_key_invalid")
    assert len(reads) == 1


async def test_an_address_past_its_failed_attempts_gets_429_before_any_read(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    runtime.auth_guard.failures_per_minute = 3
    runtime.key_cache.ttl = 3600.0
    acct = await accounts.create()
    assert_ok(await client.get("/api/v2/credits", headers=acct.headers))  # known to this process
    for i in range(3):
        wrong = {"Authorization": f"Bearer lw_live_{i:032d}"}
        assert_error(await client.get("/api/v2/credits", headers=wrong), 401, "api_key_invalid")
    refused = await client.get("/api/v2/credits", headers={"Authorization": "Bearer lw_live_" + "z" * 32})
    assert_error(refused, 429, "api_rate_limit_exceeded")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # A key this process already holds still works from that address; a missing key is no attempt.
    assert_ok(await client.get("/api/v2/credits", headers=acct.headers))
    assert_error(await client.get("/api/v2/credits"), 401, "api_key_missing")
    # Another address is not affected.
    runtime.auth_guard.failures_per_minute = 3
    assert runtime.auth_guard.retry_after("192.0.2.7") is None
