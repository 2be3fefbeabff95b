"""Scale-out under a mixed load: `leadwire cluster` beside the single-process default.

Measures, on one machine, two deployments serving the same small sandbox world (`--size small`):
* **cluster**: `leadwire cluster --api 2 --workers 2` (two API processes on one address, two
  workers) over PostgreSQL and Redis — what `make cluster` starts;
* **single**: `leadwire serve` (one process, SQLite, in-process worker) — what `make serve` starts.
For each, one account (business plan; `bench.plugins.unlimited` lifts its request limits and active-job
cap so the server, not the limiter, is measured), one finished webset of 25 items and one job, then
three `wrk` loads at once for `--duration` seconds after a warm-up, each its own connections:
job reads (`GET /api/v2/jobs/{id}`, 8 connections), item pages (`GET /api/v2/websets/{id}/items`,
4 connections) and billed job creation (`POST /api/v2/research/public-web`, 4 connections; the
workers run what it creates). Printed per request kind: requests/s and p99 of the cluster, beside the
single process as baseline (ratio cluster ÷ single: above 1 for requests/s is the gain of scaling
out; for p99 below 1 is better).
Then jobs/s: `--jobs` public-web jobs created through the API with no worker running, then 1 (then,
on fresh jobs, 2) `leadwire worker` processes started; jobs/s = jobs ÷ (worker start → all terminal).
Ratio: 2 workers ÷ 1 worker (the scaling of the job path; 2.0 would be perfect on enough cores —
this machine has 2, shared with PostgreSQL and the load generator).

    .venv/bin/python bench/cluster_load.py [--duration 10] [--jobs 200]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

import _support as bs

WARM_UP_SECONDS = 2
PLUGINS = "bench.plugins.unlimited"
RESEARCH_BODY = {"queries": ["logistics software companies in Germany"], "search_limit": 3}


@dataclass
class Figure:
    rps: float
    p99_ms: float
    non_2xx: int


@dataclass
class Deployment:
    label: str
    base_url: str
    database_url: str
    key: str
    job_id: str
    webset_id: str


def _lua(method: str, path: str, key: str, body: str | None) -> str:
    headers = f'["Authorization"] = "Bearer {key}"'
    if body is None:
        return f'request = function() return wrk.format("{method}", "{path}", {{{headers}}}) end\n'
    quoted = json.dumps(body)
    headers += ', ["Content-Type"] = "application/json"'
    return f'request = function() return wrk.format("{method}", "{path}", {{{headers}}}, {quoted}) end\n'


def _wrk(base_url: str, script: Path, connections: int, seconds: int) -> Figure:
    run = bs.run_wrk(base_url, script, connections=connections, seconds=seconds)
    return Figure(run.rps, run.p99_ms, run.non_2xx)


def mixed_load(deployment: Deployment, seconds: int, tmp: Path) -> dict[str, Figure]:
    """The three loads at once; each kind's own requests/s and p99."""
    kinds = {
        "job_read": ("GET", f"/api/v2/jobs/{deployment.job_id}", None, 8),
        "item_page": ("GET", f"/api/v2/websets/{deployment.webset_id}/items?limit=25", None, 4),
        "job_create": ("POST", "/api/v2/research/public-web", json.dumps(RESEARCH_BODY), 4),
    }
    scripts = {}
    for kind, (method, path, body, _connections) in kinds.items():
        scripts[kind] = tmp / f"{deployment.label}-{kind}.lua"
        scripts[kind].write_text(_lua(method, path, deployment.key, body))
    results: dict[str, Figure] = {}

    def run(kind: str, seconds_: int) -> None:
        results[kind] = _wrk(deployment.base_url, scripts[kind], kinds[kind][3], seconds_)

    for seconds_ in (WARM_UP_SECONDS, seconds):
        threads = [threading.Thread(target=run, args=(kind, seconds_)) for kind in kinds]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return results


# --- the two deployments ----------------------------------------------------------------------------


def _prepare(deployment: Deployment) -> None:
    """A finished webset and one finished job of the account, through the API."""
    headers = {"Authorization": f"Bearer {deployment.key}"}
    with httpx.Client(base_url=deployment.base_url, headers=headers, timeout=60) as http:
        created = http.post("/api/v2/websets", json={"query": "software companies in Germany", "count": 25})
        created.raise_for_status()
        deployment.webset_id = created.json()["item"]["webset"]["id"]
        job = http.post("/api/v2/research/public-web", json=RESEARCH_BODY, headers={"Prefer": "wait=30"})
        job.raise_for_status()
        deployment.job_id = job.json()["item"]["id"]
        deadline = time.monotonic() + 300
        while http.get(f"/api/v2/websets/{deployment.webset_id}").json()["item"]["status"] != "completed":
            if time.monotonic() > deadline:
                raise RuntimeError("the bench webset did not complete in 300 s")
            time.sleep(0.5)


def _account(database_url: str) -> str:
    _user_id, issued = asyncio.run(bs.create_account(database_url, plan="business", credits=10**9))
    return issued[0][1]


@contextlib.contextmanager
def single(world: Path, tmp: Path) -> Iterator[Deployment]:
    data_dir = tmp / "single"
    env = bs.leadwire_env(data_dir, plugins=PLUGINS, pycache=tmp / "pycache", LEADWIRE_WORLD_DIR=str(world))
    port = bs.free_port()
    with bs.running(bs.leadwire_cmd("serve", "--port", str(port)), env, tmp / "single.log") as server:
        base_url = f"http://127.0.0.1:{port}"
        bs.wait_http_ok(f"{base_url}/readyz", server, timeout=180)
        from leadwire.config import Settings

        url = Settings(data_dir=data_dir).resolved_database_url
        yield Deployment("single", base_url, url, _account(url), "", "")


@contextlib.contextmanager
def cluster(world: Path, tmp: Path, pg_url: str) -> Iterator[Deployment]:
    url = bs.sqlalchemy_url(pg_url)
    env = bs.leadwire_env(
        tmp / "cluster",
        database_url=url,
        plugins=PLUGINS,
        pycache=tmp / "pycache",
        LEADWIRE_WORLD_DIR=str(world),
        LEADWIRE_REDIS_URL=bs.REDIS_URL,
    )
    port = bs.free_port()
    argv = bs.leadwire_cmd("cluster", "--port", str(port), "--api", "2", "--workers", "2")
    with bs.running(argv, env, tmp / "cluster.log") as supervisor:
        base_url = f"http://127.0.0.1:{port}"
        bs.wait_http_ok(f"{base_url}/readyz", supervisor, timeout=180)
        yield Deployment("cluster", base_url, url, _account(url), "", "")


# --- jobs/s with 1 and 2 workers ---------------------------------------------------------------------


def jobs_per_second(world: Path, tmp: Path, pg_url: str, jobs: int, workers: int) -> float:
    """`jobs` public-web jobs created through one API process, then `workers` workers drain them."""
    url = bs.sqlalchemy_url(pg_url)
    env = bs.leadwire_env(
        tmp / f"drain-{workers}",
        database_url=url,
        plugins=PLUGINS,
        pycache=tmp / "pycache",
        LEADWIRE_WORLD_DIR=str(world),
        LEADWIRE_REDIS_URL=bs.REDIS_URL,
    )
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    key = _account(url)
    port = bs.free_port()
    with bs.running(
        bs.leadwire_cmd("api", "--port", str(port)), env, tmp / f"drain-api-{workers}.log"
    ) as api:
        base_url = f"http://127.0.0.1:{port}"
        bs.wait_http_ok(f"{base_url}/readyz", api, timeout=120)
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=base_url, headers=headers, timeout=60) as http:
            for _ in range(jobs):
                http.post("/api/v2/research/public-web", json=RESEARCH_BODY).raise_for_status()
        started = time.monotonic()
        with contextlib.ExitStack() as stack:
            for n in range(workers):
                log = tmp / f"drain-worker-{workers}-{n}.log"
                stack.enter_context(bs.running(bs.leadwire_cmd("worker"), env, log))
            while asyncio.run(_unfinished(pg_url)):
                time.sleep(0.05)
            elapsed = time.monotonic() - started
    return jobs / elapsed


async def _unfinished(pg_url: str) -> int:
    import asyncpg

    connection = await asyncpg.connect(pg_url)
    try:
        query = "SELECT count(*) FROM jobs WHERE status NOT IN ('succeeded', 'failed', 'cancelled')"
        return int(await connection.fetchval(query))
    finally:
        await connection.close()


# --- the run ------------------------------------------------------------------------------------------


def report(kind: str, cluster_figure: Figure, single_figure: Figure) -> None:
    for figure, label in ((cluster_figure, "cluster"), (single_figure, "single")):
        if figure.non_2xx:
            bs.note(f"{label} {kind}: {figure.non_2xx} responses were not 2xx")
    bs.emit_triple(
        f"cluster_{kind}_rps",
        cluster_figure.rps,
        single_figure.rps,
        "req/s",
        ratio=bs.safe_ratio(cluster_figure.rps, single_figure.rps),
        target="cluster ÷ single process (higher is better)",
    )
    bs.emit_triple(
        f"cluster_{kind}_p99",
        cluster_figure.p99_ms,
        single_figure.p99_ms,
        "ms",
        ratio=bs.safe_ratio(cluster_figure.p99_ms, single_figure.p99_ms),
        target="cluster ÷ single process (lower is better)",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds of mixed load per deployment")
    parser.add_argument("--jobs", type=int, default=200, help="jobs drained by 1, then 2 workers")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        bs.note("cluster_load skipped: wrk is not installed (apt-get install wrk)")
        return
    if not (bs.postgres_reachable() and bs.redis_reachable()):
        bs.note("cluster_load skipped: needs PostgreSQL and Redis on loopback")
        return
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-cluster-") as tmp_name:
        tmp = Path(tmp_name)
        world_data = tmp / "world-data"
        build = bs.leadwire_cmd("sandbox", "build", "--size", "small", "--data-dir", str(world_data))
        bs.run_checked([*build, "--no-progress"], bs.child_env(), timeout=600)
        world = world_data / "world"
        with single(world, tmp) as deployment:
            _prepare(deployment)
            single_figures = mixed_load(deployment, args.duration, tmp)
        with bs.temp_postgres_database("cluster") as pg_url, cluster(world, tmp, pg_url) as deployment:
            _prepare(deployment)
            cluster_figures = mixed_load(deployment, args.duration, tmp)
        bs.note("mixed load: job reads 8 + item pages 4 + job creation 4 connections at once, wrk -t1 each")
        for kind in ("job_read", "item_page", "job_create"):
            report(kind, cluster_figures[kind], single_figures[kind])
        rates = {}
        for workers in (1, 2):
            with bs.temp_postgres_database(f"drain{workers}") as pg_url:
                rates[workers] = jobs_per_second(world, tmp, pg_url, args.jobs, workers)
        bs.emit_triple(
            "cluster_jobs_per_s_2_workers",
            rates[2],
            rates[1],
            "jobs/s",
            ratio=bs.safe_ratio(rates[2], rates[1]),
            target="2 workers ÷ 1 worker, public-web jobs (2.0 = linear)",
        )


if __name__ == "__main__":
    main()
