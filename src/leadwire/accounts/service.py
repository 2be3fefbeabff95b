"""Connected accounts: adding them (admin), listing them, and resolving one for an outreach action."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.accounts.models import CHANNELS, PROVIDERS_BY_CHANNEL, STATUSES, ConnectAccount
from leadwire.accounts.schemas import account_can_send
from leadwire.platform.crypto import SecretBox
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.time import utcnow
from leadwire.platform.users import User


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
    """409 when the account cannot send now (DESIGN section 8, dispatch basics)."""
    if account.status == "reconnect_required":
        raise ApiError("connect_account_reconnect_required")
    if not account_can_send(account):
        raise ApiError("connect_account_not_sendable")
