"""Starting real Leadwire processes (server, worker) for tests that cross a process boundary."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
LEADWIRE = [sys.executable, "-m", "leadwire.cli"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def process_env(data_dir: Path, database_url: str | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEADWIRE_")}
    env.update(
        # This tree's own sources first, then the repository (tests.*): a worktree's processes run its code.
        PYTHONPATH=os.pathsep.join((str(REPO / "src"), str(REPO))),
        LEADWIRE_DATA_DIR=str(data_dir),
        LEADWIRE_PLUGINS="tests.support.echo",
        LEADWIRE_LOG_LEVEL="warning",
    )
    if database_url:
        env["LEADWIRE_DATABASE_URL"] = database_url
    if "LEADWIRE_DB_CONNECT_TIMEOUT_SECONDS" in os.environ:  # the loaded test host's (tests/conftest.py)
        env["LEADWIRE_DB_CONNECT_TIMEOUT_SECONDS"] = os.environ["LEADWIRE_DB_CONNECT_TIMEOUT_SECONDS"]
    env.update(extra)
    return env


@contextlib.contextmanager
def leadwire_process(args: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*LEADWIRE, *args], env=env, stdout=out, stderr=subprocess.STDOUT, cwd=REPO
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_ready(base_url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> float:
    """Seconds until /readyz answered 200."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if process.poll() is not None:
            raise AssertionError(f"process exited {process.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base_url}/readyz", timeout=1).status_code == 200:
                return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"not ready after {timeout}s:\n{log.read_text()[-3000:]}")


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.05) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise AssertionError("condition not met in time")
