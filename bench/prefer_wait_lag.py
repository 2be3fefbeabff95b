"""`Prefer: wait` wake-up lag: job finished → response received, p50/p99, on SQLite and PostgreSQL.

Measures: `--requests` (200) `POST /api/v2/test/echo` with `{"sleep": 0.2}` and `Prefer: wait=10`
(the test plugin `tests.support.echo`), `--concurrency` (4) at a time, each answered 200 with the
finished job. Lag = (wall-clock time the client has read the 200 response) − (the job's `finished_at`
from the response body): the finish commit, the notification, the waiter's re-read and the response.
`finished_at` has millisecond resolution (truncated), so lags read up to 1 ms high.
  * SQLite: one `leadwire serve --no-build-world` (API + in-process worker, in-process notifications).
  * PostgreSQL: `leadwire api` + `leadwire worker` processes (LISTEN/NOTIFY across processes).
Baseline (same run, same server, same client): the round-trip of `GET /healthz`, p50/p99, so the
ratio (lag ÷ round-trip, lower is better) shows the wait machinery's overhead above plain HTTP.
Target: lag p50 <= 20 ms.

    .venv/bin/python bench/prefer_wait_lag.py [--requests 200] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import httpx

import _support as bs

PLUGIN = "tests.support.echo"
WORKER_CONCURRENCY = "4"  # the default of `leadwire serve`'s in-process worker, also for `leadwire worker`


@dataclass
class Result:
    lags_ms: list[float]
    healthz_ms: list[float]
    not_waited: int


def _finished_at(body: dict[str, object]) -> float:
    item = body["item"]
    assert isinstance(item, dict)
    value = str(item["finished_at"])
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


async def _measure(base_url: str, key: str, requests: int, concurrency: int) -> Result:
    headers = {"Authorization": f"Bearer {key}", "Prefer": "wait=10"}
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base_url, timeout=30.0, limits=limits) as client:

        async def echo() -> float | None:
            response = await client.post("/api/v2/test/echo", json={"sleep": 0.2}, headers=headers)
            received = time.time()
            if response.status_code != 200:
                if response.status_code == 202:
                    return None
                raise RuntimeError(f"echo answered {response.status_code}: {response.text[:500]}")
            return (received - _finished_at(response.json())) * 1000

        async def healthz() -> float:
            started = time.perf_counter()
            response = await client.get("/healthz")
            elapsed = (time.perf_counter() - started) * 1000
            response.raise_for_status()
            return elapsed

        for _ in range(20):  # warm-up: connections, caches, the first job of each worker
            await healthz()
        await asyncio.gather(*(echo() for _ in range(concurrency)))
        healthz_ms = [await healthz() for _ in range(requests)]
        semaphore = asyncio.Semaphore(concurrency)

        async def limited() -> float | None:
            async with semaphore:
                return await echo()

        outcomes = await asyncio.gather(*(limited() for _ in range(requests)))
    lags = [lag for lag in outcomes if lag is not None]
    return Result(lags_ms=lags, healthz_ms=healthz_ms, not_waited=len(outcomes) - len(lags))


@contextlib.contextmanager
def sqlite_server(tmp: Path) -> Iterator[tuple[str, str]]:
    data_dir = tmp / "sqlite"
    env = bs.leadwire_env(data_dir, plugins=PLUGIN, pycache=tmp / "pycache")
    port = str(bs.free_port())
    argv = bs.leadwire_cmd("serve", "--no-build-world", "--port", port)
    with bs.running(argv, env, tmp / "serve.log") as server:
        base_url = f"http://127.0.0.1:{port}"
        bs.wait_http_ok(f"{base_url}/readyz", server, timeout=120.0)
        yield base_url, (data_dir / "demo-api-key").read_text().strip()


@contextlib.contextmanager
def postgres_servers(tmp: Path) -> Iterator[tuple[str, str]]:
    with bs.temp_postgres_database("wait") as pg_url:
        database_url = bs.sqlalchemy_url(pg_url)
        env = bs.leadwire_env(
            tmp / "postgres",
            database_url=database_url,
            plugins=PLUGIN,
            pycache=tmp / "pycache",
            LEADWIRE_WORKER_CONCURRENCY=WORKER_CONCURRENCY,
        )
        bs.run_checked(bs.leadwire_cmd("migrate"), env)
        _user, keys = asyncio.run(bs.create_account(database_url, plan="business", credits=1000))
        port = str(bs.free_port())
        with (
            bs.running(bs.leadwire_cmd("api", "--port", port), env, tmp / "api.log") as api,
            bs.running(bs.leadwire_cmd("worker"), env, tmp / "worker.log"),
        ):
            base_url = f"http://127.0.0.1:{port}"
            bs.wait_http_ok(f"{base_url}/readyz", api, timeout=120.0)
            yield base_url, keys[0][1]


def _report(label: str, result: Result) -> None:
    lag50, lag99 = bs.percentile(result.lags_ms, 50), bs.percentile(result.lags_ms, 99)
    rt50, rt99 = bs.percentile(result.healthz_ms, 50), bs.percentile(result.healthz_ms, 99)
    if result.not_waited:
        bs.note(f"{label}: {result.not_waited} requests were answered 202 (not finished within the wait)")
    # Ratio = lag ÷ plain round-trip (lower is better); the target is on the lag itself.
    bs.emit_triple(
        f"prefer_wait_lag_p50_{label}",
        lag50,
        rt50,
        "ms",
        ratio=bs.safe_ratio(lag50, rt50),
        target=f"lag / GET /healthz round-trip; target lag p50 <= 20 ms: {bs.verdict(lag50 <= 20)}",
    )
    bs.emit_triple(
        f"prefer_wait_lag_p99_{label}",
        lag99,
        rt99,
        "ms",
        ratio=bs.safe_ratio(lag99, rt99),
        target="lag / GET /healthz round-trip; no target",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    bs.note(
        f"{args.requests} echo requests ({{'sleep': 0.2}}, Prefer: wait=10), {args.concurrency} at a time; "
        f"baseline GET /healthz x {args.requests}, sequential"
    )
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-wait-") as tmp_name:
        tmp = Path(tmp_name)
        with sqlite_server(tmp) as (base_url, key):
            result = asyncio.run(_measure(base_url, key, args.requests, args.concurrency))
        _report("sqlite", result)
        if not bs.postgres_reachable():
            bs.note(f"PostgreSQL part skipped: not reachable at {bs.PG_URL}")
            return
        with postgres_servers(tmp) as (base_url, key):
            result = asyncio.run(_measure(base_url, key, args.requests, args.concurrency))
        _report("postgres", result)


if __name__ == "__main__":
    main()
