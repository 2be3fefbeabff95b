"""The keys service without HTTP (what the console builds on), and the keys that may use it by default:
the operator's `admin key create` without `--scopes` and the demo key `make serve` prints hold
`keys:read` and `keys:write` (SQLite and PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

import pytest

from leadwire.config import Settings
from leadwire.demo import ensure_demo_account
from leadwire.keys import service
from leadwire.keys.schemas import KeyCreate
from leadwire.platform.callers import Caller
from leadwire.platform.db import transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.plans import get_plan
from leadwire.platform.runtime import Runtime
from leadwire.platform.users import all_scopes, find_key, find_user_by_email
from tests.platform.test_security import admin_cli
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.log_secrets import register_key


def caller_of(account: TestAccount, scopes: list[str]) -> Caller:
    return Caller(
        user_id=account.user_id, key_id=account.key_id, plan=get_plan("business"), scopes=frozenset(scopes)
    )


async def test_the_service_creates_lists_and_revokes_without_http(
    runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    caller = caller_of(owner, list(all_scopes()))
    async with transaction(runtime.sessionmaker) as session:
        made = await service.create_key(session, caller, KeyCreate(name="console", scopes=["credits:read"]))
    register_key(made["key"], "API key created by the service")
    async with transaction(runtime.reader) as session:
        listed, next_cursor = await service.list_keys(
            session, service.cursor_codec(runtime), caller, limit=10, cursor=None
        )
    assert [k["id"] for k in listed] == [made["id"], owner.key_id] and next_cursor is None
    assert "key" not in listed[0] and listed[0]["name"] == "console"
    async with transaction(runtime.sessionmaker) as session:
        revoked = await service.revoke(session, runtime.notifier, caller, made["id"])
    assert revoked["status"] == "revoked"
    async with transaction(runtime.reader) as session:
        found = await find_key(session, made["key"])
    assert found is not None and found[0].revoked_at is not None
    narrow = caller_of(owner, ["keys:write"])
    with pytest.raises(ApiError) as refused:
        async with transaction(runtime.sessionmaker) as session:
            await service.create_key(session, narrow, KeyCreate(scopes=["credits:read"]))
    assert (refused.value.code, refused.value.param) == ("permission_denied", "scopes")


def test_the_operators_default_key_can_manage_keys(settings: Settings) -> None:
    user = admin_cli(settings, "user", "create", "--email", "keys@x.example")
    key = admin_cli(settings, "key", "create", "--user", user["user_id"])
    register_key(str(key["key"]), "API key created by the admin CLI")
    listed = admin_cli(settings, "key", "list", "--user", user["user_id"])
    assert {"keys:read", "keys:write"} <= set(listed["keys"][0]["scopes"])


async def test_the_demo_key_holds_every_scope_and_an_older_one_is_replaced(
    runtime: Runtime, accounts: AccountFactory, tmp_path: Path
) -> None:
    first = await ensure_demo_account(runtime.sessionmaker, tmp_path)
    register_key(first.key, "the demo key")
    async with transaction(runtime.reader) as session:
        found = await find_key(session, first.key)
        demo = await find_user_by_email(session, "demo@leadwire.example")
    assert found is not None and demo is not None
    assert set(found[0].scopes) == set(all_scopes()) >= {"keys:read", "keys:write"}
    # A demo key saved before the keys capability existed: every scope of its day, none of keys.
    older = await accounts.key(demo.id, scopes=[s for s in all_scopes() if not s.startswith("keys:")])
    (tmp_path / "demo-api-key").write_text(older.key + "\n")
    again = await ensure_demo_account(runtime.sessionmaker, tmp_path)
    register_key(again.key, "the demo key")
    assert again.key_created is True and again.key != older.key
    async with transaction(runtime.reader) as session:
        renewed = await find_key(session, again.key)
    assert renewed is not None and set(renewed[0].scopes) == set(all_scopes())
    kept = await ensure_demo_account(runtime.sessionmaker, tmp_path)
    assert (kept.key, kept.key_created) == (again.key, False)
