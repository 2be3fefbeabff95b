"""An idempotency key claimed by an API process that is killed mid-request is served by another
process within seconds (the claim stopped beating), not after a minute, and the key still yields one
job: two `leadwire api` processes over one database (PostgreSQL, and one SQLite file), the first
SIGKILLed while its creation is held open, the request then retried with its key on the second."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from leadwire.platform.idempotency_models import IdempotencyRecord
from leadwire.platform.jobs import Job
from leadwire.platform.runtime import Runtime
from tests.conftest import _empty_pg
from tests.support.accounts import account_at
from tests.support.jobs import with_runtime
from tests.support.processes import LEADWIRE, REPO, free_port, leadwire_process, process_env, wait_ready

pytestmark = pytest.mark.e2e

# How long the test waits for the retry to be served: the old fixed lock (60 s) is far past it.
RETRY_DEADLINE_SECONDS = 30.0


def _counts(database_url: str, key: str) -> tuple[int, int]:
    """(records of the key, jobs) in the database the processes share."""

    async def work(runtime: Runtime) -> tuple[int, int]:
        async with runtime.sessionmaker() as session:
            records = await session.scalar(
                select(func.count()).select_from(IdempotencyRecord).where(IdempotencyRecord.key == key)
            )
            jobs = await session.scalar(select(func.count()).select_from(Job))
        return int(records or 0), int(jobs or 0)

    counted: tuple[int, int] = asyncio.run(with_runtime(database_url, work))
    return counted


@pytest.fixture(params=["sqlite", "postgres"])
def two_api_processes(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[list[subprocess.Popen[bytes]], list[str], str]]:
    if request.param == "postgres":
        database_url: str = request.getfixturevalue("pg_database")
        asyncio.run(_empty_pg(database_url))
    else:
        database_url = f"sqlite+aiosqlite:///{tmp_path}/leadwire.db"
    env = process_env(tmp_path / "data", database_url)
    subprocess.run([*LEADWIRE, "migrate"], env=env, cwd=REPO, check=True, timeout=120)
    with ExitStack() as stack:
        processes, urls = [], []
        for name in ("a", "b"):
            port, log = free_port(), tmp_path / f"api-{name}.log"
            process = stack.enter_context(leadwire_process(["api", "--port", str(port)], env, log))
            urls.append(f"http://127.0.0.1:{port}")
            wait_ready(urls[-1], process, log)
            processes.append(process)
        yield processes, urls, database_url


def test_a_key_held_by_a_killed_api_process_is_served_by_another_and_yields_one_job(
    two_api_processes: tuple[list[subprocess.Popen[bytes]], list[str], str], tmp_path: Path
) -> None:
    (first, _), (url_a, url_b), database_url = two_api_processes
    account = account_at(database_url)
    headers = {**account.headers, "Idempotency-Key": "killed-mid-request"}
    release = tmp_path / "release"  # absent until process a is dead: a holds its creation open
    body = {"message": "once", "hold_creation_until": str(release)}
    with httpx.Client(timeout=5) as client:
        with pytest.raises(httpx.ReadTimeout):  # process a claims the key, then holds the creation
            client.post(f"{url_a}/api/v2/test/echo", json=body, headers=headers, timeout=1.5)
        assert _counts(database_url, "killed-mid-request") == (1, 0)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        release.touch()
        served, in_progress = None, 0
        deadline = time.monotonic() + RETRY_DEADLINE_SECONDS
        while served is None and time.monotonic() < deadline:
            retry = client.post(f"{url_b}/api/v2/test/echo", json=body, headers=headers)
            if retry.status_code == 409:
                assert retry.json()["error"]["code"] == "idempotency_key_in_progress"
                in_progress += 1
                time.sleep(float(retry.headers["retry-after"]))
            else:
                served = retry
        assert served is not None, f"still in progress after {RETRY_DEADLINE_SECONDS} s"
        assert served.status_code == 202, served.text
        again = client.post(f"{url_b}/api/v2/test/echo", json=body, headers=headers)
    assert again.json()["item"]["id"] == served.json()["item"]["id"]
    assert _counts(database_url, "killed-mid-request") == (1, 1)
    assert in_progress >= 1  # the claim was alive until the process died, then taken over
