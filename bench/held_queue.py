"""The scheduler's slot lag for due sends, with and without a queue of 10,000 held ones.

A worker (SQLite: `leadwire serve`'s own; PostgreSQL: `leadwire worker`, 1 process) runs while `--due`
(100) v2 dispatches, each the first of its own sender and so due at once, are created a few at a time;
the lag of each is its job's `started_at` minus its `scheduled_at` (the claim, the policy and pause
checks; not the send), p50 and p99. Measured twice in one run on one database and worker: first with
nothing else queued (the baseline), then after one sender has `--held` (10,000) dispatches waiting
under a daily cap of 28 (placed up to a year ahead, each with its hold), created through the services.
Ratio = lag with the held queue ÷ lag without. On SQLite and PostgreSQL.

    .venv/bin/python bench/held_queue.py [--held 10000] [--due 100]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

import _support as bs

EMAIL = {
    "channel": "email",
    "action": "outreach",
    "recipient": {"address": "jane@acme.example"},
    "content": {"subject": "Hello", "text": "A short plain-text note."},
}
HELD_CAP = 28  # 10,000 sends fill 358 days: inside the 365-day horizon


async def _senders(database_url: str, count: int) -> list[tuple[str, str, str]]:
    """`count` users, each with a key and a sandbox mailbox; [(user_id, account_id, key)]."""
    from leadwire.channels import connected
    from leadwire.platform.db import make_engine, make_sessionmaker, transaction

    made = await bs.create_accounts(database_url, [0] * count, plan="business", keys=1)
    engine = make_engine(database_url)
    found = []
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            for user_id, keys in made:
                account = await connected.add_account(
                    session, user_id=user_id, channel="email", provider="sandbox",
                    display_name="bench", identifier="bench@leadwire.example",
                )  # fmt: skip
                found.append((user_id, account.id, keys[0][1]))
    finally:
        await engine.dispose()
    return found


async def _hold_many(settings: Any, user_id: str, account_id: str, count: int) -> float:
    """`count` v2 dispatches through the outreach service under a daily cap of 28; seconds taken."""
    from leadwire import capabilities
    from leadwire.channels import connected, sending_policy
    from leadwire.channels.sending_schemas import SendingPolicyIn
    from leadwire.outreach.schemas import DispatchRequest
    from leadwire.outreach.service import start_dispatch
    from leadwire.platform.callers import Caller
    from leadwire.platform.db import transaction
    from leadwire.platform.plans import get_plan
    from leadwire.platform.runtime import build_runtime

    capabilities.enabled()
    runtime = await build_runtime(settings)
    caller = Caller(user_id=user_id, key_id="bench", plan=get_plan("business"), scopes=frozenset())
    body = DispatchRequest.model_validate({**EMAIL, "account_id": account_id})
    started = time.monotonic()
    try:
        async with transaction(runtime.sessionmaker) as session:
            account = await connected.get_owned_account(session, user_id, account_id)
            await sending_policy.set_policy(session, account, SendingPolicyIn(daily_cap=HELD_CAP))
        for first in range(0, count, 200):
            async with transaction(runtime.sessionmaker) as session:
                for _ in range(min(200, count - first)):
                    await start_dispatch(session, runtime, caller, body)
    finally:
        await runtime.close()
    return time.monotonic() - started


def _lags(base: str, senders: list[tuple[str, str, str]]) -> list[float]:
    """Seconds from each due dispatch's slot to its start, created 5 at a time, 50 ms apart."""
    jobs = []
    with httpx.Client(base_url=base, timeout=30.0) as client:
        for index, (_, account_id, key) in enumerate(senders):
            headers = {"Authorization": f"Bearer {key}"}
            answer = client.post(
                "/api/v2/outreach/dispatches", json={**EMAIL, "account_id": account_id}, headers=headers
            )
            answer.raise_for_status()
            jobs.append((answer.json()["item"]["id"], headers))
            if index % 5 == 4:
                time.sleep(0.05)
        lags = []
        for job_id, headers in jobs:
            deadline = time.monotonic() + 60
            while True:
                job = client.get(f"/api/v2/jobs/{job_id}", headers=headers).json()["item"]
                if job["started_at"] is not None or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            if job["started_at"] is None:
                raise RuntimeError(f"dispatch {job_id} never started: {job['status']}")
            lags.append(_seconds(job["started_at"]) - _seconds(job["scheduled_at"]))
    return lags


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def measure(label: str, database_url: str | None, tmp: Path, args: argparse.Namespace) -> None:
    data_dir = tmp / label
    env = bs.leadwire_env(data_dir, database_url=database_url, plugins="bench.plugins.unlimited")
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    from leadwire.config import Settings

    settings = Settings(data_dir=data_dir, database_url=database_url)
    resolved = settings.resolved_database_url
    due = asyncio.run(_senders(resolved, 2 * args.due))
    ((held_user, held_account, _),) = asyncio.run(_senders(resolved, 1))
    port = str(bs.free_port())
    base = f"http://127.0.0.1:{port}"
    # Each database's documented deployment: SQLite `leadwire serve` (its in-process worker hears new
    # jobs at once), PostgreSQL `leadwire api` + `leadwire worker` (woken by LISTEN/NOTIFY).
    if database_url is None:
        api = bs.leadwire_cmd("serve", "--no-build-world", "--port", port)
        worker = [sys.executable, "-c", "import time; time.sleep(3600)"]
    else:
        api, worker = bs.leadwire_cmd("api", "--port", port), bs.leadwire_cmd("worker")
    with (
        bs.running(api, env, tmp / f"api-{label}.log") as server,
        bs.running(worker, env, tmp / f"worker-{label}.log"),
    ):
        bs.wait_http_ok(f"{base}/readyz", server, timeout=120.0)
        empty = _lags(base, due[: args.due])
        took = asyncio.run(_hold_many(settings, held_user, held_account, args.held))
        bs.note(f"{label}: {args.held} held dispatches created through the services in {took:.1f} s")
        held = _lags(base, due[args.due :])
    for q in (50, 99):
        with_queue, without = bs.percentile(held, q) * 1000, bs.percentile(empty, q) * 1000
        bs.emit_triple(
            f"held_queue_slot_lag_p{q}_{label}", with_queue, without, "ms",
            ratio=bs.safe_ratio(with_queue, without),
            target=f"baseline: the same due sends with no queue, same worker and run ({args.held} held)",
        )  # fmt: skip
    bs.note(f"{label}: median lag {statistics.median(held) * 1000:.1f} ms with the queue")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--held", type=int, default=10_000, help="dispatches waiting under a cap")
    parser.add_argument("--due", type=int, default=100, help="due dispatches measured per phase")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="leadwire-held-") as raw:
        tmp = Path(raw)
        measure("sqlite", None, tmp, args)
        if bs.postgres_reachable():
            with bs.temp_postgres_database("held") as pg_url:
                measure("postgres", bs.sqlalchemy_url(pg_url), tmp, args)
        else:
            bs.note("PostgreSQL not reachable: skipped")


if __name__ == "__main__":
    main()
