"""`leadwire cluster`: several API processes behind one listening address, and job workers, supervised.

The supervisor binds the address once and hands the listening socket to every API process (uvicorn's
`fd`), so the kernel spreads connections over them: no proxy hop, and each API process is an ordinary
`leadwire api` with its own runtime. The processes share nothing but PostgreSQL and Redis, exactly as
they would on several machines, so what works here works there.

A child that dies is started again, after a back-off that grows while it keeps dying young; a worker
that dies has its jobs' leases released at once (`on_worker_exit`), so they run again within a poll
tick rather than after a full lease. SIGINT
(Ctrl-C) or SIGTERM stops the API processes first (they finish their requests), then the workers (they
finish their running jobs or release them), each given the grace period before SIGKILL.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import FrameType

from leadwire.lifetime import end_with_parent

LEADWIRE = [sys.executable, "-m", "leadwire.cli"]
RESTART_BACKOFF_MAX = 30.0
# A child that ran this long before dying is considered healthy again: its back-off starts over.
HEALTHY_AFTER_SECONDS = 60.0
POLL_SECONDS = 0.2


def listening_socket(host: str, port: int) -> socket.socket:
    """The one address every API process accepts on, inheritable by the children."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


@dataclass
class Child:
    name: str
    argv: list[str]
    pass_fds: tuple[int, ...] = ()
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    failures: int = 0  # consecutive early deaths: the back-off grows with them
    restart_at: float | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None


@dataclass
class Supervisor:
    children: list[Child]
    env: Mapping[str, str]
    grace_seconds: float
    # Told the pid of a worker that exited; answers how many of its jobs it gave back (None: unknown).
    on_worker_exit: Callable[[int], int | None] | None = None
    stopping: bool = False

    def run(self) -> int:
        """Start every child, keep them running until SIGINT/SIGTERM, then stop them; the exit code."""
        previous = {sig: signal.signal(sig, self._request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            for child in self.children:
                self._start(child)
            while not self.stopping:
                self._tend()
                time.sleep(POLL_SECONDS)
        finally:
            self._stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return 0

    def _request_stop(self, signum: int, _frame: FrameType | None) -> None:
        self.stopping = True

    def _start(self, child: Child) -> None:
        # A session of its own: Ctrl-C reaches the supervisor only, which stops the children in order.
        child.process = subprocess.Popen(
            child.argv,
            env=dict(self.env),
            pass_fds=child.pass_fds,
            start_new_session=True,
            preexec_fn=end_with_parent,
        )
        child.started_at = time.monotonic()
        child.restart_at = None
        self._report("started", child)

    def _tend(self) -> None:
        now = time.monotonic()
        for child in self.children:
            if child.restart_at is not None:
                if now >= child.restart_at:
                    self._start(child)
                continue
            assert child.process is not None
            code = child.process.poll()
            if code is None:
                continue
            lived = now - child.started_at
            child.failures = 0 if lived >= HEALTHY_AFTER_SECONDS else child.failures + 1
            delay = min(RESTART_BACKOFF_MAX, 0.5 * 2 ** max(0, child.failures - 1))
            child.restart_at = now + delay
            self._report("exited", child, code=code, restart_in_seconds=round(delay, 1))
            if child.name.startswith("worker") and self.on_worker_exit is not None and child.pid is not None:
                # Its jobs run again now, not when their leases would have expired.
                self._report("released", child, jobs=self.on_worker_exit(child.pid))

    def _stop_all(self) -> None:
        # API processes first: no new work arrives while the workers finish theirs.
        for group in ("api", "worker"):
            members = [c for c in self.children if c.name.startswith(group) and _alive(c)]
            for child in members:
                assert child.process is not None
                child.process.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + self.grace_seconds
            for child in members:
                assert child.process is not None
                try:
                    child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.process.kill()
                    child.process.wait()
                self._report("stopped", child, code=child.process.returncode)

    def _report(self, event: str, child: Child, **extra: object) -> None:
        record: dict[str, object] = {"cluster": event, "process": child.name, "pid": child.pid, **extra}
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()


def _alive(child: Child) -> bool:
    return child.process is not None and child.process.poll() is None


def plan_children(api: int, workers: int, fd: int, worker_concurrency: int | None) -> list[Child]:
    """`api` API processes on the shared socket and `workers` worker processes."""
    children = [
        Child(f"api-{n}", [*LEADWIRE, "api", "--fd", str(fd)], pass_fds=(fd,)) for n in range(1, api + 1)
    ]
    worker_argv = [*LEADWIRE, "worker"]
    if worker_concurrency is not None:
        worker_argv += ["--concurrency", str(worker_concurrency)]
    children += [Child(f"worker-{n}", list(worker_argv)) for n in range(1, workers + 1)]
    return children


async def ensure_postgres_database(url: str, timeout: float) -> bool:
    """Create the database `url` names when the server does not have it yet; True when created."""
    import asyncpg
    from sqlalchemy.engine import make_url

    target = make_url(url)
    dsn = target.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    connection = await asyncpg.connect(dsn, timeout=timeout)
    try:
        exists = await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", target.database)
        if exists:
            return False
        quoted = '"' + str(target.database).replace('"', '""') + '"'
        await connection.execute(f"CREATE DATABASE {quoted}")
        return True
    finally:
        await connection.close()
