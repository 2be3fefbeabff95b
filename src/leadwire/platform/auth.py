"""Authentication and authorisation: who is calling, with which scopes, and may they do this.

`require(scope, request_class)` is the one dependency every route declares; it authenticates the key,
applies the plan's capability check and the rate limits, and checks the scope, in that order.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.context import key_id_var
from leadwire.platform.errors import ApiError
from leadwire.platform.plans import Plan, get_plan
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.session import Session
from leadwire.platform.time import utcnow
from leadwire.platform.users import find_key


@dataclass(frozen=True)
class Caller:
    user_id: str
    key_id: str
    plan: Plan
    scopes: frozenset[str]

    def can(self, scope: str) -> bool:
        return scope in self.scopes


def _raw_key(request: Request) -> str:
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError("api_key_invalid")
        return token.strip()
    api_key = request.headers.get("x-api-key")
    if api_key is None:
        raise ApiError("api_key_missing")
    if not api_key.strip():
        raise ApiError("api_key_invalid")
    return api_key.strip()


async def authenticate(request: Request, session: AsyncSession) -> Caller:
    raw = _raw_key(request)
    if not raw.startswith(("lw_live_", "lw_test_")) or len(raw) > 200:
        raise ApiError("api_key_invalid")
    found = await find_key(session, raw)
    if found is None:
        raise ApiError("api_key_invalid")
    key, user = found
    if key.revoked_at is not None:
        raise ApiError("api_key_revoked")
    if key.expires_at is not None and key.expires_at <= utcnow():
        raise ApiError("api_key_expired")
    key_id_var.set(key.id)
    request.state.key_id = key.id
    return Caller(user_id=user.id, key_id=key.id, plan=get_plan(user.plan), scopes=frozenset(key.scopes))


def set_response_headers(request: Request, headers: dict[str, str]) -> None:
    """Headers the request-context middleware adds to whatever response goes out, errors included."""
    request.scope.setdefault("state", {}).setdefault("leadwire_headers", {}).update(headers)


def require(
    scope: str | None, request_class: str = "read", *, capability: str | None = None
) -> Callable[..., Awaitable[Caller]]:
    """A dependency: authenticated caller holding `scope`, within its plan and rate limits."""
    needed_capability = capability or (scope.split(":")[0] if scope else None)

    async def dependency(
        request: Request,
        session: Session,
        runtime: Runtime = Depends(get_runtime),
    ) -> Caller:
        caller = await authenticate(request, session)
        # End the lookup's transaction: on SQLite it holds the write lock, and the idempotency claim
        # that may follow runs in a transaction of its own.
        await session.commit()
        request.state.caller = caller
        try:
            decision = await runtime.rate_limiter.check(
                plan=caller.plan, request_class=request_class, key_id=caller.key_id, user_id=caller.user_id
            )
        except ApiError as exc:
            set_response_headers(request, exc.headers)
            raise
        set_response_headers(request, decision.headers)
        if needed_capability is not None and needed_capability not in caller.plan.capabilities:
            raise ApiError("membership_tier_insufficient")
        if scope is not None and not caller.can(scope):
            raise ApiError("permission_denied")
        return caller

    return dependency
