"""`GET /api/v2/jobs/{id}`: requests/s and p99 through the full stack vs the raw driver
(docs/benchmarks.md, Job reads).

Measures: requests/s and p99 latency of `GET /api/v2/jobs/{id}` on `leadwire api` (uvicorn, 1 process):
request-context middleware, authentication (key lookup), rate limits (`poll` class), ownership/scope
check, envelope. The caller is a `business` account; the load rotates over `--keys` (8) keys so the
per-key limit (6000/min) does not cap it. If any response is not 2xx (the account-wide 12000/min may
still cap), that is reported and the measurement is repeated with bench/plugins/unlimited.py, which
lifts the business limits (the limiter still runs).
Baseline (same run, same database, same uvicorn settings, 1 process) — the honest floor: a bare
Starlette route that reads the same job row by primary key on the raw driver (an asyncpg pool of
`--connections` connections, no reset query on release, as Leadwire's own poll pool; one aiosqlite
connection in WAL mode), decodes the JSON result, and returns the same fields in the same envelope,
encoded by the same JSON library. No authentication, limits or ORM.
Load: `wrk` (one thread, `--connections` 16, `--latency`) from a separate process on loopback for
`--duration` (10 s) after a 2 s warm-up; without wrk, an httpx load generator process (`--loadgen`).
Run on SQLite and on PostgreSQL (in-memory limiter, as SQLite), and on PostgreSQL with the Redis
limiter (the documented scaled-out setting) against the same PostgreSQL baseline.
Ratios: Leadwire req/s ÷ raw req/s (target >= 0.5); p99 in ms beside the raw route's (target < 20 ms).

    .venv/bin/python bench/job_read_rps.py [--duration 10] [--connections 16] [--keys 8] \
        [--databases sqlite,postgres] [--no-redis]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import _support as bs

WARM_UP_SECONDS = 2


@dataclasses.dataclass
class Load:
    rps: float
    requests: int
    non_2xx: int
    p99_ms: float


# --- the raw-driver baseline server (run as `job_read_rps.py --serve-baseline`) -----------------------

# The same columns the public job is built from, read by primary key.
JOB_COLUMNS = (
    "id, action, status, channel, payload, progress_stage, progress_percent, resource_type, resource_id, "
    "scheduled_at, started_at, finished_at, attempt_count, result, error_code, error_detail, "
    "billing_status, charged_credits, pending_units"
)


def _decoded(value: object) -> object:
    """A JSON column as the public job carries it: the object, not its text (the drivers return text)."""
    import orjson

    return orjson.loads(value) if isinstance(value, str | bytes) else value


def _job_body(row: dict[str, object]) -> bytes:
    """The envelope of the row, shaped like the public job (same fields, same JSON encoder)."""
    import orjson

    item = {
        "id": row["id"],
        "action": row["action"],
        "status": row["status"],
        "progress": {"stage": row["progress_stage"], "percent": row["progress_percent"]},
        "resource": None,
        "scheduled_at": row["scheduled_at"],
        "started_at": row["started_at"],
        "finished_at": row["finished_at"],
        "attempt_count": row["attempt_count"],
        "result": _decoded(row["result"]),
        "error": None,
        "billing": {
            "status": row["billing_status"],
            "charged_credits": row["charged_credits"],
            "pending_units": row["pending_units"],
        },
    }
    return orjson.dumps({"success": True, "data": {"item": item}}, default=str)


def _raw_reader(database_url: str, pool_size: int) -> tuple[object, object]:
    """(startup, read(job_id) -> row or None) on the bare driver: asyncpg's pool, or aiosqlite."""
    state: dict[str, object] = {}
    if database_url.startswith("sqlite"):
        import aiosqlite

        path = database_url.split("///", 1)[1]

        async def startup() -> None:
            connection = await aiosqlite.connect(path)
            connection.row_factory = aiosqlite.Row
            await connection.execute("PRAGMA journal_mode=WAL")
            state["db"] = connection

        async def read(job_id: str) -> dict[str, object] | None:
            db = state["db"]
            async with db.execute(f"SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?", (job_id,)) as cursor:  # type: ignore[attr-defined]
                row = await cursor.fetchone()
            return dict(row) if row is not None else None

        return startup, read

    import asyncpg

    dsn = database_url.replace("postgresql+asyncpg://", "postgresql://", 1)

    async def leave_as_is(_connection: object) -> None:
        """No reset query on release, as Leadwire's poll pool: asyncpg's default reset is a second
        round trip per read, which would make the floor do more work than the path it measures."""

    async def startup_pg() -> None:
        state["pool"] = await asyncpg.create_pool(
            dsn, min_size=pool_size, max_size=pool_size, reset=leave_as_is
        )

    async def read_pg(job_id: str) -> dict[str, object] | None:
        pool = state["pool"]
        row = await pool.fetchrow(f"SELECT {JOB_COLUMNS} FROM jobs WHERE id = $1", job_id)  # type: ignore[attr-defined]
        return dict(row) if row is not None else None

    return startup_pg, read_pg


def serve_baseline(database_url: str, port: int, pool_size: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    startup, read = _raw_reader(database_url, pool_size)

    async def read_job(request: Request) -> Response:
        row = await read(request.path_params["job_id"])  # type: ignore[operator]
        if row is None:
            return Response(status_code=404)
        return Response(_job_body(row), media_type="application/json")

    async def readyz(request: Request) -> Response:
        return Response(b'{"ok":true}', media_type="application/json")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await startup()  # type: ignore[operator]
        yield

    app = Starlette(routes=[Route("/jobs/{job_id}", read_job), Route("/readyz", readyz)], lifespan=lifespan)
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
    run = bs.run_wrk(base_url, script, connections=connections, seconds=seconds)
    return Load(run.rps, run.requests, run.non_2xx, run.p99_ms)


async def _httpx_load(url: str, keys: list[str], seconds: float, connections: int) -> dict[str, float]:
    import httpx

    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    counts = {"requests": 0, "non_2xx": 0}
    latencies: list[float] = []
    async with httpx.AsyncClient(timeout=10.0, limits=limits) as client:
        deadline = time.monotonic() + seconds

        async def user(index: int) -> None:
            while time.monotonic() < deadline:
                key = keys[(index + counts["requests"]) % len(keys)]
                sent = time.perf_counter()
                response = await client.get(url, headers={"Authorization": f"Bearer {key}"})
                latencies.append((time.perf_counter() - sent) * 1000)
                counts["requests"] += 1
                counts["non_2xx"] += not 200 <= response.status_code < 300

        started = time.monotonic()
        await asyncio.gather(*(user(i) for i in range(connections)))
        elapsed = time.monotonic() - started
    p99 = sorted(latencies)[int(0.99 * (len(latencies) - 1))] if latencies else 0.0
    return {"rps": counts["requests"] / elapsed, **counts, "p99_ms": p99}


def _httpx(base_url: str, path: str, keys: list[str], seconds: int, connections: int, tmp: Path) -> Load:
    keys_file = tmp / "keys.json"
    keys_file.write_text(json.dumps(keys))
    argv = [sys.executable, __file__, "--loadgen", base_url + path, "--keys-file", str(keys_file)]
    argv += ["--duration", str(seconds), "--connections", str(connections)]
    output = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60, check=True).stdout
    result = json.loads(output.strip().splitlines()[-1])
    counts = int(result["requests"]), int(result["non_2xx"])
    return Load(float(result["rps"]), *counts, float(result["p99_ms"]))


def load(base_url: str, path: str, keys: list[str], args: argparse.Namespace, tmp: Path) -> Load:
    generate = _wrk if shutil.which("wrk") else _httpx
    generate(base_url, path, keys, WARM_UP_SECONDS, args.connections, tmp)
    return generate(base_url, path, keys, args.duration, args.connections, tmp)


# --- setup and the runs ------------------------------------------------------------------------------


async def _create_job(database_url: str, data_dir: Path, keys: int) -> tuple[str, list[str]]:
    """A business account with `keys` keys and one `bench.noop` job it owns; (job id, raw keys)."""
    from leadwire import capabilities
    from leadwire.config import Settings
    from leadwire.platform.callers import Caller
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
    argv += ["--pool-size", str(args.connections)]
    env = bs.child_env(tmp / "pycache")
    result = _run_server(
        argv, env, tmp / f"bare-{label}.log", port, lambda url: load(url, f"/jobs/{job_id}", keys, args, tmp)
    )
    if result.non_2xx:
        raise RuntimeError(f"bare {label}: {result.non_2xx} non-2xx responses")
    return result


def report(label: str, leadwire: Load, bare: Load) -> None:
    # Ratio = Leadwire ÷ raw-driver route (higher is better); target at least 0.5
    # (docs/benchmarks.md, Job reads).
    bs.emit_triple(
        f"job_read_rps_{label}",
        leadwire.rps,
        bare.rps,
        "req/s",
        ratio=bs.safe_ratio(leadwire.rps, bare.rps),
        target=f"target >= 0.5: {bs.verdict(leadwire.rps >= 0.5 * bare.rps)}",
    )
    # Ratio = Leadwire's p99 ÷ the raw route's (lower is better); the target is under 20 ms.
    bs.emit_triple(
        f"job_read_p99_{label}",
        leadwire.p99_ms,
        bare.p99_ms,
        "ms",
        ratio=bs.safe_ratio(leadwire.p99_ms, bare.p99_ms),
        target=f"target < 20 ms: {bs.verdict(leadwire.p99_ms < 20.0)}",
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
    parser.add_argument("--databases", default="sqlite,postgres", help="comma-separated: sqlite, postgres")
    parser.add_argument("--serve-baseline", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--pool-size", type=int, default=16, help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--loadgen", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--keys-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_baseline:
        serve_baseline(args.database_url, args.port, args.pool_size)
        return
    if args.loadgen:
        keys = json.loads(args.keys_file.read_text())
        print(json.dumps(asyncio.run(_httpx_load(args.loadgen, keys, args.duration, args.connections))))
        return
    generator = "wrk -t1" if shutil.which("wrk") else "httpx load generator process (wrk not installed)"
    bs.note(f"load: {generator}, {args.connections} connections, {args.duration} s after {WARM_UP_SECONDS} s")
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-read-") as tmp_name:
        tmp = Path(tmp_name)
        databases = args.databases.split(",")
        if "sqlite" in databases:
            run_database("sqlite", None, tmp, args, redis_too=False)
        if "postgres" not in databases:
            return
        if not bs.postgres_reachable():
            bs.note(f"PostgreSQL runs skipped: not reachable at {bs.PG_URL}")
            return
        redis_too = not args.no_redis and bs.redis_reachable()
        with bs.temp_postgres_database("read") as pg_url:
            run_database("postgres", bs.sqlalchemy_url(pg_url), tmp, args, redis_too=redis_too)


if __name__ == "__main__":
    main()
