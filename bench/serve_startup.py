"""Start-up time and idle memory of `leadwire serve --no-build-world` (docs/benchmarks.md, First start).

(a) Start → `/readyz` 200: seconds from spawning `leadwire serve --no-build-world` (SQLite, the
    database already migrated and the demo account bootstrapped by an untimed first start, bytecode
    cached) until `/readyz` answers 200; median of `--runs` (5) starts.
    Baseline (same run): a bare uvicorn + Starlette app with one `/readyz` route doing `SELECT 1` on
    SQLite (aiosqlite), spawned and polled the same way.
    Ratio: Leadwire ÷ baseline (lower is better). Target: Leadwire <= 3 s.
(b) Idle RSS: VmRSS of the same process 3 s after it became ready, median of the same runs, in MB.
    Baseline: the same bare app. Ratio: Leadwire ÷ baseline. Target: Leadwire <= 150 MB.
(c) `--cold` (slow, not run by `bench/run.py`): `git clone` of the repository's committed state into a
    temporary directory, then `make serve` (venv, pip install, migrate, demo account, sandbox world of
    size `--cold-size`, `default` unless told) until `/readyz` is 200; the pip install part (until
    `make` touches `.venv/.installed`) is printed separately. Then, as the server serves, until
    `/readyz` says the world is ready (world and search index built in their own process;
    target: <= 120 s after the install), and the server's idle RSS 3 s after that (target <= 200 MB).
    No baseline.

    .venv/bin/python bench/serve_startup.py [--runs 5] [--cold] [--cold-size default]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

import _support as bs

IDLE_SECONDS = 3.0

BASELINE_APP = '''\
"""A bare uvicorn + Starlette app: one /readyz route doing SELECT 1 on SQLite."""
import os
import sys

import aiosqlite
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

DATABASE = os.environ["BENCH_SQLITE_PATH"]


async def readyz(request):
    async with aiosqlite.connect(DATABASE) as connection:
        await connection.execute("SELECT 1")
    return JSONResponse({"ok": True, "status": "ready"})


app = Starlette(routes=[Route("/readyz", readyz)])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_config=None, access_log=False)
'''


def _start_and_measure(argv: list[str], env: dict[str, str], log: Path) -> tuple[float, float]:
    """(seconds until /readyz 200, VmRSS in MB after IDLE_SECONDS idle); the port is the last argv."""
    port = argv[-1]
    with bs.running(argv, env, log) as process:
        ready = bs.wait_http_ok(f"http://127.0.0.1:{port}/readyz", process, timeout=120.0)
        time.sleep(IDLE_SECONDS)
        rss = bs.vm_rss_mb(process.pid)
    return ready, rss


def _series(
    name: str, make_argv: Callable[[str], list[str]], env: dict[str, str], tmp: Path, runs: int
) -> tuple[float, float]:
    # Untimed first start: migrates, bootstraps the demo account and fills the bytecode cache.
    _start_and_measure(make_argv(str(bs.free_port())), env, tmp / f"{name}-first.log")
    readies: list[float] = []
    rsses: list[float] = []
    for i in range(runs):
        ready, rss = _start_and_measure(make_argv(str(bs.free_port())), env, tmp / f"{name}-{i}.log")
        readies.append(ready)
        rsses.append(rss)
    bs.note(
        f"{name}: ready "
        + ", ".join(f"{r:.2f}" for r in readies)
        + " s; RSS "
        + ", ".join(f"{r:.0f}" for r in rsses)
        + " MB"
    )
    return statistics.median(readies), statistics.median(rsses)


def warm(runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-startup-") as tmp_name:
        tmp = Path(tmp_name)
        pycache = tmp / "pycache"
        data_dir = tmp / "data"
        env = bs.leadwire_env(data_dir, pycache=pycache)
        leadwire_ready, leadwire_rss = _series(
            "leadwire",
            lambda port: bs.leadwire_cmd("serve", "--no-build-world", "--port", port),
            env,
            tmp,
            runs,
        )
        app = tmp / "baseline_app.py"
        app.write_text(BASELINE_APP)
        baseline_env = bs.child_env(pycache, BENCH_SQLITE_PATH=str(tmp / "baseline.db"))
        baseline_ready, baseline_rss = _series(
            "baseline", lambda port: [sys.executable, str(app), port], baseline_env, tmp, runs
        )
    # Ratios are Leadwire ÷ bare app (lower is better); the targets are on Leadwire's own figure.
    bs.emit_triple(
        "serve_start_to_ready",
        leadwire_ready,
        baseline_ready,
        "s",
        ratio=bs.safe_ratio(leadwire_ready, baseline_ready),
        target=f"Leadwire / bare app; target serve_start_to_ready <= 3 s: {bs.verdict(leadwire_ready <= 3)}",
    )
    bs.emit_triple(
        "serve_idle_rss",
        leadwire_rss,
        baseline_rss,
        "MB",
        ratio=bs.safe_ratio(leadwire_rss, baseline_rss),
        target=f"Leadwire / bare app; target serve_idle_rss <= 150 MB: {bs.verdict(leadwire_rss <= 150)}",
    )


def _server_pid(session: int) -> int | None:
    """The `leadwire serve` process of the session `make serve` leads (its Python, not make or sh)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()  # state ppid pgrp session ...
            cmdline = (stat.parent / "cmdline").read_bytes().split(b"\0")
            if int(fields[3]) == session and b"serve" in cmdline and b"make" not in cmdline[0]:
                return int(stat.parent.name)
    return None


def _world_ready(client: httpx.Client, port: int, started: float, timeout: float) -> float:
    """Seconds from `started` until /readyz says the sandbox world is ready."""
    while time.monotonic() - started < timeout:
        with contextlib.suppress(httpx.HTTPError, ValueError):
            checks = client.get(f"http://127.0.0.1:{port}/readyz").json().get("checks", {})
            if checks.get("world", "ready") == "ready":
                return time.monotonic() - started
            if checks.get("world") == "failed":
                raise RuntimeError("the sandbox world build failed")
        time.sleep(0.5)
    raise RuntimeError(f"the sandbox world was not ready after {timeout}s")


def cold(timeout: float, size: str) -> None:
    """`git clone` + `make serve` until /readyz 200, with the pip install part timed separately; then
    until the world is ready, and the server's idle RSS after it."""
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-cold-") as tmp_name:
        clone = Path(tmp_name) / "leadwire"
        subprocess.run(["git", "clone", "--quiet", str(bs.REPO), str(clone)], check=True)
        commit = subprocess.run(
            ["git", "-C", str(clone), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        port = bs.free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LEADWIRE_", "VIRTUAL_ENV"))}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # a fresh machine writes bytecode as usual
        env.pop("PYTHONPATH", None)
        env.update(LEADWIRE_PORT=str(port), LEADWIRE_SANDBOX_SIZE=size)
        stamp = clone / ".venv" / ".installed"
        log = Path(tmp_name) / "make-serve.log"
        with log.open("wb") as out:
            started = time.monotonic()
            started_wall = time.time()
            make = subprocess.Popen(
                ["make", "serve"],
                cwd=clone,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        installed: float | None = None
        ready: float | None = None
        world_ready: float | None = None
        idle_rss: float | None = None
        try:
            with httpx.Client(timeout=2.0) as client:
                while time.monotonic() - started < timeout:
                    if installed is None and stamp.exists():
                        installed = stamp.stat().st_mtime - started_wall
                    if make.poll() is not None:
                        raise RuntimeError(f"make serve exited {make.returncode}:\n{log.read_text()[-3000:]}")
                    with contextlib.suppress(httpx.HTTPError):
                        if client.get(f"http://127.0.0.1:{port}/readyz").status_code == 200:
                            ready = time.monotonic() - started
                            break
                    time.sleep(0.1)
                if ready is not None:
                    world_ready = _world_ready(client, port, started, timeout)
                    time.sleep(IDLE_SECONDS)
                    server = _server_pid(make.pid)
                    idle_rss = bs.vm_rss_mb(server) if server is not None else None
        finally:
            if make.poll() is None:
                os.killpg(make.pid, signal.SIGTERM)  # make and the server it started (their own group)
                try:
                    make.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(make.pid, signal.SIGKILL)
                    make.wait()
        if ready is None:
            raise RuntimeError(f"make serve not ready after {timeout}s:\n{log.read_text()[-3000:]}")
    bs.note(f"cold start of commit {commit}: git clone + make serve, LEADWIRE_SANDBOX_SIZE={size}")
    bs.emit("cold_make_serve_to_ready", ready, "s", note="no baseline")
    if installed is not None:
        bs.emit("cold_make_serve_pip_install", installed, "s", note="venv + pip install part")
        bs.emit("cold_make_serve_after_install", ready - installed, "s", note="migrate, demo, serve")
        if world_ready is not None:
            after = world_ready - installed
            bs.emit(
                "cold_world_ready_after_install",
                after,
                "s",
                note="world + search index, built while serving; "
                f"target <= 120 s: {bs.verdict(after <= 120)}",
            )
    if idle_rss is not None:
        bs.emit(
            "cold_idle_rss_after_world_build",
            idle_rss,
            "MB",
            note=f"the server {IDLE_SECONDS} s after the world was ready; target <= 200 MB: "
            f"{bs.verdict(idle_rss <= 200)}",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="also time git clone + make serve (slow)")
    parser.add_argument("--cold-only", action="store_true", help="only the --cold measurement")
    parser.add_argument("--cold-timeout", type=float, default=1800.0)
    parser.add_argument("--cold-size", default="default", help="the sandbox world's size (small, default)")
    args = parser.parse_args()
    if not args.cold_only:
        warm(args.runs)
    if args.cold or args.cold_only:
        cold(args.cold_timeout, args.cold_size)


if __name__ == "__main__":
    main()
