"""A company import is written in batches, each its own transaction, and counts as a whole: another
account imports between two batches, the import is read by nothing until it completed, and a failed
one leaves nothing, not even a place under the account's bound. The tests act between two batches by
taking the place of `platform.batches.step_aside` (deterministic, whatever the machine's speed)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from leadwire.platform import batches, db
from leadwire.platform.errors import ApiError
from leadwire.platform.runtime import Runtime
from leadwire.websets import imports
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok

IMPORTS = "/api/v2/imports"


def _csv(count: int) -> bytes:
    return ("name,domain\n" + "".join(f"Firm {n},firm{n}.example\n" for n in range(count))).encode()


async def _import(client: httpx.AsyncClient, owner: TestAccount, count: int = 5) -> httpx.Response:
    return await client.post(
        IMPORTS, content=_csv(count), headers={**owner.headers, "Content-Type": "text/csv"}
    )


async def _listed(client: httpx.AsyncClient, owner: TestAccount) -> list[dict[str, Any]]:
    return list(assert_ok(await client.get(IMPORTS, headers=owner.headers))["items"])


async def test_another_account_imports_between_two_batches_and_an_import_is_read_once_complete(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner, other = await accounts.create(), await accounts.create()
    monkeypatch.setattr(imports, "BATCH", 2)
    seen: dict[str, Any] = {}

    async def act() -> None:
        if not seen:
            seen["listed"] = await _listed(client, owner)
            seen["other"] = await _import(client, other, 1)

    async def step_aside(single_writer: bool, took: float) -> None:
        await asyncio.create_task(act())  # another client's requests, in their own request context

    monkeypatch.setattr(batches, "step_aside", step_aside)
    created = assert_ok(await _import(client, owner), 201)["item"]
    assert seen["listed"] == []  # importing: not listed yet
    assert_ok(seen["other"], 201)
    assert (created["status"], created["accepted"]) == ("completed", 5)
    assert [found["id"] for found in await _listed(client, owner)] == [created["id"]]
    async with db.transaction(runtime.sessionmaker) as session:
        assert await imports.row_count(session, created["id"]) == 5


async def test_a_failed_import_leaves_nothing_and_holds_no_place_under_the_bound(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = await accounts.create()
    monkeypatch.setattr(imports, "BATCH", 2)
    monkeypatch.setattr(imports, "MAX_IMPORTS_PER_ACCOUNT", 1)
    insert_rows = imports.insert_rows
    written: list[int] = []

    async def failing(*args: Any) -> None:
        written.append(1)
        if len(written) == 2:
            raise ApiError("task_unavailable", detail="the database went away")
        await insert_rows(*args)

    monkeypatch.setattr(imports, "insert_rows", failing)
    assert_error(await _import(client, owner), 503, "task_unavailable")
    assert await _listed(client, owner) == []
    monkeypatch.setattr(imports, "insert_rows", insert_rows)
    assert_ok(await _import(client, owner), 201)  # the bound of one: the failed import took no place
    assert_error(await _import(client, owner), 409, "import_limit_exceeded")


async def test_a_deleted_import_is_gone_at_once_and_its_rows_go_a_batch_at_a_time(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = await accounts.create()
    created = assert_ok(await _import(client, owner), 201)["item"]
    monkeypatch.setattr(imports, "BATCH", 2)
    seen: list[list[dict[str, Any]]] = []

    async def step_aside(single_writer: bool, took: float) -> None:
        seen.append(await asyncio.create_task(_listed(client, owner)))

    monkeypatch.setattr(batches, "step_aside", step_aside)
    assert_ok(await client.delete(f"{IMPORTS}/{created['id']}", headers=owner.headers))
    assert seen and all(listed == [] for listed in seen)  # gone while its rows were being deleted
    assert_error(
        await client.get(f"{IMPORTS}/{created['id']}", headers=owner.headers), 404, "import_not_found"
    )
    async with db.transaction(runtime.sessionmaker) as session:
        assert await imports.row_count(session, created["id"]) == 0
