"""The real app served on a loopback port from the test's event loop, with a worker and a funded key:
what the SDK and the command line talk to in tests (sync callers run in a thread)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import uvicorn

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.http.server import uvicorn_config
from leadwire.platform.runtime import Runtime, build_runtime
from tests.support.accounts import AccountFactory
from tests.support.jobs import running_worker
from tests.support.processes import free_port


@dataclass
class Served:
    runtime: Runtime
    base_url: str
    key: str  # a funded business-plan key


@contextlib.asynccontextmanager
async def served_app(
    settings: Settings, *, credits: int = 1000, worker: bool = True
) -> AsyncIterator[Served]:
    """Without `worker`, jobs stay queued until the block ends."""
    runtime = await build_runtime(settings)
    try:
        port = free_port()
        config = uvicorn_config(create_app(runtime=runtime), settings, host="127.0.0.1", port=port)
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        try:
            while not server.started:
                assert not serving.done(), "the server did not start"
                await asyncio.sleep(0.02)
            account = await AccountFactory(runtime).create(plan="business", credits=credits)
            served = Served(runtime, f"http://127.0.0.1:{port}", account.key)
            if not worker:
                yield served
                return
            async with running_worker(runtime):
                yield served
        finally:
            server.should_exit = True
            await serving
    finally:
        await runtime.close()
