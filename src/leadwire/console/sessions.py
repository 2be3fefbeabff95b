"""Signing in and out of the console, and who a request's session belongs to.

Sign-in takes an API key once, checks it as the API does, and keeps only its digest. Each request finds
its caller through that digest with the API's own key lookup (`caller_for_digest`), so a revoked or
expired key ends its sessions at once, and a page can do exactly what the key's scopes allow.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.console.models import ConsoleSession
from leadwire.platform.callers import Caller
from leadwire.platform.http import authenticate_headers, caller_for_digest
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow

SESSION_HOURS = 12
# Sessions one key may hold at once; signing in again past it ends the oldest.
SESSIONS_PER_KEY = 20


@dataclass(frozen=True)
class SignedIn:
    caller: Caller
    csrf_token: str


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def sign_in(
    session: AsyncSession, runtime: Runtime, raw_key: str, client: str | None
) -> tuple[str, str]:
    """A new session for the key (refused as the API refuses it); (cookie token, CSRF token)."""
    caller = await authenticate_headers({"authorization": f"Bearer {raw_key.strip()}"}, runtime, client)
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    now = utcnow()
    session.add(
        ConsoleSession(
            token_hash=_hash(token),
            key_digest=caller.key_digest,
            user_id=caller.user_id,
            csrf_token=csrf,
            created_at=now,
            expires_at=now + timedelta(hours=SESSION_HOURS),
        )
    )
    await session.flush()
    await _keep_newest(session, caller.key_digest)
    return token, csrf


async def _keep_newest(session: AsyncSession, key_digest: str) -> None:
    kept = select(ConsoleSession.token_hash).where(ConsoleSession.key_digest == key_digest)
    newest = kept.order_by(ConsoleSession.created_at.desc()).limit(SESSIONS_PER_KEY)
    await session.execute(
        delete(ConsoleSession)
        .where(ConsoleSession.key_digest == key_digest, ConsoleSession.token_hash.not_in(newest))
        .execution_options(synchronize_session=False)
    )


async def signed_in(session: AsyncSession, runtime: Runtime, token: str | None) -> SignedIn | None:
    """The session's caller, or None: no cookie, an unknown or expired session, a revoked key."""
    if not token or len(token) > 100:
        return None
    found = await session.get(ConsoleSession, _hash(token))
    if found is None or found.expires_at <= utcnow():
        return None
    caller = await caller_for_digest(runtime, found.key_digest)
    if caller is None:
        return None
    return SignedIn(caller, found.csrf_token)


def csrf_ok(expected: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(expected.encode(), (given or "").encode())


async def sign_out(session: AsyncSession, token: str | None) -> None:
    if token:
        await session.execute(delete(ConsoleSession).where(ConsoleSession.token_hash == _hash(token)))
