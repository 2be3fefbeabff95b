"""Helpers to drive and observe jobs in tests."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx

from leadwire.platform.jobs.handoff import ClaimedJob
from leadwire.platform.jobs.runner import Worker
from leadwire.platform.runtime import Runtime


async def poll_job(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    job_id: str,
    *,
    until: tuple[str, ...],
    timeout: float = 15.0,
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        response = await client.get(f"/api/v2/jobs/{job_id}", headers=headers)
        assert response.status_code == 200, response.text
        item: dict[str, Any] = response.json()["item"]
        if item["status"] in until:
            return item
        if loop.time() > deadline:
            raise AssertionError(f"job {job_id} stayed {item['status']}")
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def running_worker(runtime: Runtime, *, concurrency: int = 4) -> AsyncIterator[Worker]:
    worker = Worker(runtime, concurrency=concurrency)
    task = asyncio.create_task(worker.run())
    try:
        yield worker
    finally:
        await worker.shutdown(grace_seconds=2.0)
        await task


async def settled(worker: Worker) -> None:
    """Until the worker sleeps waiting for new jobs: its first claim is over (a claim holds the free
    slots, so a creation meanwhile goes to the queue), and with a long `worker_poll_seconds` it claims
    nothing more unless told, so a job created now is handed to it (`platform/jobs/handoff.py`)."""
    await worker.announced.wait()
    for _ in range(1000):
        wake = worker._wake
        if wake is not None and wake._event._waiters:  # asleep in its idle wait
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the worker never settled")


def handed_off(worker: Worker) -> list[str]:
    """The ids of the jobs `worker` is handed by their creation (`Worker.start_claimed`), as they come.
    A job's row shows its claim (`lease_owner`) only while it runs: one that ends before a test reads it
    has none left, so the hand-off is read here, not from the lease."""
    taken: list[str] = []
    start = worker.start_claimed

    def recording(job: ClaimedJob) -> None:
        taken.append(job.id)
        start(job)

    worker.start_claimed = recording  # type: ignore[method-assign]
    return taken


async def create_echo(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    body: dict[str, Any] | None = None,
    **extra_headers: str,
) -> httpx.Response:
    return await client.post("/api/v2/test/echo", json=body or {}, headers={**headers, **extra_headers})


async def job_count(runtime: Runtime) -> int:
    """How many jobs the database holds (every account)."""
    from sqlalchemy import func, select

    from leadwire.platform.db import transaction
    from leadwire.platform.jobs.models import Job

    async with transaction(runtime.reader) as session:
        return int(await session.scalar(select(func.count()).select_from(Job)) or 0)


async def with_runtime(database_url: str, work: Any) -> Any:
    """Run `work(runtime)` with a runtime of its own on that database (for tests driving processes)."""
    from leadwire.config import Settings
    from leadwire.platform.runtime import build_runtime

    runtime = await build_runtime(Settings(database_url=database_url, plugins="tests.support.echo"))
    try:
        return await work(runtime)
    finally:
        await runtime.close()
