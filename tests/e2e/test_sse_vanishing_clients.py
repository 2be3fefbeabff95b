"""1,000 SSE clients that connect and vanish leave nothing behind in a real `leadwire api` process on
PostgreSQL: its tasks, database connections and file descriptors come back to where they were, and its
memory does not grow with the number of clients (read from the process's own /metrics)."""

from __future__ import annotations

import asyncio
import re
import socket
import struct
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import _empty_pg
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.jobs import with_runtime
from tests.support.processes import free_port, leadwire_process, process_env, wait_for, wait_ready

pytestmark = pytest.mark.e2e

CLIENTS = 1000
BATCH = 50  # connections open at once
WARM_UP = 100


@pytest.fixture
def api(pg_database: str, tmp_path: Path) -> Iterator[tuple[str, TestAccount]]:
    asyncio.run(_empty_pg(pg_database))
    account: TestAccount = asyncio.run(
        with_runtime(pg_database, lambda rt: AccountFactory(rt).create(plan="business"))
    )
    port = free_port()
    env = process_env(
        tmp_path, pg_database, LEADWIRE_LOG_LEVEL="warning", LEADWIRE_METRICS_PUBLIC="true",
        # every client is the same key: the stream caps are raised to the test's crowd
        LEADWIRE_STREAM_LIMIT_PER_KEY="5000", LEADWIRE_STREAM_LIMIT_PER_ACCOUNT="5000",
    )  # fmt: skip
    log = tmp_path / "api.log"
    with leadwire_process(["api", "--port", str(port)], env, log) as process:
        base_url = f"http://127.0.0.1:{port}"
        wait_ready(base_url, process, log)
        yield base_url, account


def _gauges(base_url: str) -> dict[str, float]:
    text = httpx.get(f"{base_url}/metrics", timeout=10).text
    wanted = {
        "tasks": r"^leadwire_asyncio_tasks (\S+)",
        "read_in_use": r'^leadwire_db_connections_in_use\{pool="read"\} (\S+)',
        "write_in_use": r'^leadwire_db_connections_in_use\{pool="write"\} (\S+)',
        "fds": r"^process_open_fds (\S+)",
        "rss": r"^process_resident_memory_bytes (\S+)",
    }
    found = {}
    for name, pattern in wanted.items():
        match = re.search(pattern, text, re.MULTILINE)
        assert match is not None, f"{name} missing from /metrics"
        found[name] = float(match.group(1))
    return found


def _vanish(base_url: str, key: str, count: int) -> None:
    """`count` clients, `BATCH` at a time: each opens the stream, reads its head, and is gone (RST)."""
    host, port = base_url.removeprefix("http://").split(":")
    request = (
        f"GET /api/v2/test/events/vanish/stream HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: Bearer {key}\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    for start in range(0, count, BATCH):
        clients = [socket.create_connection((host, int(port)), timeout=10) for _ in range(BATCH)]
        for conn in clients[: count - start]:
            conn.sendall(request)
        for conn in clients[: count - start]:
            assert conn.recv(4096).startswith(b"HTTP/1.1 200")
            # Linger 0: close with a reset, as a client whose network vanished, not a polite FIN.
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        for conn in clients:
            conn.close()


def test_a_thousand_vanishing_sse_clients_leak_no_task_connection_or_memory(
    api: tuple[str, TestAccount],
) -> None:
    base_url, account = api
    # First use builds what lives as long as the process: pooled connections, the followers' hub.
    _vanish(base_url, account.key, WARM_UP)
    readings = [_gauges(base_url)]

    def steady() -> bool:
        readings.append(_gauges(base_url))
        before, now = readings[-2], readings[-1]
        return now["read_in_use"] == 0 and all(now[k] == before[k] for k in ("tasks", "fds"))

    wait_for(steady, timeout=60, interval=0.5)
    warmed = readings[-1]

    _vanish(base_url, account.key, CLIENTS)

    def released() -> bool:
        # Pools may keep a few more connections open after a busier spell: descriptors may exceed the
        # warmed count by that, never by anything like a client's worth each.
        now = _gauges(base_url)
        return (
            now["tasks"] <= warmed["tasks"] and now["read_in_use"] == 0 and now["fds"] <= warmed["fds"] + 10
        )

    wait_for(released, timeout=60, interval=0.2)
    after = _gauges(base_url)
    assert after["write_in_use"] == 0
    # Memory: what 1,000 more clients leave is bounded (a leak of even 20 KB a client would be 20 MB).
    assert after["rss"] - warmed["rss"] < 16 * 1024 * 1024, (warmed, after)
