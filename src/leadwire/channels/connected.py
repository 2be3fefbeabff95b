"""Connected accounts: the mailboxes, LinkedIn and WhatsApp senders a user sends through.

Shared by every capability that acts through an account (outreach dispatches, LinkedIn engagement) and
by the accounts capability that lists them; the admin CLI adds them. Provider settings that are not
secret are kept in clear, secrets Fernet-encrypted with the instance key (`platform/crypto.py`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NoReturn

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.channels import pause_rules
from leadwire.channels.values import CHANNELS, PROVIDERS_BY_CHANNEL, STATUSES
from leadwire.platform.crypto import SecretBox
from leadwire.platform.db import Base, JsonType, UtcDateTime, transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import JobContext, JobFailure
from leadwire.platform.time import utcnow
from leadwire.platform.users import User
from leadwire.providers.channels import ChannelError


class ConnectAccount(Base):
    __tablename__ = "connect_accounts"
    __table_args__ = (Index("ix_connect_accounts_user_channel", "user_id", "channel"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    provider: Mapped[str] = mapped_column(String(32))
    display_name: Mapped[str] = mapped_column(String(200))
    identifier: Mapped[str] = mapped_column(String(320))
    status: Mapped[str] = mapped_column(String(32))
    can_send: Mapped[bool] = mapped_column(Boolean)
    can_receive: Mapped[bool] = mapped_column(Boolean)
    # Provider settings that are not secret (host, port, account ids) in clear, secrets Fernet-encrypted.
    settings: Mapped[dict[str, Any]] = mapped_column(JsonType)
    encrypted_secret: Mapped[str | None] = mapped_column(Text, nullable=True)
    # While `status` is `paused` (a provider said "slow down"): why, and when sending resumes by itself.
    paused_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)
    resume_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    # Pauses in a row (each back-off doubles); counting starts again a day after the last pause ended.
    pause_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


def account_can_send(account: ConnectAccount) -> bool:
    """Can send now: connected, or paused by a pause that is over."""
    return pause_rules.shown_status(account, utcnow()) == "connected" and account.can_send


def account_takes_sends(account: ConnectAccount) -> bool:
    """Accepts a send now: it can send, or it is paused and its sends wait for it."""
    return account_can_send(account) or (account.status == "paused" and account.can_send)


def account_can_receive(account: ConnectAccount) -> bool:
    return pause_rules.shown_status(account, utcnow()) == "connected" and account.can_receive


async def add_account(
    session: AsyncSession,
    *,
    user_id: str,
    channel: str,
    provider: str,
    display_name: str,
    identifier: str,
    settings: dict[str, Any] | None = None,
    secret: dict[str, Any] | None = None,
    box: SecretBox | None = None,
) -> ConnectAccount:
    if channel not in CHANNELS:
        raise ValueError(f"channel must be one of {', '.join(CHANNELS)}")
    if provider not in PROVIDERS_BY_CHANNEL[channel]:
        raise ValueError(f"provider for {channel} must be one of {', '.join(PROVIDERS_BY_CHANNEL[channel])}")
    if secret and box is None:
        raise ValueError("a secret needs the instance key to be stored")
    if await session.get(User, user_id) is None:
        raise LookupError(f"no user {user_id}")
    now = utcnow()
    account = ConnectAccount(
        id=new_id("acct"),
        user_id=user_id,
        channel=channel,
        provider=provider,
        display_name=display_name,
        identifier=identifier,
        status="connected",
        can_send=True,
        can_receive=channel != "whatsapp" or provider == "whatsapp_cloud",
        settings=settings or {},
        encrypted_secret=box.seal(secret) if secret and box else None,
        created_at=now,
        updated_at=now,
    )
    session.add(account)
    await session.flush()
    return account


async def set_status(session: AsyncSession, account_id: str, status: str) -> ConnectAccount:
    if status not in STATUSES:
        raise ValueError(f"status must be one of {', '.join(STATUSES)}")
    account = await session.get(ConnectAccount, account_id)
    if account is None:
        raise LookupError(f"no account {account_id}")
    account.status = status
    account.updated_at = utcnow()
    return account


async def list_accounts(
    session: AsyncSession, user_id: str, *, can_send: bool | None = None, channel: str | None = None
) -> list[ConnectAccount]:
    query = select(ConnectAccount).where(ConnectAccount.user_id == user_id)
    if channel is not None:
        query = query.where(ConnectAccount.channel == channel)
    accounts = list(
        (await session.execute(query.order_by(ConnectAccount.created_at, ConnectAccount.id))).scalars()
    )
    if can_send is not None:
        accounts = [a for a in accounts if account_can_send(a) == can_send]
    return accounts


async def get_owned_account(session: AsyncSession, user_id: str, account_id: str) -> ConnectAccount:
    account = await session.get(ConnectAccount, account_id) if len(account_id) <= 64 else None
    if account is None or account.user_id != user_id:
        raise ApiError("account_not_found", param="account_id")
    return account


def require_sendable(account: ConnectAccount) -> None:
    """409 when the account cannot send now (docs/api.md, Errors: `connect_account_*`). A paused account
    takes sends: they wait for it to resume."""
    if account.status == "reconnect_required":
        raise ApiError("connect_account_reconnect_required")
    if not account_takes_sends(account):
        raise ApiError("connect_account_not_sendable")


def adapter_arguments(account: ConnectAccount, secret_key: str) -> dict[str, Any]:
    """What `providers.registry.channel_for` takes to build this account's adapter: its channel,
    provider, identifier, clear settings and decrypted secret."""
    secret = SecretBox(secret_key).open(account.encrypted_secret) if account.encrypted_secret else None
    return {
        "channel": account.channel,
        "provider": account.provider,
        "identifier": account.identifier,
        "account_settings": account.settings,
        "secret": secret,
    }


async def account_for_job(ctx: JobContext, account_id: str) -> ConnectAccount:
    """The account a job acts through, as it is now: one disconnected (or gone) since the job was
    accepted acts for nobody, and the job fails `account_disconnected`. A paused one is returned: the
    caller holds the job (`pausing.await_turn`)."""
    async with transaction(ctx.sessionmaker) as session:
        account = await session.get(ConnectAccount, account_id)
    if account is None or account.user_id != ctx.user_id or not account.can_send:
        raise JobFailure("account_disconnected")
    if account.status not in ("connected", "paused"):
        raise JobFailure("account_disconnected")
    return account


async def fail_action(ctx: JobContext, account_id: str, error: ChannelError) -> NoReturn:
    """Fail a job whose provider call failed: `delivery_unknown` when the provider may have acted, else
    its code. A refused account is marked `reconnect_required` so the next request gets the 409; one
    its provider asked to slow down is paused (`pausing.pause`)."""
    if error.code == "account_disconnected" or error.pause_seconds is not None:
        async with transaction(ctx.sessionmaker) as session:
            account = await session.get(ConnectAccount, account_id)
            if account is not None and error.code == "account_disconnected":
                account.status, account.updated_at = "reconnect_required", utcnow()
            elif account is not None and error.pause_seconds is not None:
                reason = f"{error.code}: {error.detail}" if error.detail else error.code
                pause_rules.pause(account, reason=reason, hint_seconds=error.pause_seconds)
    raise JobFailure("delivery_unknown" if error.sent_unknown else error.code, error.detail)
