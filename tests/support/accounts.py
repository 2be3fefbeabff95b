"""Builds users, keys and connected accounts through the services (never hand-written SQL)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta

from leadwire.channels import connected
from leadwire.platform.billing import ledger
from leadwire.platform.crypto import SecretBox
from leadwire.platform.db import transaction
from leadwire.platform.runtime import Runtime
from leadwire.platform.users import all_scopes, create_user, issue_key, revoke_key
from tests.support.log_secrets import register_key, register_secret


@dataclass
class TestAccount:
    __test__ = False
    user_id: str
    key_id: str
    key: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


class AccountFactory:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    async def create(
        self, *, plan: str = "business", credits: int = 1000, scopes: list[str] | None = None
    ) -> TestAccount:
        async with transaction(self.runtime.sessionmaker) as session:
            user = await create_user(session, email=f"{uuid.uuid4().hex[:10]}@test.example", plan=plan)
            if credits:
                await ledger.grant(session, user.id, credits)
            issued = await issue_key(
                session, user_id=user.id, scopes=list(all_scopes() if scopes is None else scopes)
            )
        register_key(issued.key, f"API key {issued.key_id}")
        return TestAccount(user_id=user.id, key_id=issued.key_id, key=issued.key)

    async def key(
        self, user_id: str, *, scopes: list[str] | None = None, expires_in: timedelta | None = None
    ) -> TestAccount:
        async with transaction(self.runtime.sessionmaker) as session:
            issued = await issue_key(
                session,
                user_id=user_id,
                scopes=list(all_scopes() if scopes is None else scopes),
                expires_in=expires_in,
            )
        register_key(issued.key, f"API key {issued.key_id}")
        return TestAccount(user_id=user_id, key_id=issued.key_id, key=issued.key)

    async def revoke(self, key_id: str) -> None:
        async with transaction(self.runtime.sessionmaker) as session:
            await revoke_key(session, self.runtime.notifier, key_id)

    async def connect(
        self, user_id: str, channel: str, *, status: str = "connected", provider: str = "sandbox"
    ) -> str:
        async with transaction(self.runtime.sessionmaker) as session:
            account = await connected.add_account(
                session,
                user_id=user_id,
                channel=channel,
                provider=provider,
                display_name=f"{channel} test",
                identifier=f"{channel}-id",
            )
            if status != "connected":
                await connected.set_status(session, account.id, status)
        return account.id

    async def connect_smtp(self, user_id: str, port: int, *, password: str | None = "right") -> str:
        """An email account sending through the SMTP server on loopback `port` (no TLS); with a
        password it logs in as `sender` (tests/support/smtp.py accepts `sender` / `right`)."""
        settings = {
            "smtp_host": "127.0.0.1",
            "smtp_port": port,
            "smtp_tls": "none",
            "from_address": "sales@leadwire.example",
        }
        if password is not None:
            settings["smtp_username"] = "sender"
        secret = {"smtp_password": password} if password is not None else None
        return await self.connect_provider(user_id, "email", "smtp", settings, secret)

    async def connect_provider(
        self,
        user_id: str,
        channel: str,
        provider: str,
        settings: dict[str, object],
        secret: dict[str, object] | None = None,
    ) -> str:
        """An account on a real provider adapter: clear settings, the secret encrypted as the admin CLI
        stores it."""
        box = SecretBox(self.runtime.settings.resolved_secret_key) if secret else None
        for value in (secret or {}).values():
            if isinstance(value, str):
                register_secret(value, f"a {provider} secret")
        async with transaction(self.runtime.sessionmaker) as session:
            account = await connected.add_account(
                session,
                user_id=user_id,
                channel=channel,
                provider=provider,
                display_name=f"{provider} sender",
                identifier=f"{provider}-id",
                settings=settings,
                secret=secret,
                box=box,
            )
        return account.id


def account_at(database_url: str, *, plan: str = "business", credits: int = 10) -> TestAccount:
    """An account made through the services on the database of processes a test started."""
    import asyncio

    from tests.support.jobs import with_runtime

    async def work(runtime: Runtime) -> TestAccount:
        return await AccountFactory(runtime).create(plan=plan, credits=credits)

    account: TestAccount = asyncio.run(with_runtime(database_url, work))
    return account
