"""Wire shape of a connected account (docs/api.md, Connected accounts)."""

from __future__ import annotations

from typing import Literal, cast

from typing_extensions import TypedDict

from leadwire.channels.connected import ConnectAccount, account_can_receive, account_can_send
from leadwire.channels.pause_rules import shown_status
from leadwire.platform.jobs import Channel
from leadwire.platform.time import iso, utcnow

AccountStatus = Literal["connected", "paused", "reconnect_required", "disconnected"]


class ConnectAccountOut(TypedDict):
    account_id: str
    channel: Channel
    provider: str
    display_name: str
    identifier: str
    status: AccountStatus
    can_send: bool
    can_receive: bool
    # While `status` is `paused` (a provider asked to slow down): why, and when sending resumes.
    paused_reason: str | None
    resume_at: str | None
    created_at: str


def public_account(account: ConnectAccount) -> ConnectAccountOut:
    status = shown_status(account, utcnow())
    paused = status == "paused"
    return ConnectAccountOut(
        account_id=account.id,
        channel=cast(Channel, account.channel),
        provider=account.provider,
        display_name=account.display_name,
        identifier=account.identifier,
        status=cast(AccountStatus, status),
        can_send=account_can_send(account),
        can_receive=account_can_receive(account),
        paused_reason=account.paused_reason if paused else None,
        resume_at=iso(account.resume_at) if paused else None,
        created_at=iso(account.created_at),
    )
