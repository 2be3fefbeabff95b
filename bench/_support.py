"""Helpers shared by the benchmarks: child processes, readiness, temporary databases, figure lines.

Benchmarks run as scripts (`.venv/bin/python bench/NAME.py`), so this module is imported as
`_support`. Every child process gets PYTHONPATH=<repo>/src:<repo> (this tree's code, then
`bench.plugins.*` and `tests.support.*`) and no inherited `LEADWIRE_*` variable. All traffic stays on
loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
import math
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
# The server the benchmarks create their temporary databases on (trust auth on loopback).
PG_URL = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")


# --- figures -----------------------------------------------------------------------------------------


def fmt(value: float) -> str:
    if math.isnan(value) or math.isinf(value):
        return str(value)
    magnitude = abs(value)
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def emit(name: str, value: float, unit: str = "", note: str = "") -> None:
    """One figure line: `name: value unit` (a parenthesised note may follow)."""
    line = f"{name}: {fmt(value)}"
    if unit:
        line += f" {unit}"
    if note:
        line += f" ({note})"
    print(line, flush=True)


def emit_triple(
    name: str,
    value: float,
    baseline: float,
    unit: str,
    *,
    ratio: float,
    target: str,
    ratio_name: str | None = None,
) -> None:
    """The figure, its baseline from the same run, and the ratio the issue's target is stated in."""
    emit(name, value, unit)
    emit(f"{name}_baseline", baseline, unit)
    emit(ratio_name or f"{name}_ratio", ratio, note=target)


def note(text: str) -> None:
    """A comment line (not a figure)."""
    print(f"# {text}", flush=True)


def verdict(met: bool) -> str:
    return "met" if met else "missed"


def safe_ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else float("nan")


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile, q in [0, 100]."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


# --- processes ---------------------------------------------------------------------------------------


@dataclasses.dataclass
class WrkRun:
    """What one `wrk --latency` run printed."""

    rps: float
    requests: int
    non_2xx: int
    p99_ms: float


def run_wrk(base_url: str, script: Path, *, connections: int, seconds: int) -> WrkRun:
    """`wrk -t1 --latency` with a Lua `script` from this process (loopback only)."""
    argv = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script), base_url]
    output = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 30, check=True).stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    total = re.search(r"(\d+) requests in", output)
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", output)
    if rps is None or total is None or p99 is None:
        raise RuntimeError(f"unexpected wrk output:\n{output}")
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    return WrkRun(float(rps.group(1)), int(total.group(1)), int(non_2xx.group(1)) if non_2xx else 0, p99_ms)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def leadwire_cmd(*args: str) -> list[str]:
    """`leadwire ARGS` from this venv (the console script a user runs)."""
    script = BIN / "leadwire"
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-m", "leadwire.cli", *args]


def child_env(pycache: Path | None = None, **extra: str) -> dict[str, str]:
    """The environment of a child process: no inherited LEADWIRE_*/PROCRASTINATE_* variables.

    `pycache`: write bytecode under that prefix (as a normal installation does next to the sources),
    even when this shell sets PYTHONDONTWRITEBYTECODE; a warm-up run fills it, so timed starts are
    the "second start" of a real installation without touching the work tree.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEADWIRE_", "PROCRASTINATE_"))}
    env["PYTHONPATH"] = os.pathsep.join((str(REPO / "src"), str(REPO)))  # this tree's code first
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env.update(extra)
    return env


def leadwire_env(
    data_dir: Path,
    *,
    database_url: str | None = None,
    plugins: str = "",
    pycache: Path | None = None,
    **extra: str,
) -> dict[str, str]:
    env = child_env(pycache)
    env.update(LEADWIRE_DATA_DIR=str(data_dir), LEADWIRE_LOG_LEVEL="warning", LEADWIRE_PLUGINS=plugins)
    if database_url:
        env["LEADWIRE_DATABASE_URL"] = database_url
    env.update(extra)
    return env


class Process:
    """A child process with its output in a log file; stopped with SIGTERM (then SIGKILL)."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path, *, cwd: Path = REPO) -> None:
        self.log = log
        self.started = time.monotonic()
        with log.open("ab") as out:
            self.popen = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=cwd)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""

    def stop(self, timeout: float = 20.0) -> None:
        if self.popen.poll() is not None:
            return
        self.popen.send_signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()


@contextlib.contextmanager
def running(argv: list[str], env: dict[str, str], log: Path, *, cwd: Path = REPO) -> Iterator[Process]:
    process = Process(argv, env, log, cwd=cwd)
    try:
        yield process
    finally:
        process.stop()


def run_checked(argv: list[str], env: dict[str, str], *, timeout: float = 120.0) -> str:
    """Run a short command to completion; its stdout, or an error with its output."""
    done = subprocess.run(argv, env=env, cwd=REPO, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def wait_http_ok(url: str, process: Process, *, timeout: float = 60.0, interval: float = 0.01) -> float:
    """Seconds from the process start until `url` answered 200 (polled every `interval`)."""
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=2.0) as client:
        while time.monotonic() < deadline:
            if not process.alive():
                raise RuntimeError(f"process exited {process.popen.returncode}:\n{process.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if client.get(url).status_code == 200:
                    return time.monotonic() - process.started
            time.sleep(interval)
    raise RuntimeError(f"{url} not ready after {timeout}s:\n{process.tail()}")


def vm_rss_mb(pid: int) -> float:
    """Resident set size of one process (VmRSS of /proc/<pid>/status) in MB (10^6 bytes)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError(f"no VmRSS for pid {pid}")


def import_repo_module(name: str) -> ModuleType:
    """Import a module by dotted path from the repository root (e.g. `bench.plugins.noop`)."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    return importlib.import_module(name)


# --- services ----------------------------------------------------------------------------------------


def _with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, parts.fragment))


def postgres_reachable() -> bool:
    async def probe() -> bool:
        import asyncpg

        try:
            connection = await asyncpg.connect(PG_URL, timeout=3)
        except Exception:
            return False
        await connection.close()
        return True

    return asyncio.run(probe())


def redis_reachable() -> bool:
    parts = urlsplit(REDIS_URL)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), timeout=2):
            return True
    except OSError:
        return False


async def _admin_sql(statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(PG_URL, timeout=10)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@contextlib.contextmanager
def temp_postgres_database(tag: str) -> Iterator[str]:
    """CREATE DATABASE bench_<tag>_<random>; yields its plain `postgresql://` URL; dropped at the end."""
    name = f"bench_{tag}_{uuid.uuid4().hex[:10]}"
    asyncio.run(_admin_sql(f'CREATE DATABASE "{name}"'))
    try:
        yield _with_database(PG_URL, name)
    finally:
        asyncio.run(_admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def sqlalchemy_url(postgres_url: str) -> str:
    return postgres_url.replace("postgresql://", "postgresql+asyncpg://", 1)


async def create_account(
    database_url: str, *, plan: str = "business", keys: int = 1, credits: int = 0
) -> tuple[str, list[tuple[str, str]]]:
    """A user and `keys` all-scope API keys, through the services; (user_id, [(key_id, key)])."""
    return (await create_accounts(database_url, [credits], plan=plan, keys=keys))[0]


async def create_accounts(
    database_url: str, credits: Sequence[int], *, plan: str = "business", keys: int = 1
) -> list[tuple[str, list[tuple[str, str]]]]:
    """One user per entry of `credits` (granted that many credits when > 0) with `keys` all-scope API
    keys each, through the services, in one transaction; [(user_id, [(key_id, key)])]."""
    import leadwire.models  # noqa: F401 - every table must be known for foreign keys to resolve
    from leadwire import capabilities
    from leadwire.platform.billing import ledger
    from leadwire.platform.db import make_engine, make_sessionmaker, transaction
    from leadwire.platform.users import all_scopes, create_user, issue_key

    capabilities.enabled()

    accounts: list[tuple[str, list[tuple[str, str]]]] = []
    engine = make_engine(database_url)
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            for amount in credits:
                email = f"bench-{uuid.uuid4().hex[:12]}@bench.example"
                user = await create_user(session, email=email, plan=plan)
                if amount:
                    await ledger.grant(session, user.id, amount)
                issued: list[Any] = [
                    await issue_key(session, user_id=user.id, scopes=list(all_scopes())) for _ in range(keys)
                ]
                accounts.append((user.id, [(i.key_id, i.key) for i in issued]))
    finally:
        await engine.dispose()
    return accounts


def p50_ms(client: Any, path: str, count: int, headers: dict[str, str] | None = None) -> float:
    """The median milliseconds of `count` GETs of `path`, one at a time (each must answer 200)."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        response = client.get(path, headers=headers)
        times.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"{path}: {response.status_code} {response.text[:200]}")
    return statistics.median(times) * 1000
