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
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import _empty_pg
from tests.support.processes import LEADWIRE, REPO, free_port, process_env, wait_for, wait_ready

pytestmark = pytest.mark.e2e


@pytest.fixture
def pg_url(pg_database: str) -> str:
    asyncio.run(_empty_pg(pg_database))
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
    env = process_env(
        tmp_path,
        pg_url,
        LEADWIRE_REDIS_URL=redis_url,
        LEADWIRE_SHUTDOWN_GRACE_SECONDS="5",
        # A claim whose process died is taken over after this (60 s by default).
        LEADWIRE_IDEMPOTENCY_LOCK_TIMEOUT_SECONDS="3",
        # Longer than any test waits: a job of a killed worker runs again because it was released.
        LEADWIRE_JOB_LEASE_SECONDS="120",
    )
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


def test_two_api_processes_share_the_address_and_a_killed_one_is_started_again(cluster: Cluster) -> None:
    api = cluster.pids("started", "api-")
    workers = cluster.pids("started", "worker-")
    assert sorted(api) == ["api-1", "api-2"] and sorted(workers) == ["worker-1", "worker-2"]
    assert all(_alive(pid) for pid in [*api.values(), *workers.values()])

    # New connections: whichever process accepts first takes each, so both take some (not in turns).
    served_by: set[int] = set()
    for _ in range(200):
        served_by.add(_served_by(cluster, set(api.values())))
        if served_by == set(api.values()):
            break
    assert served_by == set(api.values())
    with httpx.Client(timeout=10) as client:
        job_ids = [_echo_job(cluster, client) for _ in range(20)]
        wait_for(lambda: all(_finished(cluster, client, job_id) for job_id in job_ids), timeout=60)

    os.kill(api["api-1"], signal.SIGKILL)
    with httpx.Client(timeout=10) as client:  # the other process keeps serving while api-1 is down
        assert all(client.get(f"{cluster.base_url}/readyz").status_code == 200 for _ in range(20))

    def restarted() -> bool:
        now = cluster.pids("started", "api-")
        return now["api-1"] != api["api-1"] and _alive(now["api-1"])

    wait_for(restarted, timeout=30)
    exited = [e for e in cluster.events() if e["cluster"] == "exited"]
    assert exited and exited[0]["process"] == "api-1" and exited[0]["code"] == -signal.SIGKILL
    assert cluster.pids("started", "api-")["api-2"] == api["api-2"]


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


def _send_raw_post(cluster: Cluster, path: str, body: bytes, headers: dict[str, str]) -> socket.socket:
    """A request left in flight on a connection of its own (the test decides what happens to it)."""
    host, port = cluster.base_url.removeprefix("http://").split(":")
    conn = socket.create_connection((host, int(port)), timeout=30)
    lines = [f"POST {path} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    return conn


def _holder(cluster: Cluster, conn: socket.socket) -> int:
    local_port = conn.getsockname()[1]
    api = cluster.pids("started", "api-").values()
    holders = [pid for pid in api if _alive(pid) and local_port in _peer_ports(pid)]
    assert len(holders) == 1, holders
    return holders[0]


async def _pg_fetch(url: str, query: str) -> list[Any]:
    import asyncpg

    connection = await asyncpg.connect(url.replace("+asyncpg", ""))
    try:
        return list(await connection.fetch(query))
    finally:
        await connection.close()


def test_an_api_process_killed_during_an_idempotent_creation_leaves_one_job_for_the_retry(
    cluster: Cluster, pg_url: str
) -> None:
    """Killed with the creation's transaction open (blocked on the account's balance row), nothing of
    it survives: retries get 409 `idempotency_key_in_progress` until the dead claim's lock times out,
    then one creates the job. Killed while `Prefer: wait` holds the committed job, the retry gets that
    job. Either way one job, found again by every later retry (whichever process answers it)."""
    for killed in ("before_commit", "while_waiting"):
        _kill_during_creation(cluster, pg_url, killed)


def _kill_during_creation(cluster: Cluster, pg_url: str, killed: str) -> None:
    key = f"kill-{killed}"
    mine = f"SELECT 1 FROM jobs WHERE payload->>'message' = '{killed}'"
    body = json.dumps({"message": killed, "sleep": 5.0 if killed == "while_waiting" else 0.0}).encode()
    headers = {**cluster.headers, "Idempotency-Key": key, "Content-Type": "application/json"}
    blocker = None
    if killed == "before_commit":
        blocker = asyncio.new_event_loop()
        balance_lock = blocker.run_until_complete(_lock_balances(pg_url))
    else:
        headers["Prefer"] = "wait=30"
    conn = _send_raw_post(cluster, "/api/v2/test/echo", body, headers)
    try:
        if killed == "before_commit":
            wait_for(lambda: _count(pg_url, "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'"))
        else:
            wait_for(lambda: _count(pg_url, mine + " AND status = 'running'"), timeout=30)
        os.kill(_holder(cluster, conn), signal.SIGKILL)
        with contextlib.suppress(OSError):
            assert conn.recv(4096) == b""  # the connection died with its process, unanswered
    finally:
        conn.close()
        if blocker is not None:
            blocker.run_until_complete(balance_lock.close())
            blocker.close()
    assert _count(pg_url, mine) == (0 if killed == "before_commit" else 1)

    headers.pop("Prefer", None)
    with httpx.Client(base_url=cluster.base_url, timeout=30, headers=headers) as client:
        ids: list[str] = []
        in_progress = 0
        while len(ids) < 6 and in_progress < 20:  # whichever process answers, survivor or restarted
            response = client.post("/api/v2/test/echo", content=body)
            if response.status_code == 409:
                assert response.json()["error"]["code"] == "idempotency_key_in_progress"
                in_progress += 1
                time.sleep(float(response.headers["Retry-After"]))
                continue
            assert response.status_code in (200, 202), response.text
            ids.append(response.json()["item"]["id"])
    assert len(set(ids)) == 1 and (in_progress > 0) == (killed == "before_commit")
    assert _count(pg_url, mine) == 1
    with httpx.Client(timeout=10) as client:
        wait_for(lambda: _finished(cluster, client, ids[0]), timeout=60)


def _count(pg_url: str, query: str) -> int:
    return len(asyncio.run(_pg_fetch(pg_url, query)))


async def _lock_balances(url: str) -> Any:
    """A connection holding every account's balance row (job creation locks it) until closed."""
    import asyncpg

    connection = await asyncpg.connect(url.replace("+asyncpg", ""))
    await connection.execute("BEGIN")
    await connection.execute("SELECT * FROM credit_balances FOR UPDATE")
    return connection


def test_the_cluster_fits_its_pools_to_the_server_and_says_so(cluster: Cluster, pg_url: str) -> None:
    (max_connections,) = _pg_fetch_row(pg_url, "SELECT current_setting('max_connections')::int")
    announced = [
        line for line in cluster.log.read_text().splitlines() if line.startswith("PostgreSQL allows")
    ]
    assert len(announced) == 1 and f"allows {max_connections} connections" in announced[0]
    assert "(fits)" in announced[0]


def test_a_killed_worker_s_jobs_run_again_at_once_not_after_their_lease(
    cluster: Cluster, pg_url: str, tmp_path: Path
) -> None:
    """The fixture's lease is 120 s: a job rescued only when it expired would miss this test's bound.
    The supervisor saw its worker die and released the job; another worker ran it again at once."""
    started = tmp_path / "started"
    body = {"started_file": str(started), "block_file": str(tmp_path / "never")}
    with httpx.Client(timeout=10) as client:
        created = client.post(f"{cluster.base_url}/api/v2/test/echo", json=body, headers=cluster.headers)
        job_id = created.json()["item"]["id"]
        wait_for(started.exists, timeout=30)
        holder_pid = int(started.read_text().split()[0])
        started.unlink()
        killed_at = time.monotonic()
        os.kill(holder_pid, signal.SIGKILL)
        wait_for(started.exists, timeout=30)  # running again, on a worker that is alive
        rerun_pid, attempt = (int(part) for part in started.read_text().split())
        waited = time.monotonic() - killed_at
        client.post(f"{cluster.base_url}/api/v2/jobs/{job_id}/cancel", headers=cluster.headers)
    assert rerun_pid != holder_pid and attempt == 2 and waited < 30
    released = [e for e in cluster.events() if e["cluster"] == "released"]
    assert released and released[0]["pid"] == holder_pid and released[0]["jobs"] == 1


def _pg_fetch_row(url: str, query: str) -> tuple[Any, ...]:
    return tuple(asyncio.run(_pg_fetch(url, query))[0])
