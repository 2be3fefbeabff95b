"""Operational endpoints: liveness, readiness (database reachable, rate-limit store) and metrics.

`/readyz` tells the truth within a bounded time: 503 when the database does not answer within its
connect timeout or the process is draining; 200 with `status: degraded` while Redis is configured but
unreachable (rate limits then count per process, see `platform/ratelimit.py`). `/metrics` is the
Prometheus text format, behind `Authorization: Bearer <LEADWIRE_METRICS_TOKEN>` when that is set.
"""

from __future__ import annotations

import asyncio
import hmac
from typing import Any

from fastapi import APIRouter, Depends, Request
from prometheus_client import CONTENT_TYPE_LATEST, Gauge, generate_latest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from starlette.responses import Response

from leadwire.platform.envelope import JSONResponse
from leadwire.platform.errors import ApiError
from leadwire.platform.openapi import errors
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(tags=["operations"])
PUBLIC: dict[str, Any] = {"security": []}
_READINESS = {
    "type": "object",
    "required": ["ok", "status", "checks"],
    "properties": {
        "ok": {"type": "boolean"},
        "status": {"enum": ["ready", "degraded", "database_unavailable", "draining"]},
        "checks": {
            "type": "object",
            "properties": {
                "database": {"enum": ["ok", "unavailable"]},
                "redis": {"enum": ["ok", "unavailable", "not_configured"]},
            },
        },
    },
}
READINESS_DOC: dict[str, Any] = {
    "security": [],
    "responses": {
        "200": {
            "description": "Ready (or degraded: Redis unreachable, limits per process)",
            "content": {"application/json": {"schema": _READINESS}},
        },
        "503": {
            "description": "Database unavailable or draining",
            "content": {"application/json": {"schema": _READINESS}},
        },
    },
}


@router.get("/healthz", openapi_extra=PUBLIC, summary="Liveness: the process answers")
async def healthz() -> JSONResponse:
    """200 while the process can answer at all; no key, no database call."""
    return JSONResponse({"ok": True, "status": "alive"})


async def _database_answers(runtime: Runtime) -> bool:
    try:
        async with asyncio.timeout(runtime.settings.db_connect_timeout_seconds):
            try:
                await _select_one(runtime)
            except DBAPIError as exc:
                # The pool does not pre-ping: a connection the server closed earlier (a restart, a
                # terminated backend) fails once and is discarded. That says nothing of the database
                # now, so a fresh connection is asked before answering "unavailable".
                if not exc.connection_invalidated:
                    raise
                await _select_one(runtime)
    except Exception:
        return False
    return True


async def _select_one(runtime: Runtime) -> None:
    async with runtime.engine.connect() as connection:
        await connection.execute(text("SELECT 1"))


@router.get(
    "/readyz",
    openapi_extra=READINESS_DOC,
    summary="Readiness: database reachable and not draining; `degraded` while Redis is unreachable",
)
async def readyz(runtime: Runtime = Depends(get_runtime)) -> JSONResponse:
    """200 `ready` (or `degraded` while Redis is unreachable) when this process should get traffic;
    503 `database_unavailable` or `draining` when it should not. No key."""
    database_up, redis_up = await asyncio.gather(_database_answers(runtime), runtime.rate_limiter.ping())
    checks = {
        "database": "ok" if database_up else "unavailable",
        "redis": ("ok" if redis_up else "unavailable") if runtime.settings.redis_url else "not_configured",
    }
    if not database_up:
        return JSONResponse(
            {"ok": False, "status": "database_unavailable", "checks": checks}, status_code=503
        )
    if runtime.draining:
        return JSONResponse({"ok": False, "status": "draining", "checks": checks}, status_code=503)
    return JSONResponse({"ok": True, "status": "ready" if redis_up else "degraded", "checks": checks})


@router.get(
    "/metrics",
    openapi_extra={
        "security": [],
        "responses": {
            "200": {
                "description": "Prometheus text exposition format",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            },
            **{str(k): v for k, v in errors("api_key_missing", "api_key_invalid", public=True).items()},
        },
    },
    summary="Prometheus metrics (Bearer LEADWIRE_METRICS_TOKEN when configured)",
    response_class=Response,
)
async def metrics(request: Request, runtime: Runtime = Depends(get_runtime)) -> Response:
    """Prometheus text format: requests by route and status, latencies, asyncio tasks, pool use and
    rate-limit fallbacks. No API key; `Authorization: Bearer <LEADWIRE_METRICS_TOKEN>` when that is set."""
    token = runtime.settings.metrics_token
    if token:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if not given:
            raise ApiError("api_key_missing", detail="send Authorization: Bearer <LEADWIRE_METRICS_TOKEN>")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
            raise ApiError("api_key_invalid", detail="not the metrics token")
    _sample_process_state(runtime)
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


TASKS = Gauge("leadwire_asyncio_tasks", "asyncio tasks alive in this process (requests, streams, workers)")
POOL_IN_USE = Gauge("leadwire_db_connections_in_use", "database connections checked out of a pool", ["pool"])


def _sample_process_state(runtime: Runtime) -> None:
    """Gauges read when scraped: what a leak (of streams, tasks or connections) would grow."""
    TASKS.set(len(asyncio.all_tasks()))
    for name, engine in (("write", runtime.engine), ("read", runtime.read_engine)):
        checkedout = getattr(engine.pool, "checkedout", None) if engine is not None else None
        if checkedout is not None:
            POOL_IN_USE.labels(pool=name).set(checkedout())
