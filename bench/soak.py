"""Soak: does one API process still answer like itself while 200 streams and 2,000 polls hold it?

One `leadwire api` process over PostgreSQL (no worker: the lists stay open, the jobs queued), four
business accounts of three keys each. Three phases of `--seconds` (20) each:

* idle: `GET /api/v2/credits` sampled on one keep-alive connection (the baseline: this process, this
  route, nothing else running);
* soak: 200 list streams held open (each account's cap of 50, keys of 20/20/10, over raw sockets) and
  2,000 job polls from 20 clients spread over the phase, while the same route is sampled;
* after: the streams closed, the same route sampled again.

Figures: the route's p50 during / idle and after / idle (ratios; target during <= 3, after <= 1.2),
the server's RSS at each phase end, the peak and final database connections checked out (read from
`/metrics`: write, read and poll pools), and the streams the process counts open at the end (0).

    .venv/bin/python bench/soak.py [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx

import _support as bs

STREAMS = (20, 20, 10)  # per key of each account: the key cap is 20, the account cap 50
POLLS, POLLERS = 2_000, 20


async def _hold_stream(port: int, path: str, key: str, opened: asyncio.Event) -> None:
    """One stream on a socket of its own: its response head read, then held until cancelled."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n\r\n"
        writer.write(request.encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"stream refused: {head[:200]!r}")
        opened.set()
        while await reader.read(65536):  # pings and events, discarded
            pass
    finally:
        writer.close()


@contextlib.asynccontextmanager
async def _streams(port: int, targets: list[tuple[str, str]]) -> AsyncIterator[None]:
    events = [asyncio.Event() for _ in targets]
    tasks = [
        asyncio.create_task(_hold_stream(port, f"/api/v2/websets/{webset}/items/stream", key, event))
        for (webset, key), event in zip(targets, events, strict=True)
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 60)
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _sample(client: httpx.AsyncClient, key: str, seconds: float) -> list[float]:
    """Credit reads, ten a second, for `seconds`: their latencies in ms."""
    times, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        response = await client.get("/api/v2/credits", headers={"Authorization": f"Bearer {key}"})
        times.append((time.perf_counter() - started) * 1000)
        response.raise_for_status()
        await asyncio.sleep(0.1)
    return times


async def _poll(base: str, jobs: list[tuple[str, str]], seconds: float) -> list[int]:
    per_poller, statuses = POLLS // POLLERS, []

    async def poller(n: int) -> None:
        key, job_id = jobs[n % len(jobs)]
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            for _ in range(per_poller):
                started = time.monotonic()
                response = await client.get(
                    f"/api/v2/jobs/{job_id}", headers={"Authorization": f"Bearer {key}"}
                )
                statuses.append(response.status_code)
                await asyncio.sleep(max(0.0, seconds / per_poller - (time.monotonic() - started)))

    await asyncio.gather(*(poller(n) for n in range(POLLERS)))
    return statuses


def _gauges(base: str) -> dict[str, float]:
    """`leadwire_db_connections_in_use` by pool and `leadwire_asyncio_tasks`, from /metrics."""
    found = {}
    for line in httpx.get(f"{base}/metrics", timeout=10).text.splitlines():
        if line.startswith(("leadwire_db_connections_in_use{", "leadwire_asyncio_tasks ")):
            name, value = line.rsplit(" ", 1)
            found[name] = float(value)
    return found


def _checked_out(gauges: dict[str, float]) -> float:
    return sum(v for k, v in gauges.items() if k.startswith("leadwire_db_connections_in_use"))


async def _run(
    base: str, port: int, accounts: list[tuple[str, list[tuple[str, str]]]], pid: int, seconds: float
) -> None:
    keys = [[key for _id, key in account_keys] for _user, account_keys in accounts]
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        websets, jobs = [], []
        for account_keys in keys:
            headers = {"Authorization": f"Bearer {account_keys[0]}"}
            created = await client.post(
                "/api/v2/websets", json={"query": "software companies", "count": 25}, headers=headers
            )
            websets.append(created.json()["item"]["webset"]["id"])
            job = await client.post(
                "/api/v2/research/public-web", json={"queries": ["industrial robots"]}, headers=headers
            )
            jobs.append((account_keys[0], job.json()["item"]["id"]))
        idle = await _sample(client, keys[0][0], seconds)
        rss_idle = bs.vm_rss_mb(pid)
        targets = [
            (webset, account_keys[k])
            for webset, account_keys in zip(websets, keys, strict=True)
            for k, count in enumerate(STREAMS)
            for _ in range(count)
        ]
        peak = 0.0
        async with _streams(port, targets):
            polls = asyncio.create_task(_poll(base, jobs, seconds))
            during_task = asyncio.create_task(_sample(client, keys[1][0], seconds))
            while not polls.done():
                peak = max(peak, _checked_out(await asyncio.to_thread(_gauges, base)))
                await asyncio.sleep(1.0)
            statuses, during = await polls, await during_task
            rss_soak = bs.vm_rss_mb(pid)
        await asyncio.sleep(2.0)
        after = await _sample(client, keys[0][0], seconds)
        rss_after = bs.vm_rss_mb(pid)
        final = await asyncio.to_thread(_gauges, base)
    refused = len(statuses) - statuses.count(200)
    bs.note(f"{len(targets)} streams held, {len(statuses)} polls ({refused} not 200)")
    p_idle = bs.percentile(idle, 50)
    for label, samples, target in (("during", during, 3.0), ("after", after, 1.2)):
        p50 = bs.percentile(samples, 50)
        ratio = bs.safe_ratio(p50, p_idle)
        bs.emit_triple(
            f"soak_credits_p50_{label}", p50, p_idle, "ms", ratio=ratio,
            target=f"{label} ÷ idle <= {target}: {bs.verdict(ratio <= target)}",
        )  # fmt: skip
    bs.emit("soak_rss_idle", rss_idle, "MB")
    bs.emit("soak_rss_during", rss_soak, "MB")
    bs.emit("soak_rss_after", rss_after, "MB")
    bs.emit("soak_db_connections_checked_out_peak", peak)
    bs.emit("soak_db_connections_checked_out_after", _checked_out(final), note="target 0")
    bs.emit("soak_asyncio_tasks_after", final.get("leadwire_asyncio_tasks", float("nan")))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    if not bs.postgres_reachable():
        bs.note(f"skipped: PostgreSQL not reachable at {bs.PG_URL}")
        return
    with (
        tempfile.TemporaryDirectory(prefix="leadwire-bench-soak-") as tmp_name,
        bs.temp_postgres_database("soak") as pg,
    ):
        tmp = Path(tmp_name)
        url = bs.sqlalchemy_url(pg)
        env = bs.leadwire_env(
            tmp / "data", database_url=url, pycache=tmp / "pycache", LEADWIRE_METRICS_PUBLIC="true"
        )
        bs.run_checked(bs.leadwire_cmd("migrate"), env)
        accounts = asyncio.run(bs.create_accounts(url, [10_000] * 4, keys=3))
        port = bs.free_port()
        with bs.running(bs.leadwire_cmd("api", "--port", str(port)), env, tmp / "api.log") as api:
            base = f"http://127.0.0.1:{port}"
            bs.wait_http_ok(f"{base}/healthz", api, timeout=120.0)
            asyncio.run(_run(base, port, accounts, api.pid, args.seconds))


if __name__ == "__main__":
    main()
