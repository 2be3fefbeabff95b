"""Idempotency keys (Stripe model): the first 2xx response of (key, method, path, Idempotency-Key) is
stored in the same transaction as the job it created and replayed for identical retries.

The record is claimed in its own short transaction before the handler runs, so concurrent identical
requests in any process see it: they get 409 `idempotency_key_in_progress` until it completes.

A claim lives as long as the request holding it: while the handler runs, `keep_claimed` beats the
record's `locked_at` every quarter of `idempotency_lock_timeout_seconds`; a claim not beaten for that
long belongs to a process that died, and the next identical request takes it over. A takeover gives the
record a new id, which is the claim's identity: the first request, if it was only slow, then finds its
claim gone when it completes (its transaction, which holds its job, is rolled back and it answers 409),
so a key never yields two jobs.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import orjson
from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.db import dialect_insert, transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.idempotency_models import IdempotencyRecord
from leadwire.platform.ids import new_id
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow

MAX_KEY_LENGTH = 255
log = logging.getLogger("leadwire.idempotency")


@dataclass(frozen=True)
class Claim:
    """This request owns the key; complete it with the response, or release it on error."""

    record_id: str


@dataclass(frozen=True)
class Replay:
    status: int
    body: dict[str, Any]


def validate_key(key: str) -> str:
    if not key or len(key) > MAX_KEY_LENGTH or not all(32 <= ord(ch) < 127 for ch in key):
        raise ApiError("invalid_request", param="Idempotency-Key", detail="1-255 printable ASCII characters")
    return key


def body_fingerprint(body: bytes) -> str:
    """SHA-256 of the canonical JSON (key order and whitespace do not matter); of the raw bytes when
    the body is not JSON or is nested past what orjson writes back (255 levels: such a body is refused
    by its route anyway, after the key was claimed and then released)."""
    try:
        canonical = orjson.dumps(orjson.loads(body), option=orjson.OPT_SORT_KEYS) if body.strip() else b""
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        canonical = body
    return hashlib.sha256(canonical).hexdigest()


async def claim(
    runtime: Runtime, *, api_key_id: str, method: str, path: str, key: str, body: bytes
) -> Claim | Replay:
    fingerprint = body_fingerprint(body)
    now = utcnow()
    settings = runtime.settings
    async with transaction(runtime.sessionmaker) as session:
        record_id = new_id("idem")
        values = {
            "id": record_id,
            "api_key_id": api_key_id,
            "method": method,
            "path": path,
            "key": key,
            "body_hash": fingerprint,
            "state": "in_progress",
            "locked_at": now,
            "created_at": now,
            "expires_at": now + timedelta(hours=settings.idempotency_ttl_hours),
        }
        inserted = await session.execute(
            dialect_insert(session)(IdempotencyRecord)
            .values(**values)
            .on_conflict_do_nothing()
            .returning(IdempotencyRecord.id)
        )
        if inserted.scalar_one_or_none() is not None:
            return Claim(record_id)
        existing = (
            await session.execute(
                select(IdempotencyRecord)
                .where(
                    IdempotencyRecord.api_key_id == api_key_id,
                    IdempotencyRecord.method == method,
                    IdempotencyRecord.path == path,
                    IdempotencyRecord.key == key,
                )
                .with_for_update()
            )
        ).scalar_one()
        return _decide(existing, fingerprint, now, values, settings.idempotency_lock_timeout_seconds)


def _decide(
    existing: IdempotencyRecord, fingerprint: str, now: Any, values: dict[str, Any], lock_timeout: float
) -> Claim | Replay:
    if existing.expires_at <= now:
        # An expired record is a fresh start: take it over with this request's body.
        for name in ("body_hash", "state", "locked_at", "created_at", "expires_at"):
            setattr(existing, name, values[name])
        existing.response_status = None
        existing.response_body = None
        return _take_over(existing, values["id"])
    if existing.body_hash != fingerprint:
        raise ApiError("idempotency_conflict", param="Idempotency-Key")
    if (
        existing.state == "done"
        and existing.response_status is not None
        and existing.response_body is not None
    ):
        return Replay(existing.response_status, existing.response_body)
    if (now - existing.locked_at).total_seconds() >= lock_timeout:
        existing.locked_at = now  # the first request's process died: its claim stopped beating
        return _take_over(existing, values["id"])
    raise ApiError("idempotency_key_in_progress", param="Idempotency-Key", headers={"Retry-After": "1"})


def _take_over(existing: IdempotencyRecord, new_id_: str) -> Claim:
    """The record under a new id: the claim of the request that held it (by the old id) is void."""
    existing.id = new_id_
    return Claim(new_id_)


async def complete(session: AsyncSession, claim_: Claim, *, status: int, body: dict[str, Any]) -> None:
    """Store the response in the caller's transaction (the one that creates the job). A claim taken
    over meanwhile (this request was too slow to beat it) is 409 `idempotency_key_in_progress`: the
    caller's transaction rolls back with its job, and a retry gets the other request's answer."""
    stored = await session.execute(
        update(IdempotencyRecord)
        .where(IdempotencyRecord.id == claim_.record_id, IdempotencyRecord.state == "in_progress")
        .values(state="done", response_status=status, response_body=body)
        .execution_options(synchronize_session=False)
    )
    if stored.rowcount != 1:  # type: ignore[attr-defined]
        raise ApiError("idempotency_key_in_progress", param="Idempotency-Key", headers={"Retry-After": "1"})


async def rewrite(session: AsyncSession, claim_: Claim, *, status: int, body: dict[str, Any]) -> None:
    """Replace the stored response of a completed claim (after `Prefer: wait`, what was actually sent)."""
    await session.execute(
        update(IdempotencyRecord)
        .where(IdempotencyRecord.id == claim_.record_id, IdempotencyRecord.state == "done")
        .values(response_status=status, response_body=body)
        .execution_options(synchronize_session=False)
    )


def beat_seconds(runtime: Runtime) -> float:
    return max(0.05, runtime.settings.idempotency_lock_timeout_seconds / 4)


async def keep_claimed(runtime: Runtime, claim_: Claim) -> None:
    """Beat the claim while its request runs (cancelled when it ends); stops once the claim is done,
    released or taken over. A beat that fails is logged and tried again at the next one."""
    while True:
        await asyncio.sleep(beat_seconds(runtime))
        try:
            async with transaction(runtime.sessionmaker) as session:
                beaten = await session.execute(
                    update(IdempotencyRecord)
                    .where(IdempotencyRecord.id == claim_.record_id, IdempotencyRecord.state == "in_progress")
                    .values(locked_at=utcnow())
                    .execution_options(synchronize_session=False)
                )
        except Exception as exc:  # the database is busy or away: the next beat tries again
            log.warning("idempotency claim not beaten: %s", type(exc).__name__)
            continue
        if beaten.rowcount != 1:  # type: ignore[attr-defined]
            return


async def release(runtime: Runtime, claim_: Claim) -> None:
    """An error response is not stored: free the key for a corrected retry."""
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(
            delete(IdempotencyRecord)
            .where(IdempotencyRecord.id == claim_.record_id, IdempotencyRecord.state == "in_progress")
            .execution_options(synchronize_session=False)
        )


async def prune_expired(session: AsyncSession) -> int:
    result = await session.execute(
        delete(IdempotencyRecord)
        .where(IdempotencyRecord.expires_at <= utcnow())
        .execution_options(synchronize_session=False)
    )
    return int(result.rowcount or 0)  # type: ignore[attr-defined]
