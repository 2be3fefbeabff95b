"""The ASGI application: mounts v1, v2 and operations routes, the error handlers and the middleware,
and owns the process runtime (and, for `leadwire serve`, the in-process worker) in its lifespan."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

from leadwire import capabilities
from leadwire.config import Settings, load_settings
from leadwire.platform import health
from leadwire.platform.envelope import JSONResponse, error_body, error_response
from leadwire.platform.errors import ApiError
from leadwire.platform.http import ReplayedResponse
from leadwire.platform.middleware import RequestContextMiddleware
from leadwire.platform.openapi import install_openapi
from leadwire.platform.runtime import Runtime, build_runtime

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


async def _database_error(_request: Request, exc: Exception) -> JSONResponse:
    unavailable = isinstance(exc, ConnectionError | OperationalError | InterfaceError | PoolTimeoutError) or (
        isinstance(exc, DBAPIError) and exc.connection_invalidated
    )
    if not unavailable:
        log.error("database error", exc_info=exc)
        return error_response(ApiError("internal_error"))
    log.error("database unavailable: %s", type(exc).__name__)
    return error_response(ApiError("task_unavailable", headers={"Retry-After": "5"}))


def create_app(
    settings: Settings | None = None,
    *,
    runtime: Runtime | None = None,
    in_process_worker: bool = False,
) -> FastAPI:
    settings = settings or (runtime.settings if runtime else load_settings())

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own_runtime = runtime is None
        app.state.runtime = runtime or await build_runtime(settings)
        if not app.state.runtime.services:
            capabilities.install_services(app.state.runtime)
        worker_task = None
        worker = None
        if in_process_worker:
            from leadwire.platform.jobs.runner import Worker

            worker = Worker(app.state.runtime)
            worker_task = asyncio.create_task(worker.run(), name="leadwire-in-process-worker")
        try:
            async with mcp_server.session_manager.run():
                yield
        finally:
            app.state.runtime.draining = True
            if worker is not None and worker_task is not None:
                await worker.shutdown()
                await worker_task
            if own_runtime:
                await app.state.runtime.close()

    app = FastAPI(
        title="Leadwire API",
        version="0.1.0",
        description="Outreach, prospect discovery and trade data. See docs/architecture.md.",
        lifespan=lifespan,
        openapi_url="/openapi.json",
        docs_url="/docs",
        redoc_url=None,
    )
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(ReplayedResponse, _replay)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(OperationalError, _database_error)
    app.add_exception_handler(DBAPIError, _database_error)
    app.add_exception_handler(ConnectionError, _database_error)
    app.add_exception_handler(PoolTimeoutError, _database_error)
    app.include_router(health.router)
    capabilities.load_job_handlers(settings.plugin_modules)
    for router in capabilities.routers(settings.plugin_modules):
        app.include_router(router)
    from leadwire.mcp.server import build_mcp

    mcp_server, mcp_app = build_mcp(lambda: app.state.runtime)
    app.mount("/mcp", mcp_app)
    app.add_middleware(RequestContextMiddleware)
    install_openapi(app)
    return app
