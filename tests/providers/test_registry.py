"""Connected account → channel adapter: settings in clear, secret decrypted, the right adapter built."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from leadwire.channels import connected
from leadwire.config import Settings
from leadwire.platform.crypto import SecretBox
from leadwire.platform.db import transaction
from leadwire.platform.runtime import Runtime
from leadwire.providers.channels import OutboundMessage
from leadwire.providers.registry import channel_for
from leadwire.providers.sandbox_channels import (
    SandboxEmailChannel,
    SandboxLinkedIn,
    SandboxWhatsAppChannel,
)
from leadwire.providers.unipile import UnipileLinkedIn
from leadwire.providers.whatsapp_cloud import WhatsAppCloud
from tests.support.accounts import AccountFactory
from tests.support.processes import free_port
from tests.support.smtp import Inbox


async def test_smtp_account_sends_through_its_server_with_the_decrypted_password(
    runtime: Runtime, accounts: AccountFactory
) -> None:
    from aiosmtpd.smtp import AuthResult, LoginPassword

    def auth(server, session, envelope, mechanism, data):  # type: ignore[no-untyped-def]
        ok = isinstance(data, LoginPassword) and data.password == b"s3cret"
        return AuthResult(success=ok, handled=False)

    inbox, port = Inbox(), free_port()
    controller = Controller(
        inbox, hostname="127.0.0.1", port=port, authenticator=auth, auth_require_tls=False
    )
    controller.start()
    try:
        owner = await accounts.create()
        box = SecretBox(runtime.settings.resolved_secret_key)
        async with transaction(runtime.sessionmaker) as session:
            account = await connected.add_account(
                session,
                user_id=owner.user_id,
                channel="email",
                provider="smtp",
                display_name="Sales",
                identifier="sales@leadwire.example",
                settings={
                    "smtp_host": "127.0.0.1",
                    "smtp_port": port,
                    "smtp_username": "sales",
                    "smtp_tls": "none",
                    "from_address": "sales@leadwire.example",
                },
                secret={"smtp_password": "s3cret"},
                box=box,
            )
        assert account.encrypted_secret and "s3cret" not in account.encrypted_secret
        channel = channel_for(
            runtime.settings,
            channel=account.channel,
            provider=account.provider,
            identifier=account.identifier,
            account_settings=account.settings,
            secret=box.open(account.encrypted_secret),
        )
        await channel.send(OutboundMessage("dlv_r1", {"address": "jane@acme.example"}, "Hi", "Body"))
    finally:
        controller.stop()
    assert [m["Subject"] for _, m in inbox.messages] == ["Hi"]


def test_each_provider_gets_its_adapter(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)

    def build(channel: str, provider: str, account_settings: dict, secret: dict | None = None):  # type: ignore[no-untyped-def,type-arg]
        return channel_for(
            settings,
            channel=channel,
            provider=provider,
            identifier="id",
            account_settings=account_settings,
            secret=secret,
        )

    assert isinstance(build("email", "sandbox", {}), SandboxEmailChannel)
    assert isinstance(build("whatsapp", "sandbox", {}), SandboxWhatsAppChannel)
    assert isinstance(build("linkedin", "sandbox", {}), SandboxLinkedIn)
    unipile = build(
        "linkedin",
        "unipile",
        {"unipile_dsn": "api1.unipile.com:1", "unipile_account_id": "a"},
        {"api_key": "k"},
    )
    assert isinstance(unipile, UnipileLinkedIn)
    assert isinstance(
        build("whatsapp", "whatsapp_cloud", {"phone_number_id": "1"}, {"access_token": "t"}), WhatsAppCloud
    )
    with pytest.raises(ValueError):
        build("email", "unipile", {})
