"""A suppression CSV is written in batches, each its own transaction, and counts as a whole: another
account writes between two batches, the import's entries count only once it completed, a failed or
cut-off import leaves none counted, and the account's bound holds room for a running import's lines.

The tests act between two batches by taking the place of `platform.batches.step_aside`, the pause the
import makes there: deterministic, whatever the machine's speed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

import httpx
import pytest

from leadwire.outreach import suppression_import, suppressions
from leadwire.platform import batches
from leadwire.platform.errors import ApiError
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok

SUPPRESSIONS = "/api/v2/outreach/suppressions"
LINES = 5


def _csv(prefix: str, count: int = LINES) -> bytes:
    return ("channel,value\n" + "".join(f"email,{prefix}{n}@acme.example\n" for n in range(count))).encode()


async def _import(client: httpx.AsyncClient, owner: TestAccount, body: bytes) -> httpx.Response:
    return await client.post(
        f"{SUPPRESSIONS}/import", content=body, headers={**owner.headers, "Content-Type": "text/csv"}
    )


async def _listed(client: httpx.AsyncClient, owner: TestAccount) -> list[str]:
    page = assert_ok(await client.get(SUPPRESSIONS, params={"limit": 100}, headers=owner.headers))
    return sorted(entry["value"] for entry in page["items"])


def _between_batches(
    monkeypatch: pytest.MonkeyPatch, act: Callable[[int], Coroutine[Any, Any, None]]
) -> list[int]:
    """Batches of 2 lines; `act(n)` runs after the n-th batch committed (from 1). The calls made."""
    monkeypatch.setattr(suppression_import, "BATCH", 2)
    calls: list[int] = []

    async def step_aside(single_writer: bool, took: float) -> None:
        calls.append(len(calls) + 1)
        # A task of its own, as another client's requests would be: the requests it makes set their
        # own request context, not the import's.
        await asyncio.create_task(act(calls[-1]))

    monkeypatch.setattr(batches, "step_aside", step_aside)
    return calls


async def test_another_account_writes_between_two_batches_and_the_import_counts_once_complete(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner, other = await accounts.create(), await accounts.create()
    seen: dict[str, Any] = {}

    async def act(batch: int) -> None:
        if batch == 1:
            # On SQLite a write transaction held across the batches would keep this waiting for the lock.
            seen["other"] = await client.post(
                SUPPRESSIONS, json={"channel": "email", "value": "x@other.example"}, headers=other.headers
            )
            seen["mid_list"] = await _listed(client, owner)
            seen["again"] = await _import(client, owner, _csv("again"))

    calls = _between_batches(monkeypatch, act)
    done = assert_ok(await _import(client, owner, _csv("user")))["item"]
    assert calls == [1, 2]  # 5 lines in batches of 2
    assert_ok(seen["other"], 201)
    assert seen["mid_list"] == []  # written, not counted: the import had not completed
    assert_error(seen["again"], 409, "suppression_import_in_progress")
    assert done == {"accepted": 5, "added": 5, "already_listed": 0, "rejected": 0, "errors": []}
    assert await _listed(client, owner) == [f"user{n}@acme.example" for n in range(LINES)]
    assert await _listed(client, other) == ["x@other.example"]


async def test_a_failed_import_leaves_nothing_counted_and_the_next_one_adds_every_line(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = await accounts.create()
    monkeypatch.setattr(suppression_import, "BATCH", 2)
    insert_entries = suppressions.insert_entries
    written: list[int] = []

    async def failing(*args: Any, **kwargs: Any) -> int:
        written.append(1)
        if len(written) == 3:
            raise ApiError("task_unavailable", detail="the database went away")
        return await insert_entries(*args, **kwargs)

    monkeypatch.setattr(suppressions, "insert_entries", failing)
    assert_error(await _import(client, owner, _csv("user")), 503, "task_unavailable")
    assert await _listed(client, owner) == []
    monkeypatch.setattr(suppressions, "insert_entries", insert_entries)
    monkeypatch.setattr(suppressions, "MAX_PER_ACCOUNT", LINES)  # the failed import holds no room
    done = assert_ok(await _import(client, owner, _csv("user")))["item"]
    assert (done["added"], done["already_listed"]) == (5, 0)  # its first batches were deleted


async def test_an_import_cut_off_counts_nothing_and_is_given_up_by_the_next_once_stale(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = await accounts.create()

    async def die(batch: int) -> None:
        raise ApiError("task_unavailable", detail="the process ended")

    async def nothing(*args: Any) -> None:  # a process that ends cleans nothing up
        return None

    _between_batches(monkeypatch, die)
    monkeypatch.setattr(suppression_import, "_give_up", nothing)
    assert_error(await _import(client, owner, _csv("user")), 503, "task_unavailable")
    assert await _listed(client, owner) == []  # its first batch is written, not counted
    checked = await client.post(
        SUPPRESSIONS, json={"channel": "email", "value": "user0@acme.example"}, headers=owner.headers
    )
    assert checked.status_code == 201  # an entry that did not count is taken over, new
    assert_error(await _import(client, owner, _csv("user")), 409, "suppression_import_in_progress")
    monkeypatch.setattr(suppressions, "STALE", timedelta(0))
    monkeypatch.setattr(batches, "step_aside", lambda single_writer, took: _nothing())
    done = assert_ok(await _import(client, owner, _csv("user")))["item"]
    assert (done["added"], done["already_listed"]) == (4, 1)
    assert await _listed(client, owner) == [f"user{n}@acme.example" for n in range(LINES)]


async def _nothing() -> None:
    return None


async def test_a_running_import_holds_room_for_all_its_lines(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = await accounts.create()
    monkeypatch.setattr(suppressions, "MAX_PER_ACCOUNT", LINES + 1)
    answers: list[httpx.Response] = []

    async def add_two(batch: int) -> None:
        if batch == 1:
            for value in ("a@hand.example", "b@hand.example"):
                answers.append(
                    await client.post(
                        SUPPRESSIONS, json={"channel": "email", "value": value}, headers=owner.headers
                    )
                )

    _between_batches(monkeypatch, add_two)
    assert assert_ok(await _import(client, owner, _csv("user")))["item"]["added"] == LINES
    assert_ok(answers[0], 201)
    assert_error(answers[1], 409, "suppression_limit_exceeded")
    assert len(await _listed(client, owner)) == LINES + 1
