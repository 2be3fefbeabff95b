"""A key revoked by `leadwire admin key revoke` stops working in every API process at once on
PostgreSQL (the revocation is announced with LISTEN/NOTIFY), though each process caches keys; on
SQLite, where no other process hears it, within the cache time."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from tests.conftest import _empty_pg
from tests.support.accounts import TestAccount, account_at
from tests.support.processes import LEADWIRE, REPO, free_port, leadwire_process, process_env, wait_ready

pytestmark = pytest.mark.e2e

CACHE_SECONDS = 3600  # far past the test: only the announcement can make a process forget a key


def _statuses(urls: list[str], account: TestAccount) -> list[int]:
    return [
        httpx.get(f"{url}/api/v2/credits", headers=account.headers, timeout=5).status_code for url in urls
    ]


def _revoke(env: dict[str, str], key_id: str) -> None:
    subprocess.run([*LEADWIRE, "admin", "key", "revoke", key_id], env=env, cwd=REPO, check=True, timeout=60)


def _statuses_within(urls: list[str], account: TestAccount, seconds: float, wanted: int) -> list[int]:
    deadline = time.monotonic() + seconds
    statuses = _statuses(urls, account)
    while any(status != wanted for status in statuses) and time.monotonic() < deadline:
        time.sleep(0.05)
        statuses = _statuses(urls, account)
    return statuses


@pytest.fixture
def api_processes(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[list[str], dict[str, str]]]:
    """Two `leadwire api` processes over one database, the key cache set by the test's parameter."""
    database_url, cache_seconds = request.param(request, tmp_path)
    env = process_env(tmp_path / "data", database_url, LEADWIRE_AUTH_CACHE_SECONDS=str(cache_seconds))
    subprocess.run([*LEADWIRE, "migrate"], env=env, cwd=REPO, check=True, timeout=120)
    with ExitStack() as stack:
        urls = []
        for name in ("a", "b"):
            port, log = free_port(), tmp_path / f"api-{name}.log"
            process = stack.enter_context(leadwire_process(["api", "--port", str(port)], env, log))
            urls.append(f"http://127.0.0.1:{port}")
            wait_ready(urls[-1], process, log)
        yield urls, env


def _postgres(request: pytest.FixtureRequest, _tmp_path: Path) -> tuple[str, int]:
    url: str = request.getfixturevalue("pg_database")
    asyncio.run(_empty_pg(url))
    return url, CACHE_SECONDS


def _sqlite(_request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, int]:
    return f"sqlite+aiosqlite:///{tmp_path}/leadwire.db", 2


@pytest.mark.parametrize("api_processes", [_postgres], indirect=True)
def test_on_postgres_a_revoked_key_is_refused_by_every_api_process_at_once(
    api_processes: tuple[list[str], dict[str, str]],
) -> None:
    urls, env = api_processes
    account = account_at(env["LEADWIRE_DATABASE_URL"])
    assert _statuses(urls, account) == [200, 200]  # now cached in both, for an hour
    _revoke(env, account.key_id)
    # The NOTIFY travels with the commit; a second is ample for two LISTEN connections to hear it.
    assert _statuses_within(urls, account, 1.0, wanted=401) == [401, 401]


@pytest.mark.parametrize("api_processes", [_sqlite], indirect=True)
def test_on_sqlite_a_revoked_key_is_refused_within_the_cache_time(
    api_processes: tuple[list[str], dict[str, str]],
) -> None:
    urls, env = api_processes
    account = account_at(env["LEADWIRE_DATABASE_URL"])
    assert _statuses(urls, account) == [200, 200]
    _revoke(env, account.key_id)
    assert _statuses_within(urls, account, 2.0 + 1.0, wanted=401) == [401, 401]
