"""The ASGI application: mounts v1, v2 and operations routes, the error handlers and the middleware,
and owns the process runtime (and, for `leadwire serve`, the in-process worker) in its lifespan."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.telemetry import TelemetryConfig
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from leadwire import capabilities
from leadwire.config import Settings, load_settings
from leadwire.platform.db import describe_failure, is_lost_connection, is_lost_race, is_transient
from leadwire.platform.errors import ApiError
from leadwire.platform.gcfreeze import freeze_startup_heap
from leadwire.platform.http import health
from leadwire.platform.http.creation import ReplayedResponse
from leadwire.platform.http.docs_pages import install_docs
from leadwire.platform.http.envelope import JSONResponse, error_body, error_response
from leadwire.platform.http.flat_route import FlatDispatch
from leadwire.platform.http.middleware import RequestContextMiddleware
from leadwire.platform.http.openapi import install_openapi
from leadwire.platform.http.retry import RetryOnLostConnection, mark_retryable
from leadwire.platform.runtime import Runtime, build_runtime

if TYPE_CHECKING:
    from leadwire.platform.jobs.runner import Worker
    from leadwire.sandbox.background import WorldBuild

log = logging.getLogger("leadwire")

_STATUS_CODES = {
    400: "invalid_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "request_payload_too_large",
}


async def _api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc)


async def _replay(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ReplayedResponse)
    return JSONResponse(exc.body, status_code=exc.status, headers={"Idempotent-Replayed": "true"})


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _STATUS_CODES.get(
        exc.status_code, "internal_error" if exc.status_code >= 500 else "invalid_request"
    )
    headers = {k: v for k, v in (exc.headers or {}).items() if k.lower() == "allow"}
    return JSONResponse(
        error_body(code), status_code=exc.status_code if code != "internal_error" else 500, headers=headers
    )


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    first = exc.errors()[0] if exc.errors() else {}
    loc = [str(p) for p in first.get("loc", ()) if p not in ("query", "path", "header", "body")]
    return JSONResponse(error_body("invalid_request", param=".".join(loc) or None), status_code=400)


async def _database_error(request: Request, exc: Exception) -> JSONResponse:
    """A database (or backing service) that is down, hung, restarting or busy, or a transaction that lost
    a lock race, is 503 `task_unavailable` with `Retry-After`: the request can be retried as it is. Any
    other database error is a bug: 500, logged without the statement's parameters."""
    if not is_transient(exc):
        log.error("database error: %s", type(exc).__name__, exc_info=exc)
        return error_response(ApiError("internal_error"))
    reason = "a concurrent transaction won a lock race" if is_lost_race(exc) else "database unavailable"
    if is_lost_connection(exc) and mark_retryable(request):
        # Answered again from a fresh connection, once: this 503 goes out only if that fails too.
        log.warning("database connection lost, answered again from a fresh one: %s", describe_failure(exc))
        decision = getattr(request.state, "rate_decision", None)
        if decision is not None:  # one request to its client: the next attempt counts it
            await request.app.state.runtime.rate_limiter.give_back(decision)
    else:
        log.error("%s: %s", reason, describe_failure(exc))
    return error_response(ApiError("task_unavailable", detail=reason, headers={"Retry-After": "5"}))


async def _work_once_world_is_ready(
    worker: Worker, world_build: WorldBuild | None, working: asyncio.Event
) -> None:
    """Claims no job while the sandbox world builds: nearly every action reads it (research, customs,
    websets, LinkedIn sends and likes), so jobs wait queued rather than fail. After a failed build
    the worker runs anyway and each job answers as it would without a world."""
    if world_build is not None and not world_build.finished():
        log.info("the worker claims jobs once the sandbox world is built")
        status = await world_build.wait()
        log.info("sandbox world %s; the worker claims jobs", status["state"])
    working.set()
    await worker.run()


_NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}


class _LeadwireAPI(FastAPI):
    """FastAPI whose flat routes (`platform.flat_route`) are answered outside its own middleware stack:
    its error, telemetry and body-limit layers cost a job poll more than its route. `flat_context`
    wraps what a flat route answers (the request context every other route gets inside the stack)."""

    flat_context: Callable[[ASGIApp], ASGIApp] | None = None

    def build_middleware_stack(self) -> ASGIApp:
        return RetryOnLostConnection(
            FlatDispatch(super().build_middleware_stack(), api=self, wrap=self.flat_context)
        )


class _AtRoot:
    """Serves a mounted app at its bare prefix too (`/mcp` as `/mcp/`): no redirect, which would echo
    the request's Host header back in `Location`. (A class: Starlette wraps a plain function as a
    request handler.)"""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        root = scope.get("root_path", "")
        await self.app({**scope, "path": path + "/", "root_path": root + path[len(root) :]}, receive, send)


def _mount(app: FastAPI, router: APIRouter) -> None:
    """Serve a capability's routes as they are. Each router is built once, at import, with its prefix
    and tags in every route; `include_router` (FastAPI 0.16x) would build every route's dependency graph
    again for this app, on its first request: 0.2 s added to the first request each process serves."""
    app.router.routes.extend(router.routes)


def create_app(
    settings: Settings | None = None,
    *,
    runtime: Runtime | None = None,
    in_process_worker: bool = False,
    freeze_heap: bool = False,
    world_build: WorldBuild | None = None,
) -> FastAPI:
    """The app; `freeze_heap` (server processes) moves everything built at start-up out of the garbage
    collector's view (`platform.gcfreeze`); `world_build` (`leadwire serve`) is the sandbox world
    building in another process: `/readyz` shows it and the in-process worker waits for it."""
    settings = settings or (runtime.settings if runtime else load_settings())

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own_runtime = runtime is None
        app.state.runtime = runtime or await build_runtime(settings)
        if not app.state.runtime.adapters:
            capabilities.install_adapters(app.state.runtime)
        worker_task = None
        worker = None
        working = asyncio.Event()
        if in_process_worker:
            from leadwire.platform.jobs.runner import Worker

            worker = Worker(app.state.runtime)
            worker_task = asyncio.create_task(
                _work_once_world_is_ready(worker, world_build, working), name="leadwire-in-process-worker"
            )
        try:
            async with mcp_sessions.run():
                if freeze_heap:
                    freeze_startup_heap()
                yield
        finally:
            app.state.runtime.draining = True
            if world_build is not None:  # here: after SIGTERM uvicorn re-raises it, ending the process
                world_build.terminate()
            if worker is not None and worker_task is not None:
                if working.is_set():
                    await worker.shutdown()
                    await worker_task
                else:  # still waiting for the world: nothing claimed, nothing to hand back
                    worker_task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await worker_task
            if own_runtime:
                await app.state.runtime.close()

    app = _LeadwireAPI(
        title="Leadwire API",
        version="0.1.0",
        description="Outreach, prospect discovery and trade data. See docs/architecture.md.",
        lifespan=lifespan,
        openapi_url="/openapi.json",
        # `/docs` and `/redoc` are `platform.docs_pages`: FastAPI's own load their assets from a CDN.
        docs_url=None,
        redoc_url=None,
        # A trailing slash is part of the path: `/api/v2/credits/` is 404 `not_found`, never a redirect
        # (a redirect echoes the Host header and, behind a TLS proxy, points at http://).
        redirect_slashes=False,
        telemetry=None if settings.otel_instrumentation else _NO_TELEMETRY,
    )
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(ReplayedResponse, _replay)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(DBAPIError, _database_error)
    app.add_exception_handler(ConnectionError, _database_error)
    app.add_exception_handler(TimeoutError, _database_error)  # client-side statement/connect timeouts
    app.add_exception_handler(PoolTimeoutError, _database_error)
    app.state.world_build = world_build
    _mount(app, health.router)
    enabled = capabilities.enabled(settings.plugin_modules)
    for capability in enabled:
        for router in capability.http_routers():
            _mount(app, router)
    from leadwire.mcp.server import build_mcp

    mcp_sessions, mcp_app = build_mcp(lambda: app.state.runtime, settings, enabled)
    app.router.routes.append(
        Route("/mcp", _AtRoot(mcp_app), methods=["GET", "POST", "DELETE"], include_in_schema=False)
    )
    app.mount("/mcp", mcp_app)
    request_context = functools.partial(
        RequestContextMiddleware,
        allowed_hosts=settings.allowed_host_list or ("*",),
        body_timeout_seconds=settings.body_timeout_seconds,
    )
    app.add_middleware(request_context)
    app.flat_context = request_context
    install_openapi(app)
    install_docs(app)
    return app
