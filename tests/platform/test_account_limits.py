"""Every per-account (and per-list) count limit holds under concurrency: 40 creations at once, on SQLite
and PostgreSQL, create exactly what the limit leaves room for and refuse the rest with the limit's
code. Each creation counts under a lock (the account's row, the list's row or the balance row), so two
creations at once count one after the other, never both under the bound."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import event

from leadwire.keys.service import LIVE_KEY_LIMIT
from leadwire.platform.plans import PLANS
from leadwire.platform.runtime import Runtime
from leadwire.websets import imports, monitors
from leadwire.websets.enrichment_schemas import MAX_ENRICHMENTS
from leadwire.websets.monitor_schemas import MAX_MONITORS_PER_WEBSET
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok

AT_ONCE = 40
# A public address literal: nothing to resolve, and no delivery is made without a worker.
PUBLIC_URL = "https://93.184.215.14/in"


async def _at_once(create: Callable[[int], Awaitable[httpx.Response]]) -> Counter[tuple[int, str]]:
    """AT_ONCE creations started together; how many answered each (status, error code)."""
    answers = await asyncio.gather(*(create(n) for n in range(AT_ONCE)))
    return Counter(
        (a.status_code, a.json()["error"]["code"] if a.status_code >= 400 else "") for a in answers
    )


async def test_forty_webhooks_at_once_create_exactly_the_limit(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime
) -> None:
    acct = await accounts.create()
    limit = runtime.settings.webhook_limit_per_account
    answers = await _at_once(
        lambda n: client.post(
            "/api/v2/webhooks", json={"url": f"{PUBLIC_URL}/{n}", "events": ["*"]}, headers=acct.headers
        )
    )
    assert answers == {(201, ""): limit, (409, "webhook_limit_exceeded"): AT_ONCE - limit}
    listed = assert_ok(await client.get("/api/v2/webhooks", params={"limit": 100}, headers=acct.headers))
    assert len(listed["items"]) == limit


async def test_forty_keys_at_once_past_the_live_key_limit_create_exactly_the_room_left(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    room = 20
    for n in range(LIVE_KEY_LIMIT - 1 - room):  # the account's own key is live too
        body = {"name": f"before {n}", "scopes": ["credits:read"]}
        assert_ok(await client.post("/api/v2/keys", json=body, headers=acct.headers), 201)
    answers = await _at_once(
        lambda n: client.post(
            "/api/v2/keys", json={"name": f"at once {n}", "scopes": ["credits:read"]}, headers=acct.headers
        )
    )
    assert answers == {(201, ""): room, (409, "api_key_limit_exceeded"): AT_ONCE - room}


async def test_forty_imports_at_once_create_exactly_the_limit(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imports, "MAX_IMPORTS_PER_ACCOUNT", 20)
    acct = await accounts.create()
    headers = {**acct.headers, "Content-Type": "text/csv"}
    answers = await _at_once(
        lambda n: client.post("/api/v2/imports", content=f"name\nCompany {n}\n".encode(), headers=headers)
    )
    assert answers == {(201, ""): 20, (409, "import_limit_exceeded"): AT_ONCE - 20}


async def test_forty_suppressions_at_once_add_exactly_the_room_left(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leadwire.outreach import suppressions

    monkeypatch.setattr(suppressions, "MAX_PER_ACCOUNT", 20)
    acct = await accounts.create()
    answers = await _at_once(
        lambda n: client.post(
            "/api/v2/outreach/suppressions",
            json={"channel": "email", "value": f"person{n}@example.com"},
            headers=acct.headers,
        )
    )
    assert answers == {(201, ""): 20, (409, "suppression_limit_exceeded"): AT_ONCE - 20}


async def _webset(client: httpx.AsyncClient, headers: dict[str, str]) -> str:
    """A list (its run queued: no worker here), to hang monitors and enrichments on."""
    body = {"query": "chemical companies in Switzerland", "count": 25}
    created: dict[str, Any] = assert_ok(await client.post("/api/v2/websets", json=body, headers=headers), 202)
    return str(created["item"]["webset"]["id"])


async def test_forty_monitors_at_once_on_one_list_create_exactly_its_limit(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    webset_id = await _webset(client, acct.headers)
    body = {"webset_id": webset_id, "cadence": {"cron": "0 * * * *", "timezone": "UTC"}}
    answers = await _at_once(lambda n: client.post("/api/v2/monitors", json=body, headers=acct.headers))
    expected = MAX_MONITORS_PER_WEBSET
    assert answers == {(201, ""): expected, (409, "monitor_limit_exceeded"): AT_ONCE - expected}


async def test_forty_enrichments_at_once_on_one_list_create_exactly_its_limit(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=100_000)
    webset_id = await _webset(client, acct.headers)
    answers = await _at_once(
        lambda n: client.post(
            f"/api/v2/websets/{webset_id}/enrichments",
            json={"description": f"Number of employees {n}", "format": "number"},
            headers=acct.headers,
        )
    )
    assert answers == {
        (202, ""): MAX_ENRICHMENTS,
        (409, "enrichment_limit_exceeded"): AT_ONCE - MAX_ENRICHMENTS,
    }


async def test_forty_jobs_at_once_start_exactly_the_plans_active_job_limit(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(plan="pro", credits=100_000)
    limit = PLANS["pro"].max_active_jobs
    answers = await _at_once(
        lambda n: client.post("/api/v2/test/echo", json={"message": f"job {n}"}, headers=acct.headers)
    )
    assert answers == {(202, ""): limit, (429, "api_rate_limit_exceeded"): AT_ONCE - limit}


async def test_forty_monitors_at_once_across_lists_create_exactly_the_accounts_limit(
    client: httpx.AsyncClient, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight lists leave room for 40 monitors; the account's bound (20 here) is what refuses."""
    monkeypatch.setattr(monitors, "MAX_MONITORS_PER_ACCOUNT", 20)
    acct = await accounts.create(credits=100_000)
    lists = [await _webset(client, acct.headers) for _ in range(AT_ONCE // MAX_MONITORS_PER_WEBSET)]
    cadence = {"cron": "0 * * * *", "timezone": "UTC"}
    answers = await _at_once(
        lambda n: client.post(
            "/api/v2/monitors",
            json={"webset_id": lists[n % len(lists)], "cadence": cadence},
            headers=acct.headers,
        )
    )
    assert answers == {(201, ""): 20, (409, "monitor_limit_exceeded"): AT_ONCE - 20}
    listed = assert_ok(await client.get("/api/v2/monitors", params={"limit": 100}, headers=acct.headers))
    assert len(listed["items"]) == 20


# Each creation that counts under the account's lock, as a client makes it (one of the account's lists
# is made first for the monitor).
Creation = Callable[[httpx.AsyncClient, dict[str, str], str], Awaitable[httpx.Response]]
_LOCKING_CREATIONS: dict[str, Creation] = {
    "webhook": lambda client, headers, _: client.post(
        "/api/v2/webhooks", json={"url": PUBLIC_URL, "events": ["*"]}, headers=headers
    ),
    "key": lambda client, headers, _: client.post(
        "/api/v2/keys", json={"name": "probe", "scopes": ["credits:read"]}, headers=headers
    ),
    "monitor": lambda client, headers, webset_id: client.post(
        "/api/v2/monitors",
        json={"webset_id": webset_id, "cadence": {"cron": "0 * * * *", "timezone": "UTC"}},
        headers=headers,
    ),
    "import": lambda client, headers, _: client.post(
        "/api/v2/imports", content=b"name\nCompany A\n", headers={**headers, "Content-Type": "text/csv"}
    ),
    "suppression": lambda client, headers, _: client.post(
        "/api/v2/outreach/suppressions",
        json={"channel": "email", "value": "person@example.com"},
        headers=headers,
    ),
    "suppression import": lambda client, headers, _: client.post(
        "/api/v2/outreach/suppressions/import",
        content=b"channel,value\nemail,other@example.com\n",
        headers={**headers, "Content-Type": "text/csv"},
    ),
}
_ACCOUNT_ROW_LOCK = re.compile(r"\bFROM users\b.*\bFOR\b", re.DOTALL)


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
@pytest.mark.parametrize("creation", sorted(_LOCKING_CREATIONS))
async def test_a_creation_counting_under_the_accounts_lock_holds_up_only_another_count(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime, database_url: str, creation: str
) -> None:
    """PostgreSQL only, where a lock has a strength (SQLite writes one transaction at a time). Right
    after the creation locks the account's row, a second connection probes it without waiting: the
    foreign-key check of any insert of the account (`FOR KEY SHARE`) gets it, another creation's lock
    does not. A plain `FOR UPDATE` would hold up every insert of the account behind the creation."""
    acct = await accounts.create(credits=100_000)
    webset_id = await _webset(client, acct.headers)
    probes: list[tuple[bool, bool]] = []

    def could_take(probe: psycopg.Connection[Any], strength: str) -> bool:
        try:
            probe.execute(f"SELECT 1 FROM users WHERE id = %s FOR {strength} NOWAIT", (acct.user_id,))
        except psycopg.errors.LockNotAvailable:
            return False
        finally:
            probe.rollback()
        return True

    def probe_the_lock(*args: Any) -> None:
        statement, parameters = args[2], args[3]
        if _ACCOUNT_ROW_LOCK.search(statement) and acct.user_id in tuple(parameters or ()):
            dsn = database_url.replace("postgresql+asyncpg://", "postgresql://", 1)
            with psycopg.connect(dsn) as probe:
                probes.append((could_take(probe, "KEY SHARE"), could_take(probe, "NO KEY UPDATE")))

    event.listen(runtime.engine.sync_engine, "after_cursor_execute", probe_the_lock)
    try:
        answer = await _LOCKING_CREATIONS[creation](client, acct.headers, webset_id)
    finally:
        event.remove(runtime.engine.sync_engine, "after_cursor_execute", probe_the_lock)
    assert answer.status_code in (200, 201), answer.text
    assert probes and set(probes) == {(True, False)}
