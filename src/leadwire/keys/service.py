"""The rules of an account's own API keys: listing them (never a secret or a digest), creating one with
no more than the creating key holds, and revoking one at once with the keys it created. No HTTP objects
here; REST, MCP and the console share these functions."""

from __future__ import annotations

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.keys.schemas import KeyCreate, KeyOut, KeyRevoked, KeyWithSecret, public_key, with_secret
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.events import DomainEvent, constant, emit
from leadwire.platform.notify import Notifier
from leadwire.platform.pagination import CursorCodec, newest_first
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.platform.users import (
    KEYS_REVOKED,
    ApiKey,
    all_scopes,
    issue_key,
    lock_account_counts,
    revoke_with_created,
)

LIVE_KEY_LIMIT = 50  # keys neither revoked nor expired, per account


def cursor_codec(runtime: Runtime) -> CursorCodec:
    """The signed-cursor codec of the key pages (REST and MCP alike)."""
    return CursorCodec.for_instance(runtime.settings.resolved_secret_key)


async def list_keys(
    session: AsyncSession, codec: CursorCodec, caller: Caller, *, limit: int, cursor: str | None
) -> tuple[list[KeyOut], str | None]:
    """The account's keys, revoked and expired ones too, newest first; `next_cursor` resumes after the
    last one shown."""
    statement = select(ApiKey).where(ApiKey.user_id == caller.user_id)
    rows, next_cursor = await newest_first(
        session, codec, statement, ApiKey.id, limit=limit, cursor=cursor, bound_to="keys"
    )
    now = utcnow()
    return [public_key(row, current_key_id=caller.key_id, now=now) for row in rows], next_cursor


def check_scopes(caller: Caller, wanted: list[str]) -> None:
    """400 for a scope that does not exist; 403 for one the creating key does not hold (a key never
    gives more than it has)."""
    known = all_scopes()
    unknown = [scope for scope in wanted if scope not in known]
    if unknown:
        raise ApiError(
            "invalid_request",
            param="scopes",
            detail=f"unknown scopes {', '.join(unknown)}: the scopes are {', '.join(known)}",
        )
    beyond = [scope for scope in wanted if not caller.can(scope)]
    if beyond:
        raise ApiError(
            "permission_denied",
            param="scopes",
            detail=f"this key lacks {', '.join(beyond)}: a new key holds only scopes of the key creating it",
        )


async def create_key(
    session: AsyncSession, caller: Caller, body: KeyCreate, *, limit: int = LIVE_KEY_LIMIT
) -> KeyWithSecret:
    """A new key of the caller's account with `body.scopes` (each held by the caller's key), its mode
    and, when the caller's key expires, its expiry: a key never outlives or outranks the key that made
    it. The answer holds the key itself; nothing stored does."""
    wanted = list(dict.fromkeys(body.scopes))
    check_scopes(caller, wanted)
    await lock_account_counts(session, caller.user_id)  # two creations at once count one after the other
    # The creating key as committed now, locked: a key revoked since this process cached it (another
    # process, the operator's CLI) makes nothing, and a revocation under way waits for this creation.
    creator = (
        await session.execute(
            select(ApiKey)
            .where(ApiKey.id == caller.key_id)
            .with_for_update(key_share=True)
            .execution_options(populate_existing=True)
        )
    ).scalar_one_or_none()
    now = utcnow()
    if creator is None or creator.revoked_at is not None:
        raise ApiError("api_key_revoked", detail="this key was revoked: use another key of the account")
    if creator.expires_at is not None and creator.expires_at <= now:
        raise ApiError("api_key_expired", detail="this key has expired")
    live = await session.scalar(
        select(func.count())
        .select_from(ApiKey)
        .where(
            ApiKey.user_id == caller.user_id,
            ApiKey.revoked_at.is_(None),
            or_(ApiKey.expires_at.is_(None), ApiKey.expires_at > now),
        )
    )
    if int(live or 0) >= limit:
        raise ApiError(
            "api_key_limit_exceeded", detail=f"an account holds at most {limit} live keys: revoke one first"
        )
    issued = await issue_key(
        session, user_id=caller.user_id, scopes=wanted, mode=creator.mode, name=body.name
    )
    key = await session.get(ApiKey, issued.key_id)
    assert key is not None  # just added in this session
    key.expires_at = creator.expires_at
    key.created_by_key_id = creator.id  # revoked with it
    await session.flush()
    return with_secret(key, issued.key, current_key_id=caller.key_id, now=now)


async def revoke(session: AsyncSession, notifier: Notifier, caller: Caller, key_id: str) -> KeyRevoked:
    """Revoke one of the account's keys — the caller's own too — and the live keys it created, and
    theirs: from the commit on they are refused (401 `api_key_revoked`), in every API process at once on
    PostgreSQL, and the work set up in their names stops (`KEYS_REVOKED`). A key already revoked is
    answered as it stands (with any live key it created revoked now). A key holding a scope the caller's
    key lacks is the caller's to revoke only if it is the caller's own (a narrow key cannot take a
    broader one away); the keys it created hold no scope it lacks."""
    key = (
        await session.execute(select(ApiKey).where(ApiKey.id == key_id, ApiKey.user_id == caller.user_id))
    ).scalar_one_or_none()
    if key is None:
        raise ApiError("api_key_not_found", param="key_id")
    now = utcnow()
    beyond = sorted(set(key.scopes) - caller.scopes)
    if beyond and key.id != caller.key_id:
        if key.revoked_at is not None:  # as it stands: what it created is for a broader key to take
            return KeyRevoked(**public_key(key, current_key_id=caller.key_id, now=now), revoked_with=0)
        raise ApiError(
            "permission_denied",
            param="key_id",
            detail=f"that key holds {', '.join(beyond)}, which this key lacks: revoke it with a key "
            "holding every scope it has",
        )
    _key, created = await revoke_with_created(session, notifier, key.id)
    await session.flush()
    revoked = [key.id, *(c.id for c in created)]
    await emit(session, notifier, [DomainEvent(caller.user_id, KEYS_REVOKED, constant({"key_ids": revoked}))])
    return KeyRevoked(**public_key(key, current_key_id=caller.key_id, now=now), revoked_with=len(created))
