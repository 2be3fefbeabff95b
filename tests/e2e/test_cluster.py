"""`leadwire cluster` (the deployment `make cluster` starts): two API processes behind one address and
two workers over PostgreSQL and Redis, a dead process started again, Ctrl-C stopping all of it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import _truncate_pg
from tests.support.processes import LEADWIRE, REPO, free_port, process_env, wait_for, wait_ready

pytestmark = pytest.mark.e2e


@pytest.fixture
def pg_url(pg_database: str) -> str:
    asyncio.run(_truncate_pg(pg_database))
    return pg_database


class Cluster:
    def __init__(self, process: subprocess.Popen[bytes], log: Path, base_url: str, key: str) -> None:
        self.process = process
        self.log = log
        self.base_url = base_url
        self.headers = {"Authorization": f"Bearer {key}"}

    def events(self) -> list[dict[str, Any]]:
        lines = self.log.read_text(errors="replace").splitlines()
        return [json.loads(line) for line in lines if line.startswith('{"cluster"')]

    def pids(self, event: str, prefix: str) -> dict[str, int]:
        """The latest pid per process name with `event` (started / stopped)."""
        found: dict[str, int] = {}
        for record in self.events():
            if record["cluster"] == event and str(record["process"]).startswith(prefix):
                found[str(record["process"])] = int(record["pid"])
        return found


@pytest.fixture
def cluster(pg_url: str, tmp_path: Path, redis_url: str) -> Iterator[Cluster]:
    port = free_port()
    env = process_env(tmp_path, pg_url, LEADWIRE_REDIS_URL=redis_url, LEADWIRE_SHUTDOWN_GRACE_SECONDS="5")
    log = tmp_path / "cluster.log"
    argv = [*LEADWIRE, "cluster", "--port", str(port), "--api", "2", "--workers", "2", "--no-build-world"]
    with log.open("wb") as out:
        process = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=REPO)
    try:
        base_url = f"http://127.0.0.1:{port}"
        wait_ready(base_url, process, log, timeout=90)
        key = (tmp_path / "demo-api-key").read_text().strip()
        yield Cluster(process, log, base_url, key)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in Cluster(process, log, "", "").pids("started", "").values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A child the supervisor has not reaped yet is a zombie: dead for every purpose here.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ", 1)[1][0] != "Z"


def _echo_job(cluster: Cluster, client: httpx.Client) -> str:
    response = client.post(f"{cluster.base_url}/api/v2/test/echo", json={}, headers=cluster.headers)
    assert response.status_code == 202, response.text
    return str(response.json()["item"]["id"])


def _finished(cluster: Cluster, client: httpx.Client, job_id: str) -> bool:
    response = client.get(f"{cluster.base_url}/api/v2/jobs/{job_id}", headers=cluster.headers)
    return bool(response.json()["item"]["status"] == "succeeded")


def test_two_api_processes_share_the_address_and_two_workers_run_the_jobs(cluster: Cluster) -> None:
    api = cluster.pids("started", "api-")
    workers = cluster.pids("started", "worker-")
    assert sorted(api) == ["api-1", "api-2"] and sorted(workers) == ["worker-1", "worker-2"]
    assert all(_alive(pid) for pid in [*api.values(), *workers.values()])

    served_by = {_served_by(cluster, set(api.values())) for _ in range(40)}
    assert served_by == set(api.values())  # new connections: the kernel spreads them over both
    with httpx.Client(timeout=10) as client:
        job_ids = [_echo_job(cluster, client) for _ in range(20)]
        wait_for(lambda: all(_finished(cluster, client, job_id) for job_id in job_ids), timeout=60)


def _served_by(cluster: Cluster, api_pids: set[int]) -> int:
    """The API process that accepted a new connection: the one holding its other end."""
    host, port = cluster.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(f"GET /readyz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        assert conn.recv(4096).startswith(b"HTTP/1.1 200")
        local_port = conn.getsockname()[1]
        holders = [pid for pid in api_pids if local_port in _peer_ports(pid)]
    assert len(holders) == 1, holders
    return holders[0]


def _peer_ports(pid: int) -> set[int]:
    """Remote ports of the TCP connections process `pid` holds (from /proc/net/tcp and its fds)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                ports.add(int(fields[2].rsplit(":", 1)[1], 16))
    return ports


def test_a_killed_api_process_is_started_again_and_the_address_keeps_answering(cluster: Cluster) -> None:
    before = cluster.pids("started", "api-")
    os.kill(before["api-1"], signal.SIGKILL)
    answered = 0
    with httpx.Client(timeout=10) as client:
        for _ in range(20):  # the other process keeps serving while api-1 is down
            if client.get(f"{cluster.base_url}/readyz").status_code == 200:
                answered += 1
    assert answered == 20

    def restarted() -> bool:
        now = cluster.pids("started", "api-")
        return now["api-1"] != before["api-1"] and _alive(now["api-1"])

    wait_for(restarted, timeout=30)
    exited = [e for e in cluster.events() if e["cluster"] == "exited"]
    assert exited and exited[0]["process"] == "api-1" and exited[0]["code"] == -signal.SIGKILL
    assert cluster.pids("started", "api-")["api-2"] == before["api-2"]


def test_ctrl_c_stops_every_process_of_the_cluster(cluster: Cluster) -> None:
    started = cluster.pids("started", "")
    cluster.process.send_signal(signal.SIGINT)
    assert cluster.process.wait(timeout=60) == 0
    assert sorted(cluster.pids("stopped", "")) == sorted(started)
    assert not any(_alive(pid) for pid in started.values())


def test_a_killed_supervisor_takes_its_processes_with_it(cluster: Cluster) -> None:
    started = cluster.pids("started", "")
    cluster.process.kill()
    cluster.process.wait()
    wait_for(lambda: not any(_alive(pid) for pid in started.values()), timeout=60)
