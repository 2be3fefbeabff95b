"""The demo account `make serve` bootstraps: a business-plan user with credits, one all-scopes key
written to the data dir, and three sandbox connected accounts. Idempotent across restarts."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.channels import connected
from leadwire.platform.billing import grant
from leadwire.platform.db import transaction
from leadwire.platform.users import all_scopes, create_user, find_key, find_user_by_email, issue_key

DEMO_EMAIL = "demo@leadwire.example"
DEMO_CREDITS = 10_000
SANDBOX_ACCOUNTS = (
    ("email", "Demo mailbox", "demo@leadwire.example"),
    ("linkedin", "Demo LinkedIn", "https://www.linkedin.com/in/leadwire-demo"),
    ("whatsapp", "Demo WhatsApp", "+15550100000"),
)


@dataclass(frozen=True)
class DemoAccount:
    user_id: str
    key: str
    key_created: bool


def _write_key(path: Path, key: str) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # the data directory, as Settings makes it
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    path.chmod(0o600)


async def _valid_saved_key(session: AsyncSession, path: Path, user_id: str) -> str | None:
    # A one-line file read once at start-up: not worth a thread hop.
    saved = path.read_text().strip() if path.exists() else None  # noqa: ASYNC240
    if not saved:
        return None
    found = await find_key(session, saved)
    if found is None or found[1].id != user_id or found[0].revoked_at is not None:
        return None
    # A key saved before a capability brought new scopes (keys:write) lacks them: the demo key holds
    # every scope, so a new one is issued (an existing key's scopes are never widened).
    if not set(all_scopes()) <= set(found[0].scopes):
        return None
    return saved


async def ensure_demo_account(sessionmaker: async_sessionmaker[AsyncSession], data_dir: Path) -> DemoAccount:
    key_path = data_dir / "demo-api-key"
    async with transaction(sessionmaker) as session:
        user = await find_user_by_email(session, DEMO_EMAIL)
        if user is None:
            user = await create_user(session, email=DEMO_EMAIL, plan="business")
            await grant(session, user.id, DEMO_CREDITS)
            for channel, name, identifier in SANDBOX_ACCOUNTS:
                await connected.add_account(
                    session,
                    user_id=user.id,
                    channel=channel,
                    provider="sandbox",
                    display_name=name,
                    identifier=identifier,
                )
        saved = await _valid_saved_key(session, key_path, user.id)
        if saved is not None:
            return DemoAccount(user_id=user.id, key=saved, key_created=False)
        issued = await issue_key(session, user_id=user.id, scopes=list(all_scopes()))
    _write_key(key_path, issued.key)
    return DemoAccount(user_id=user.id, key=issued.key, key_created=True)
