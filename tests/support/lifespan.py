"""Running an app's lifespan in one dedicated task, as a server does.

The lifespan holds task groups (the MCP session manager's) that must be exited by the task that entered
them; pytest fixtures enter and exit in different tasks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import httpx
from fastapi import FastAPI

# Where FastAPI keeps its per-callable caches (0.16x: `fastapi.dependencies.models`, `fastapi._compat.v2`).
_FASTAPI_CACHE_MODULES = ("fastapi.dependencies.models", "fastapi._compat.v2")


@contextlib.asynccontextmanager
async def app_lifespan(app: FastAPI) -> AsyncIterator[FastAPI]:
    started, stopping = asyncio.Event(), asyncio.Event()

    async def run() -> None:
        async with app.router.lifespan_context(app):
            started.set()
            await stopping.wait()

    task = asyncio.create_task(run())
    starting = asyncio.create_task(started.wait())
    await asyncio.wait({task, starting}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        starting.cancel()
        task.result()  # startup failed: raise its error
    try:
        yield app
    finally:
        stopping.set()
        await task


@contextlib.asynccontextmanager
async def asgi_client(
    app: FastAPI, base_url: str = "http://leadwire.test", *, conformance: bool = True
) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client talking to the app in-process, with its lifespan running. Every response it
    receives must conform to the app's OpenAPI document (checked when the client closes)."""
    from tests.support.conformance import ResponseConformance

    checker = ResponseConformance(app)
    hooks = {"response": [checker.hook()]} if conformance else {}
    async with app_lifespan(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url=base_url, event_hooks=hooks) as http:
            yield http
    assert not checker.failures, "responses outside the OpenAPI document:\n" + "\n".join(checker.failures)


@contextlib.asynccontextmanager
async def served(app: FastAPI) -> AsyncIterator[str]:
    """The app behind a real uvicorn server on a loopback port, in this event loop (so it shares the
    test's runtime): for what needs real sockets, such as streams held open and clients that leave."""
    import uvicorn

    from tests.support.processes import free_port

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="warning")
    server = uvicorn.Server(config)
    async with app_lifespan(app):
        task = asyncio.create_task(server.serve())
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.02)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            await task


def forget_fastapi_callables() -> None:
    """Empty FastAPI's caches keyed by endpoint and dependency callables.

    FastAPI (0.16x) remembers how it classified each callable, up to 4,096 per cache, and the key holds
    the callable. An app's closures (its docs pages, its dependencies) hold the app and its runtime, so
    a test process that builds an app per test kept hundreds of them alive: 2.9 GB per worker halfway
    through the suite, every garbage collection walking them. A server builds one app and never needs
    this. Modules or caches a FastAPI version does not have are passed over."""
    import importlib

    for name in _FASTAPI_CACHE_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and hasattr(value, "cache_info"):
                clear()
