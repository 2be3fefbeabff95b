"""`Prefer: wait=N` on creation endpoints (docs/api.md, Prefer: wait; RFC 7240)."""

from __future__ import annotations

import httpx
import pytest

from leadwire.platform.jobs.wait import parse_prefer_wait
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import create_echo, running_worker


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("wait=20", 20),
        ("respond-async, wait=5", 5),
        ("wait=7; foo", 7),
        ('wait="3"', 3),
        ("WAIT=4", 4),
        ("wait=", None),
        ("wait=abc", None),
        ("wait=-1", None),
        ("wait=1.5", None),
        (None, None),
        ("", None),
        ("return=minimal", None),
        ("wait=99999999999", None),
    ],
)
def test_prefer_header_parsing(header: str | None, expected: int | None) -> None:
    assert parse_prefer_wait(header) == expected


async def test_wait_returns_200_with_the_terminal_job(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with running_worker(runtime):
        response = await create_echo(client, acct.headers, {"message": "fast"}, Prefer="wait=10")
    body = assert_ok(response, 200)
    assert body["item"]["status"] == "succeeded" and body["item"]["result"]["message"] == "fast"
    assert response.headers["preference-applied"] == "wait=10"


async def test_wait_timeout_returns_202_with_the_job_as_it_stands(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with running_worker(runtime):
        response = await create_echo(client, acct.headers, {"sleep": 3}, Prefer="wait=1")
    body = assert_ok(response, 202)
    assert body["item"]["status"] in ("queued", "running")
    assert response.headers["preference-applied"] == "wait=1"


async def test_wait_is_capped(client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    runtime.settings.prefer_wait_cap_seconds = 1
    response = await create_echo(client, acct.headers, {}, Prefer="wait=600")
    assert_ok(response, 202)
    assert response.headers["preference-applied"] == "wait=1"


async def test_malformed_prefer_is_ignored(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    response = await create_echo(client, acct.headers, {}, Prefer="wait=soon")
    assert_ok(response, 202)
    assert "preference-applied" not in response.headers
