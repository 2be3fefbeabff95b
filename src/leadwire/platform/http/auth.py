"""Authentication and authorisation: who is calling, with which scopes, and may they do this.

`require(permission)` is the one dependency every route declares; it authenticates the key, applies the
rate limits and the plan's feature check, and checks the scope, in that order.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

# starlette's Request (FastAPI's is the same class), not FastAPI: a worker imports this module for
# `Caller`, and FastAPI costs half a second of start-up it has no use for.
from starlette.requests import Request

from leadwire.platform.admission.ratelimit import RateDecision
from leadwire.platform.callers import Caller, Permission, feature_missing, scope_missing
from leadwire.platform.errors import ApiError
from leadwire.platform.plans import get_plan
from leadwire.platform.request_context import key_id_var
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import iso, utcnow
from leadwire.platform.users import digest_key, find_key_by_digest

# The two ways to send a key, named in every refusal that is about how (not which) key was sent.
KEY_HEADER_FORMS = "send the key as `Authorization: Bearer <key>` or `x-api-key: <key>`"


def _raw_key(headers: Mapping[str, str]) -> str:
    header = headers.get("authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError("api_key_invalid", detail=f"Authorization holds no Bearer key: {KEY_HEADER_FORMS}")
        return token.strip()
    api_key = headers.get("x-api-key")
    if api_key is None:
        raise ApiError("api_key_missing", detail=f"no API key was sent: {KEY_HEADER_FORMS}")
    if not api_key.strip():
        raise ApiError("api_key_invalid", detail=f"the x-api-key header is empty: {KEY_HEADER_FORMS}")
    return api_key.strip()


@dataclass(frozen=True)
class _KeyRecord:
    """What a request needs to know about a key; cached for `auth_cache_seconds`."""

    key_id: str
    user_id: str
    plan: str
    scopes: frozenset[str]
    revoked: bool
    expires_at: datetime | None
    fetched_at: float


async def _lookup(runtime: Runtime, raw: str, client: str | None) -> _KeyRecord | None:
    """The key's record, from the process cache (`platform.key_cache`) or read on the read engine —
    outside the request's own session, so a write request's transaction starts with its idempotency
    claim, not a lookup. A key known not to exist is not read again for a while, and an address past its
    failed attempts reads nothing (`platform.auth_guard`)."""
    digest = digest_key(raw)
    cached: _KeyRecord | None = runtime.key_cache.get(digest)
    if cached is not None:
        return cached
    guard = runtime.auth_guard
    if (wait := guard.retry_after(client)) is not None:
        raise ApiError(
            "api_rate_limit_exceeded",
            detail="too many failed authentications from this address: wait before trying again",
            headers={"Retry-After": str(wait)},
        )
    if guard.known_miss(digest):
        return None
    record = await _read_record(runtime, digest)
    if record is None:
        guard.remember_miss(digest)
    return record


async def _read_record(runtime: Runtime, digest: str) -> _KeyRecord | None:
    fetched_at = time.monotonic()
    generation = runtime.key_cache.generation
    async with runtime.reader() as session:
        found = await find_key_by_digest(session, digest)
        if found is None:
            return None
        key, user = found
        record = _KeyRecord(
            key_id=key.id,
            user_id=user.id,
            plan=user.plan,
            scopes=frozenset(key.scopes),
            revoked=key.revoked_at is not None,
            expires_at=key.expires_at,
            fetched_at=fetched_at,
        )
    runtime.key_cache.put(digest, record, generation=generation)
    return record


async def key_still_valid(runtime: Runtime, digest: str) -> bool:
    """Whether the key behind a long-lived stream still authenticates: not revoked, not expired. From the
    process cache (which a revocation empties at once), else one read that every stream of the key
    then shares through it."""
    record: _KeyRecord | None = runtime.key_cache.get(digest) or await _read_record(runtime, digest)
    if record is None or record.revoked:
        return False
    return record.expires_at is None or record.expires_at > utcnow()


async def caller_for_digest(runtime: Runtime, digest: str) -> Caller | None:
    """The caller of a key known by its digest (a console session keeps no key), or None once the key is
    revoked, expired or gone; the same cache and reads as a key sent with a request."""
    record: _KeyRecord | None = runtime.key_cache.get(digest) or await _read_record(runtime, digest)
    if record is None or record.revoked:
        return None
    if record.expires_at is not None and record.expires_at <= utcnow():
        return None
    return Caller(
        user_id=record.user_id,
        key_id=record.key_id,
        plan=get_plan(record.plan),
        scopes=record.scopes,
        key_digest=digest,
    )


async def authenticate_headers(
    headers: Mapping[str, str], runtime: Runtime, client: str | None = None
) -> Caller:
    """The caller behind `Authorization: Bearer` or `x-api-key`, or the 401 that explains why not; a
    failure counts against the client's address (`client`, when known)."""
    raw = _raw_key(headers)
    try:
        return await _caller(raw, runtime, client)
    except ApiError as exc:
        if exc.code in _FAILURES:
            runtime.auth_guard.failed(client)
        raise


_FAILURES = frozenset({"api_key_invalid", "api_key_revoked", "api_key_expired"})


async def _caller(raw: str, runtime: Runtime, client: str | None) -> Caller:
    if not raw.startswith(("lw_live_", "lw_test_")) or len(raw) > 200:
        raise ApiError("api_key_invalid", detail="not a Leadwire key: keys start with lw_live_ or lw_test_")
    record = await _lookup(runtime, raw, client)
    if record is None:
        raise ApiError("api_key_invalid", detail="no such key on this server")
    if record.revoked:
        raise ApiError("api_key_revoked", detail="this key was revoked: use another key of the account")
    if record.expires_at is not None and record.expires_at <= utcnow():
        raise ApiError("api_key_expired", detail=f"this key expired at {iso(record.expires_at)}")
    key_id_var.set(record.key_id)
    return Caller(
        user_id=record.user_id,
        key_id=record.key_id,
        plan=get_plan(record.plan),
        scopes=record.scopes,
        key_digest=digest_key(raw),
    )


def set_response_headers(request: Request, headers: dict[str, str]) -> None:
    """Headers the request-context middleware adds to whatever response goes out, errors included."""
    request.scope.setdefault("state", {}).setdefault("leadwire_headers", {}).update(headers)


async def authorize(runtime: Runtime, caller: Caller, permission: Permission) -> RateDecision:
    """Rate limits (per key and account-wide), plan feature and scope, for every face (REST, MCP).

    Returns the rate decision (its headers, and the counters a refund takes back); raises ApiError
    (with those headers) when refused.
    """
    decision = await runtime.rate_limiter.check(
        plan=caller.plan,
        request_class=permission.request_class,
        key_id=caller.key_id,
        user_id=caller.user_id,
    )
    feature = permission.plan_feature
    if feature is not None and not caller.plan.allows(feature):
        raise feature_missing(caller.plan, feature, headers=decision.headers)
    if permission.scope is not None and not caller.can(permission.scope):
        raise scope_missing(permission.scope, headers=decision.headers)
    return decision


async def authenticated_caller(request: Request) -> Caller:
    """The caller behind the request's key (cached per request: `require()` and `idempotent()` share it).

    Reaches the runtime through the app rather than a dependency of its own: this runs on every request,
    and each level of dependency resolution showed in the read path's profile."""
    client = request.client.host if request.client else None
    caller = await authenticate_headers(request.headers, request.app.state.runtime, client)
    request.state.key_id = caller.key_id
    return caller


def require(permission: Permission) -> Callable[..., Awaitable[Caller]]:
    """A dependency: the authenticated caller, holding the permission's scope, within its plan and rate
    limits. Slices declare their permissions once (`WRITE = Permission("research:write", "task")`) and
    name each as a typed alias in their routes (`Writer = Annotated[Caller, Depends(require(WRITE))]`)
    and pass it to their MCP tools."""
    from fastapi import Depends

    async def dependency(request: Request, caller: Caller = Depends(authenticated_caller)) -> Caller:
        try:
            decision = await authorize(request.app.state.runtime, caller, permission)
        except ApiError as exc:
            set_response_headers(request, exc.headers)
            raise
        set_response_headers(request, decision.headers)
        request.state.rate_decision = decision  # what a request that did no work gives back
        return caller

    return dependency
