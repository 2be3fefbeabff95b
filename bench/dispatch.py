"""Outreach dispatch through the full stack.

1. `POST /api/v2/outreach/dispatches` requests/s on `leadwire api` (1 process): middleware, auth, the
   outreach rate-limit class, idempotency claim, body validation, account check, the pacing slot (a row
   lock per user and channel) and the job insert, in one transaction. Beside it, in the same run on the
   same server and database, `GET /api/v2/jobs/{id}` requests/s; ratio = dispatch ÷ job read. The
   business plan's outreach limit (300/min per key) would cap the load at a few requests a second, so
   both run with bench/plugins/unlimited.py (the limiter still runs; only its numbers change). Beside
   it, a second sender with everything sender safety adds on the path: a suppression list of
   `--suppressions` (100,000) entries, a sending policy (cap, ramp, a window in the recipient's zone,
   told from a `.de` address) and a recipient carrying the person's phone and profile (one touch per
   person). Loaded in turns with the first sender's v1 dispatches, which are what a dispatch was before
   sender safety (pacing only, no list, no policy): 3 rounds each, medians; ratio = safe ÷ v1.
2. Time from `scheduled_at` to delivered (the result's `delivered_at`) for due dispatches, p50 and p95:
   `leadwire api` + `leadwire worker`, 40 accounts each sending one email (each account's first dispatch
   is due at once). Baseline: the sandbox email adapter alone appending the same message to the
   outbox (the floor under any delivery).

    .venv/bin/python bench/dispatch.py [--duration 8] [--connections 16] [--accounts 40]
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
    "recipient": {"address": "jane@acme.example", "name": "Jane Doe"},
    "content": {"subject": "Hello", "text": "A short plain-text note.", "html": "<p>A short note.</p>"},
}


async def _sender(database_url: str, data_dir: Path, keys: int) -> tuple[str, str, list[str]]:
    """A business account with `keys` keys and a sandbox email account; (user_id, account_id, keys)."""
    from leadwire.channels import connected
    from leadwire.platform.db import make_engine, make_sessionmaker, transaction

    user_id, issued = await bs.create_account(database_url, plan="business", keys=keys)
    engine = make_engine(database_url)
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            account = await connected.add_account(
                session, user_id=user_id, channel="email", provider="sandbox",
                display_name="bench", identifier="bench@leadwire.example",
            )  # fmt: skip
    finally:
        await engine.dispose()
    return user_id, account.id, [key for _, key in issued]


async def _suppress_many(database_url: str, user_id: str, count: int) -> None:
    """`count` suppression entries for the account (none of them the bench's recipient)."""
    from leadwire.outreach import suppressions
    from leadwire.platform.db import make_engine, make_sessionmaker, transaction

    entries = [
        ("email", "address", f"person{n}@listed{n % 997}.example", None, "import") for n in range(count)
    ]
    engine = make_engine(database_url)
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            await suppressions.insert_entries(session, user_id, entries)
    finally:
        await engine.dispose()


SAFE_POLICY = {
    "daily_cap": 10_000,
    "ramp": {"start": 5_000, "step_per_day": 500, "max": 10_000},
    "window": {"days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "start": "00:00", "end": "23:59"},
    "timezone": "Europe/Berlin",
}
SAFE_RECIPIENT = {
    "address": "jane@acme.de",
    "phone": "+4915123456789",
    "profile_url": "linkedin.com/in/jane-doe",
}


async def _load(base: str, keys: list[str], seconds: float, connections: int, request: Any) -> float:
    """Requests/s of `request(client, key)` from `connections` concurrent users; every answer must be 2xx."""
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    done = 0
    async with httpx.AsyncClient(base_url=base, timeout=30.0, limits=limits) as client:
        deadline = time.monotonic() + seconds

        async def user(index: int) -> None:
            nonlocal done
            while time.monotonic() < deadline:
                response = await request(client, keys[(index + done) % len(keys)])
                if not 200 <= response.status_code < 300:
                    raise RuntimeError(f"{response.status_code}: {response.text[:300]}")
                done += 1

        started = time.monotonic()
        await asyncio.gather(*(user(i) for i in range(connections)))
        return done / (time.monotonic() - started)


def creation_rate(label: str, database_url: str | None, tmp: Path, args: argparse.Namespace) -> None:
    data_dir = tmp / f"create-{label}"
    env = bs.leadwire_env(data_dir, database_url=database_url, plugins="bench.plugins.unlimited")
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    from leadwire.config import Settings

    resolved = Settings(data_dir=data_dir, database_url=database_url).resolved_database_url
    _, account_id, keys = asyncio.run(_sender(resolved, data_dir, 8))
    # A second sender whose list holds `--suppressions` entries: the two are loaded in turns on the
    # same server, so the comparison does not depend on which ran first.
    listed_user, listed_account, listed_keys = asyncio.run(_sender(resolved, data_dir, 8))
    asyncio.run(_suppress_many(resolved, listed_user, args.suppressions))
    port = str(bs.free_port())
    base = f"http://127.0.0.1:{port}"
    with bs.running(bs.leadwire_cmd("api", "--port", port), env, tmp / f"api-{label}.log") as server:
        bs.wait_http_ok(f"{base}/readyz", server, timeout=120.0)

        def poster(account: str) -> Any:
            body = {**EMAIL, "account_id": account}

            def post(client: httpx.AsyncClient, key: str) -> Any:
                return client.post(
                    "/api/v2/outreach/dispatches", json=body, headers={"Authorization": f"Bearer {key}"}
                )

            return post

        post = poster(account_id)
        safe_body = {**EMAIL, "account_id": listed_account, "recipient": SAFE_RECIPIENT}
        httpx.put(
            f"{base}/api/v2/connect/accounts/{listed_account}/sending-policy",
            json=SAFE_POLICY,
            headers={"Authorization": f"Bearer {listed_keys[0]}"},
        ).raise_for_status()

        def post_listed(client: httpx.AsyncClient, key: str) -> Any:
            return client.post(
                "/api/v2/outreach/dispatches", json=safe_body, headers={"Authorization": f"Bearer {key}"}
            )

        def post_v1(client: httpx.AsyncClient, key: str) -> Any:
            return client.post(
                "/api/v1/outreach/dispatches",
                json={**EMAIL, "account_id": account_id},
                headers={"Authorization": f"Bearer {key}"},
            )

        first = httpx.post(
            f"{base}/api/v2/outreach/dispatches",
            json={**EMAIL, "account_id": account_id},
            headers={"Authorization": f"Bearer {keys[0]}"},
        )
        job_id = first.json()["item"]["id"]

        def get(client: httpx.AsyncClient, key: str) -> Any:
            return client.get(f"/api/v2/jobs/{job_id}", headers={"Authorization": f"Bearer {key}"})

        asyncio.run(_load(base, keys, 1.5, args.connections, post))  # warm-up
        asyncio.run(_load(base, listed_keys, 1.5, args.connections, post_listed))
        asyncio.run(_load(base, keys, 1.5, args.connections, post_v1))
        rounds: list[tuple[float, float, float]] = []
        for _ in range(3):
            plain = asyncio.run(_load(base, keys, args.duration / 3, args.connections, post))
            listed = asyncio.run(_load(base, listed_keys, args.duration / 3, args.connections, post_listed))
            v1 = asyncio.run(_load(base, keys, args.duration / 3, args.connections, post_v1))
            rounds.append((plain, listed, v1))
        dispatches = statistics.median(r[0] for r in rounds)
        listed = statistics.median(r[1] for r in rounds)
        paced_only = statistics.median(r[2] for r in rounds)
        reads = asyncio.run(_load(base, keys, args.duration, args.connections, get))
    bs.emit_triple(
        f"dispatch_create_rps_{label}_safe_{args.suppressions}_suppressions", listed, paced_only, "req/s",
        ratio=bs.safe_ratio(listed, paced_only),
        target="baseline: v1 dispatches (pacing only: the path before sender safety), in turns, medians of 3",
    )  # fmt: skip
    bs.emit_triple(
        f"dispatch_create_rps_{label}", dispatches, reads, "req/s",
        ratio=bs.safe_ratio(dispatches, reads),
        target="baseline: GET /api/v2/jobs/{id} on the same server in the same run",
    )  # fmt: skip


def delivery_latency(label: str, database_url: str | None, tmp: Path, args: argparse.Namespace) -> None:
    """SQLite: `leadwire serve` (its in-process worker hears new jobs at once); PostgreSQL: `leadwire
    api` + `leadwire worker` (woken by LISTEN/NOTIFY) — each database's documented deployment."""
    data_dir = tmp / f"deliver-{label}"
    env = bs.leadwire_env(data_dir, database_url=database_url, plugins="bench.plugins.unlimited")
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    from leadwire.config import Settings

    resolved = Settings(data_dir=data_dir, database_url=database_url).resolved_database_url
    senders = [asyncio.run(_sender(resolved, data_dir, 1))[1:] for _ in range(args.accounts)]
    port = str(bs.free_port())
    base = f"http://127.0.0.1:{port}"
    if database_url is None:
        api = bs.leadwire_cmd("serve", "--no-build-world", "--port", port)
        worker = [sys.executable, "-c", "import time; time.sleep(3600)"]  # serve has its own worker
    else:
        api, worker = bs.leadwire_cmd("api", "--port", port), bs.leadwire_cmd("worker")
    with (
        bs.running(api, env, tmp / f"api-deliver-{label}.log") as server,
        bs.running(worker, env, tmp / f"worker-deliver-{label}.log"),
    ):
        bs.wait_http_ok(f"{base}/readyz", server, timeout=120.0)
        jobs = []
        with httpx.Client(base_url=base, timeout=30.0) as client:
            for account_id, (key,) in senders:
                headers = {"Authorization": f"Bearer {key}"}
                item = client.post(
                    "/api/v2/outreach/dispatches", json={**EMAIL, "account_id": account_id}, headers=headers
                )
                jobs.append((item.json()["item"]["id"], headers))
            lags = []
            for job_id, headers in jobs:
                deadline = time.monotonic() + 60
                while True:
                    job = client.get(f"/api/v2/jobs/{job_id}", headers=headers).json()["item"]
                    if job["status"] in ("succeeded", "failed") or time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
                if job["status"] != "succeeded":
                    raise RuntimeError(f"dispatch {job_id} ended {job['status']}: {job['error']}")
                lags.append(_seconds(job["result"]["delivered_at"]) - _seconds(job["scheduled_at"]))
    floor = statistics.median(asyncio.run(_adapter_alone(tmp, args.accounts)))
    lag = statistics.median(lags)
    bs.emit_triple(
        f"dispatch_delivery_lag_p50_{label}", 1000 * lag, 1000 * floor, "ms",
        ratio=bs.safe_ratio(lag, floor),
        target=f"p95 {1000 * bs.percentile(lags, 95):.0f} ms, {len(lags)} due dispatches; "
        "baseline: the sandbox adapter alone",
    )  # fmt: skip


async def _adapter_alone(tmp: Path, count: int) -> list[float]:
    from leadwire.providers.channels import OutboundMessage
    from leadwire.providers.sandbox_channels import Outbox, SandboxEmailChannel

    channel = SandboxEmailChannel(Outbox(tmp / "floor"), "bench@leadwire.example")
    times = []
    for i in range(count):
        message = OutboundMessage(
            f"dlv_{i}",
            EMAIL["recipient"],
            EMAIL["content"]["subject"],
            EMAIL["content"]["text"],
            EMAIL["content"]["html"],
        )
        started = time.perf_counter()
        await channel.send(message)
        times.append(time.perf_counter() - started)
    return times


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=8.0, help="seconds of load per measurement")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--accounts", type=int, default=40, help="due dispatches for the delivery lag")
    parser.add_argument("--suppressions", type=int, default=100_000, help="entries on the sender's list")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-dispatch-") as name:
        tmp = Path(name)
        creation_rate("sqlite", None, tmp, args)
        delivery_latency("sqlite", None, tmp, args)
        if not bs.postgres_reachable():
            bs.note(f"PostgreSQL runs skipped: not reachable at {bs.PG_URL}")
            return
        with bs.temp_postgres_database("dispatch") as pg_url:
            creation_rate("postgres", bs.sqlalchemy_url(pg_url), tmp, args)
        with bs.temp_postgres_database("deliver") as pg_url:
            delivery_latency("postgres", bs.sqlalchemy_url(pg_url), tmp, args)


if __name__ == "__main__":
    main()
