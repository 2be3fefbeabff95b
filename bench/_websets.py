"""Running websets for the benchmarks: the real app and an in-process worker over a given world, driven
through the public HTTP API (create, poll, read items pages), with a fresh SQLite database per harness.

    async with WebsetHarness(world_dir, tmp) as harness:
        webset = await harness.run("software companies in Germany", count=25)
        items = await harness.items(webset["id"], match="full", detail="full")
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.billing import ledger
from leadwire.platform.db import transaction
from leadwire.platform.jobs.runner import Worker
from leadwire.platform.migrate import upgrade
from leadwire.platform.runtime import Runtime, build_runtime
from leadwire.platform.users import all_scopes, create_user, issue_key

FINISHED = ("completed", "failed", "cancelled")


@contextlib.contextmanager
def small_world(given: Path | None = None) -> Iterator[Path]:
    """`given`, or the small sandbox world (seed 7, as of 2026-11-01, indexed) built in a temporary
    directory for the length of the block: the world the test suite also uses."""
    if given is not None:
        yield given
        return
    from datetime import date

    from leadwire.sandbox.world import build_world
    from leadwire.search.build import build_search_index

    with tempfile.TemporaryDirectory(prefix="leadwire-world-") as scratch:
        world = Path(scratch) / "world"
        build_world(world, seed=7, size="small", as_of=date(2026, 11, 1), progress=False)
        build_search_index(world, progress=False)
        yield world


BASE = "http://leadwire.bench"


class WebsetHarness:
    """One app + worker over `world_dir`; `run` creates a webset and waits for it to finish."""

    def __init__(self, world_dir: Path, work: Path, *, concurrency: int = 4, credits: int = 10**7) -> None:
        self.world_dir, self.work, self.concurrency, self.credits = world_dir, work, concurrency, credits
        self.runtime: Runtime | None = None
        self.http: httpx.AsyncClient | None = None
        self.headers: dict[str, str] = {}
        self._stack = contextlib.AsyncExitStack()

    async def __aenter__(self) -> WebsetHarness:
        database = self.work / f"leadwire-{uuid.uuid4().hex[:8]}.db"
        settings = Settings(
            data_dir=self.work / "var",
            database_url=f"sqlite+aiosqlite:///{database}",
            redis_url=None,
            secret_key=None,
            world_dir=self.world_dir,
            allowed_hosts="leadwire.bench",
            worker_poll_seconds=0.05,
        )
        await asyncio.to_thread(upgrade, settings.database_url)
        self.runtime = await build_runtime(settings)
        self._stack.push_async_callback(self.runtime.close)
        app = create_app(runtime=self.runtime)
        await self._stack.enter_async_context(app.router.lifespan_context(app))
        transport = httpx.ASGITransport(app=app)
        self.http = await self._stack.enter_async_context(
            httpx.AsyncClient(transport=transport, base_url=BASE, timeout=600)
        )
        worker = Worker(self.runtime, concurrency=self.concurrency)
        task = asyncio.create_task(worker.run())

        async def stop_worker() -> None:
            worker.stop()
            await task

        self._stack.push_async_callback(stop_worker)
        self.headers = {"Authorization": f"Bearer {await self._account()}"}
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self._stack.aclose()

    async def _account(self) -> str:
        assert self.runtime is not None
        async with transaction(self.runtime.sessionmaker) as session:
            user = await create_user(session, email=f"{uuid.uuid4().hex[:10]}@bench.example", plan="business")
            await ledger.grant(session, user.id, self.credits)
            issued = await issue_key(session, user_id=user.id, scopes=list(all_scopes()))
        return issued.key

    async def call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        assert self.http is not None
        headers = {**self.headers, **kwargs.pop("headers", {})}
        response = await self.http.request(method, path, headers=headers, **kwargs)
        if response.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:500]}")
        body: dict[str, Any] = response.json()
        return body

    async def create(self, query: str, **body: Any) -> dict[str, Any]:
        created = await self.call("POST", "/api/v2/websets", json={"query": query, **body})
        webset: dict[str, Any] = created["item"]["webset"]
        return webset

    async def wait(self, webset_id: str, *, timeout: float = 600, poll: float = 0.05) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            webset: dict[str, Any] = (await self.call("GET", f"/api/v2/websets/{webset_id}"))["item"]
            if webset["status"] in FINISHED or time.monotonic() > deadline:
                return webset
            await asyncio.sleep(poll)

    async def run(self, query: str, **body: Any) -> dict[str, Any]:
        return await self.wait((await self.create(query, **body))["id"])

    async def items(self, webset_id: str, **params: Any) -> list[dict[str, Any]]:
        limit = {"compact": 50, "standard": 25, "full": 10}[params.get("detail", "compact")]
        out: list[dict[str, Any]] = []
        cursor = None
        while True:
            query = {"limit": limit, **params, **({"cursor": cursor} if cursor else {})}
            page = await self.call("GET", f"/api/v2/websets/{webset_id}/items", params=query)
            out.extend(page["items"])
            cursor = page["next_cursor"]
            if not cursor:
                return out
