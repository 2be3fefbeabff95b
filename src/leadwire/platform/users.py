"""Users (account owners) and their API keys: issuing, hashing, revoking and looking keys up."""

from __future__ import annotations

import hashlib
import secrets
import string
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ForeignKey, Index, String, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, JsonType, UtcDateTime
from leadwire.platform.ids import new_id
from leadwire.platform.notify import KEY_CHANNEL, Notifier
from leadwire.platform.plans import PLANS
from leadwire.platform.time import utcnow

# The scope vocabulary: each capability declares its scopes (`Capability.scopes`); installing the
# capabilities registers them here, in declaration order.
_SCOPES: list[str] = []


def register_scopes(scopes: tuple[str, ...]) -> None:
    for scope in scopes:
        if scope not in _SCOPES:
            _SCOPES.append(scope)


def all_scopes() -> tuple[str, ...]:
    """Every scope of the installed capabilities (what an `all`-scopes key holds)."""
    return tuple(_SCOPES)


_BASE62 = string.digits + string.ascii_letters
# The domain event a revocation through the API reports, `{"key_ids": [...]}` (never sent to a webhook):
# a capability holding work set up in a key's name (a list's monitors) stops it in that transaction.
KEYS_REVOKED = "keys.revoked"


class User(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    plan: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class ApiKey(Base):
    __tablename__ = "api_keys"
    __table_args__ = (
        Index("ix_api_keys_user_id", "user_id"),
        Index("ix_api_keys_created_by", "created_by_key_id"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    prefix: Mapped[str] = mapped_column(String(16))
    # A label of the owner's choosing ("CI", "Zapier"), shown beside the prefix; never part of the key.
    name: Mapped[str | None] = mapped_column(String(100), nullable=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    mode: Mapped[str] = mapped_column(String(8))
    scopes: Mapped[list[str]] = mapped_column(JsonType)
    expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    # The key that created it through the API (None: issued by the operator's CLI or the console's
    # sign-up): revoking a key revokes the keys it created, and theirs.
    created_by_key_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


@dataclass(frozen=True)
class IssuedKey:
    key_id: str
    key: str


def digest_key(raw_key: str) -> str:
    return hashlib.sha256(raw_key.encode()).hexdigest()


def generate_raw_key(mode: str) -> str:
    return f"lw_{mode}_" + "".join(secrets.choice(_BASE62) for _ in range(32))


def parse_scopes(value: str) -> list[str]:
    if value.strip() == "all":
        return list(all_scopes())
    scopes = [s.strip() for s in value.split(",") if s.strip()]
    unknown = [s for s in scopes if s not in all_scopes()]
    if unknown:
        raise ValueError(f"unknown scopes: {', '.join(unknown)}")
    return scopes


async def create_user(session: AsyncSession, *, email: str, plan: str = "free") -> User:
    if plan not in PLANS:
        raise ValueError(f"unknown plan {plan!r}")
    user = User(id=new_id("usr"), email=email.strip().lower(), plan=plan, created_at=utcnow())
    session.add(user)
    await session.flush()
    return user


async def find_user_by_email(session: AsyncSession, email: str) -> User | None:
    result = await session.execute(select(User).where(User.email == email.strip().lower()))
    return result.scalar_one_or_none()


async def lock_account_counts(session: AsyncSession, user_id: str) -> None:
    """Lock the account's `users` row until the transaction ends: what a creation that checks one of the
    account's counts (webhooks, keys, monitors, imports, suppressions) takes first, so two at once count
    one after the other. `FOR NO KEY UPDATE` on PostgreSQL: the account's other inserts, whose foreign key
    takes the row `FOR KEY SHARE`, need not wait behind it (SQLite's `BEGIN IMMEDIATE` already writes one
    transaction at a time). Not the balance row (`ledger.lock_account`), which job creation locks."""
    await session.execute(select(User.id).where(User.id == user_id).with_for_update(key_share=True))


async def issue_key(
    session: AsyncSession,
    *,
    user_id: str,
    scopes: list[str],
    mode: str = "live",
    expires_in: timedelta | None = None,
    name: str | None = None,
) -> IssuedKey:
    if mode not in ("live", "test"):
        raise ValueError("mode must be live or test")
    if await session.get(User, user_id) is None:
        raise LookupError(f"no user {user_id}")
    raw = generate_raw_key(mode)
    now = utcnow()
    key = ApiKey(
        id=new_id("key"),
        user_id=user_id,
        prefix=raw[len(f"lw_{mode}_") :][:8],
        name=name,
        digest=digest_key(raw),
        mode=mode,
        scopes=sorted(set(scopes)),
        expires_at=now + expires_in if expires_in is not None else None,
        revoked_at=None,
        created_at=now,
    )
    session.add(key)
    await session.flush()
    return IssuedKey(key_id=key.id, key=raw)


async def revoke_key(session: AsyncSession, notifier: Notifier, key_id: str) -> ApiKey:
    """Revoke the key and the keys it created (`revoke_with_created`)."""
    key, _created = await revoke_with_created(session, notifier, key_id)
    return key


async def revoke_with_created(
    session: AsyncSession, notifier: Notifier, key_id: str
) -> tuple[ApiKey, list[ApiKey]]:
    """Revoke the key and, transitively, every live key it created (a key made by a key never outlives
    it), announcing each in the same transaction: every process that cached one forgets it when this
    commits (`platform.key_cache`). The keys revoked with it are returned beside it (none when they
    were revoked already); a key already revoked still takes the live keys it created with it."""
    key = await session.get(ApiKey, key_id)
    if key is None:
        raise LookupError(f"no key {key_id}")
    now = utcnow()
    if key.revoked_at is None:
        key.revoked_at = now
    await notifier.announce(session, KEY_CHANNEL, key.id)
    created: list[ApiKey] = []
    makers, seen = [key.id], {key.id}
    while makers:  # a level of the tree at a time; each key is seen once, so it ends
        children = [
            child
            for child in (
                await session.execute(
                    select(ApiKey)
                    .where(ApiKey.user_id == key.user_id, ApiKey.created_by_key_id.in_(makers))
                    .order_by(ApiKey.id)
                )
            ).scalars()
            if child.id not in seen
        ]
        seen.update(child.id for child in children)
        for child in children:
            if child.revoked_at is None:
                child.revoked_at = now
                created.append(child)
                await notifier.announce(session, KEY_CHANNEL, child.id)
        makers = [child.id for child in children]
    return key, created


def is_live(key: ApiKey | None, now: datetime) -> bool:
    """Whether the key authenticates at `now`: it exists, is not revoked and has not expired."""
    if key is None or key.revoked_at is not None:
        return False
    return key.expires_at is None or key.expires_at > now


def live_scopes(key: ApiKey | None, now: datetime) -> frozenset[str]:
    """The scopes a key holds as it stands at `now`: its own while it is live, none once it is revoked,
    expired or gone. What work done later in a key's name reads with (a job, a monitor's slot, a
    webhook's events), so a revocation closes all of them alike."""
    return frozenset(key.scopes) if key is not None and is_live(key, now) else frozenset()


async def list_keys(session: AsyncSession, user_id: str) -> list[ApiKey]:
    """A user's keys, oldest first (what rotation needs: which key ids exist, which are still live)."""
    if await session.get(User, user_id) is None:
        raise LookupError(f"no user {user_id}")
    result = await session.execute(
        select(ApiKey).where(ApiKey.user_id == user_id).order_by(ApiKey.created_at, ApiKey.id)
    )
    return list(result.scalars())


async def find_key(session: AsyncSession, raw_key: str) -> tuple[ApiKey, User] | None:
    return await find_key_by_digest(session, digest_key(raw_key))


async def find_key_by_digest(session: AsyncSession, digest: str) -> tuple[ApiKey, User] | None:
    result = await session.execute(
        select(ApiKey, User).join(User, User.id == ApiKey.user_id).where(ApiKey.digest == digest)
    )
    row = result.first()
    return (row[0], row[1]) if row else None
