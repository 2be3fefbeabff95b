"""`GET /api/v2/jobs/{id}` requests/s through the full stack vs a bare Starlette route (issue 3).

Measures: requests/s of `GET /api/v2/jobs/{id}` on `leadwire api` (uvicorn, 1 process): request-context
middleware, authentication (key lookup), rate limits (`poll` class), ownership/scope check, envelope.
The caller is a `business` account; the load rotates over `--keys` (8) keys so the per-key limit
(6000/min) does not cap it. If any response is not 2xx (the account-wide 12000/min may still cap),
that is reported and the measurement is repeated with bench/plugins/unlimited.py, which lifts the
business limits (the limiter still runs).
Baseline (same run, same database, same uvicorn settings, 1 process): a bare Starlette route that reads
the same job row by id (`session.get(Job, id)` with Leadwire's own `make_engine`/`make_sessionmaker`,
so the same pool, pragmas and BEGIN IMMEDIATE on SQLite), commits, and returns the job as JSON.
Load: `wrk` (one thread, `--connections` 16) from a separate process on loopback for `--duration` (10 s)
after a 2 s warm-up; without wrk, an httpx load generator process (this file, `--loadgen`).
Run on SQLite and on PostgreSQL (in-memory limiter, as SQLite), and on PostgreSQL with the Redis
limiter (the documented scaled-out setting) against the same PostgreSQL baseline.
Ratio: Leadwire req/s ÷ bare req/s (higher is better). Target: >= 0.5.

    .venv/bin/python bench/job_read_rps.py [--duration 10] [--connections 16] [--keys 8]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import _support as bs

WARM_UP_SECONDS = 2


@dataclasses.dataclass
class Load:
    rps: float
    requests: int
    non_2xx: int


# --- the bare baseline server (run as `job_read_rps.py --serve-baseline`) ----------------------------


def serve_baseline(database_url: str, port: int) -> None:
    import orjson
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    import leadwire.models  # noqa: F401 - every table must be known for foreign keys to resolve
    from leadwire.platform.db import make_engine, make_sessionmaker
    from leadwire.platform.jobs.models import Job
    from leadwire.platform.jobs.views import public_job

    sessionmaker = make_sessionmaker(make_engine(database_url))

    async def read_job(request: Request) -> Response:
        async with sessionmaker() as session:
            job = await session.get(Job, request.path_params["job_id"])
            await session.commit()
        if job is None:
            return Response(status_code=404)
        return Response(orjson.dumps(public_job(job)), media_type="application/json")

    async def readyz(request: Request) -> Response:
        return Response(b'{"ok":true}', media_type="application/json")

    app = Starlette(routes=[Route("/jobs/{job_id}", read_job), Route("/readyz", readyz)])
    # The uvicorn settings of `leadwire api` (leadwire.cli._run_server).
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_config=None, access_log=False, lifespan="on"
    )
    uvicorn.Server(config).run()


# --- load generation ---------------------------------------------------------------------------------


def _lua(path: str, keys: list[str]) -> str:
    quoted = ", ".join(f'"{key}"' for key in keys)
    return (
        f"local keys = {{{quoted}}}\n"
        "local i = 0\n"
        "request = function()\n"
        "  i = i % #keys + 1\n"
        f'  return wrk.format("GET", "{path}", {{["Authorization"] = "Bearer " .. keys[i]}})\n'
        "end\n"
    )


def _wrk(base_url: str, path: str, keys: list[str], seconds: int, connections: int, tmp: Path) -> Load:
    script = tmp / "rotate.lua"
    script.write_text(_lua(path, keys))
    argv = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", str(script), base_url]
    output = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 30, check=True).stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    total = re.search(r"(\d+) requests in", output)
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    if rps is None or total is None:
        raise RuntimeError(f"unexpected wrk output:\n{output}")
    return Load(float(rps.group(1)), int(total.group(1)), int(non_2xx.group(1)) if non_2xx else 0)


async def _httpx_load(url: str, keys: list[str], seconds: float, connections: int) -> dict[str, float]:
    import httpx

    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    counts = {"requests": 0, "non_2xx": 0}
    async with httpx.AsyncClient(timeout=10.0, limits=limits) as client:
        deadline = time.monotonic() + seconds

        async def user(index: int) -> None:
            while time.monotonic() < deadline:
                key = keys[(index + counts["requests"]) % len(keys)]
                response = await client.get(url, headers={"Authorization": f"Bearer {key}"})
                counts["requests"] += 1
                counts["non_2xx"] += not 200 <= response.status_code < 300

        started = time.monotonic()
        await asyncio.gather(*(user(i) for i in range(connections)))
        elapsed = time.monotonic() - started
    return {"rps": counts["requests"] / elapsed, "requests": counts["requests"], "non_2xx": counts["non_2xx"]}


def _httpx(base_url: str, path: str, keys: list[str], seconds: int, connections: int, tmp: Path) -> Load:
    keys_file = tmp / "keys.json"
    keys_file.write_text(json.dumps(keys))
    argv = [sys.executable, __file__, "--loadgen", base_url + path, "--keys-file", str(keys_file)]
    argv += ["--duration", str(seconds), "--connections", str(connections)]
    output = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60, check=True).stdout
    result = json.loads(output.strip().splitlines()[-1])
    return Load(float(result["rps"]), int(result["requests"]), int(result["non_2xx"]))


def load(base_url: str, path: str, keys: list[str], args: argparse.Namespace, tmp: Path) -> Load:
    generate = _wrk if shutil.which("wrk") else _httpx
    generate(base_url, path, keys, WARM_UP_SECONDS, args.connections, tmp)
    return generate(base_url, path, keys, args.duration, args.connections, tmp)


# --- setup and the runs ------------------------------------------------------------------------------


async def _create_job(database_url: str, data_dir: Path, keys: int) -> tuple[str, list[str]]:
    """A business account with `keys` keys and one `bench.noop` job it owns; (job id, raw keys)."""
    from leadwire import capabilities
    from leadwire.config import Settings
    from leadwire.platform.auth import Caller
    from leadwire.platform.db import transaction
    from leadwire.platform.jobs.service import create_job
    from leadwire.platform.plans import get_plan
    from leadwire.platform.runtime import build_runtime
    from leadwire.platform.users import all_scopes

    capabilities.enabled()

    noop = bs.import_repo_module("bench.plugins.noop")
    user_id, issued = await bs.create_account(database_url, plan="business", keys=keys)
    caller = Caller(
        user_id=user_id, key_id=issued[0][0], plan=get_plan("business"), scopes=frozenset(all_scopes())
    )
    runtime = await build_runtime(Settings(data_dir=data_dir, database_url=database_url))
    try:
        async with transaction(runtime.sessionmaker) as session:
            job = await create_job(session, runtime.notifier, caller, action=noop.ACTION, payload={})
    finally:
        await runtime.close()
    return job.id, [key for _key_id, key in issued]


def _run_server(
    argv: list[str], env: dict[str, str], log: Path, port: str, run: Callable[[str], Load]
) -> Load:
    with bs.running(argv, env, log) as server:
        base_url = f"http://127.0.0.1:{port}"
        bs.wait_http_ok(f"{base_url}/readyz", server, timeout=120.0)
        return run(base_url)


def measure_leadwire(
    env: dict[str, str], job_id: str, keys: list[str], args: argparse.Namespace, tmp: Path, label: str
) -> Load:
    path = f"/api/v2/jobs/{job_id}"
    port = str(bs.free_port())
    argv = bs.leadwire_cmd("api", "--port", port)
    result = _run_server(
        argv, env, tmp / f"api-{label}.log", port, lambda url: load(url, path, keys, args, tmp)
    )
    if result.non_2xx:
        bs.note(
            f"{label}: {result.non_2xx} of {result.requests} responses were not 2xx with the business "
            f"plan's limits ({result.rps:.0f} req/s over {len(keys)} keys): its poll limits (6000/min per "
            "key, 12000/min per account) cap this load; repeating with bench.plugins.unlimited "
            "(limits lifted, limiter still running)"
        )
        env = {**env, "LEADWIRE_PLUGINS": env["LEADWIRE_PLUGINS"] + ",bench.plugins.unlimited"}
        port = str(bs.free_port())
        argv = bs.leadwire_cmd("api", "--port", port)
        result = _run_server(
            argv, env, tmp / f"api-{label}-unlimited.log", port, lambda url: load(url, path, keys, args, tmp)
        )
        if result.non_2xx:
            raise RuntimeError(f"{label}: {result.non_2xx} non-2xx responses even without rate limits")
    return result


def measure_baseline(
    database_url: str, job_id: str, keys: list[str], args: argparse.Namespace, tmp: Path, label: str
) -> Load:
    port = str(bs.free_port())
    argv = [sys.executable, __file__, "--serve-baseline", "--database-url", database_url, "--port", port]
    env = bs.child_env(tmp / "pycache")
    result = _run_server(
        argv, env, tmp / f"bare-{label}.log", port, lambda url: load(url, f"/jobs/{job_id}", keys, args, tmp)
    )
    if result.non_2xx:
        raise RuntimeError(f"bare {label}: {result.non_2xx} non-2xx responses")
    return result


def report(label: str, leadwire: Load, bare: Load) -> None:
    # Ratio = Leadwire ÷ bare route (higher is better); the issue asks for at least 0.5.
    bs.emit_triple(
        f"job_read_rps_{label}",
        leadwire.rps,
        bare.rps,
        "req/s",
        ratio=bs.safe_ratio(leadwire.rps, bare.rps),
        target=f"target >= 0.5: {bs.verdict(leadwire.rps >= 0.5 * bare.rps)}",
    )


def run_database(
    label: str, database_url: str | None, tmp: Path, args: argparse.Namespace, *, redis_too: bool
) -> None:
    data_dir = tmp / label
    env = bs.leadwire_env(
        data_dir, database_url=database_url, plugins="bench.plugins.noop", pycache=tmp / "pycache"
    )
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    from leadwire.config import Settings

    resolved = Settings(data_dir=data_dir, database_url=database_url).resolved_database_url
    job_id, keys = asyncio.run(_create_job(resolved, data_dir, args.keys))
    leadwire = measure_leadwire(env, job_id, keys, args, tmp, label)
    bare = measure_baseline(resolved, job_id, keys, args, tmp, label)
    report(label, leadwire, bare)
    if redis_too:
        # A fresh account: its rate-limit windows in Redis start empty.
        job_id, keys = asyncio.run(_create_job(resolved, data_dir, args.keys))
        redis_env = {**env, "LEADWIRE_REDIS_URL": bs.REDIS_URL}
        report(f"{label}_redis", measure_leadwire(redis_env, job_id, keys, args, tmp, f"{label}_redis"), bare)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds of load per server")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--keys", type=int, default=8, help="API keys of the account, rotated")
    parser.add_argument("--no-redis", action="store_true", help="skip the PostgreSQL + Redis limiter run")
    parser.add_argument("--serve-baseline", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--loadgen", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--keys-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_baseline:
        serve_baseline(args.database_url, args.port)
        return
    if args.loadgen:
        keys = json.loads(args.keys_file.read_text())
        print(json.dumps(asyncio.run(_httpx_load(args.loadgen, keys, args.duration, args.connections))))
        return
    generator = "wrk -t1" if shutil.which("wrk") else "httpx load generator process (wrk not installed)"
    bs.note(f"load: {generator}, {args.connections} connections, {args.duration} s after {WARM_UP_SECONDS} s")
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-read-") as tmp_name:
        tmp = Path(tmp_name)
        run_database("sqlite", None, tmp, args, redis_too=False)
        if not bs.postgres_reachable():
            bs.note(f"PostgreSQL runs skipped: not reachable at {bs.PG_URL}")
            return
        redis_too = not args.no_redis and bs.redis_reachable()
        with bs.temp_postgres_database("read") as pg_url:
            run_database("postgres", bs.sqlalchemy_url(pg_url), tmp, args, redis_too=redis_too)


if __name__ == "__main__":
    main()
