"""Wire shape of a connected account (DESIGN section 6)."""

from __future__ import annotations

from typing import Any

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
