"""Wire shape of a connected account (DESIGN section 6)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from leadwire.accounts.models import ConnectAccount
from leadwire.platform.time import iso


def account_can_send(account: ConnectAccount) -> bool:
    return account.status == "connected" and account.can_send


def account_can_receive(account: ConnectAccount) -> bool:
    return account.status == "connected" and account.can_receive


def public_account(account: ConnectAccount) -> dict[str, Any]:
    return {
        "account_id": account.id,
        "channel": account.channel,
        "provider": account.provider,
        "display_name": account.display_name,
        "identifier": account.identifier,
        "status": account.status,
        "can_send": account_can_send(account),
        "can_receive": account_can_receive(account),
        "created_at": iso(account.created_at),
    }


class ConnectAccountOut(BaseModel):
    account_id: str
    channel: Literal["email", "linkedin", "whatsapp"]
    provider: str
    display_name: str
    identifier: str
    status: Literal["connected", "reconnect_required", "disconnected"]
    can_send: bool
    can_receive: bool
    created_at: str
