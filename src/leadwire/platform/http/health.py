"""Operational endpoints: liveness, readiness (database reachable, rate-limit store) and metrics.

`/readyz` tells the truth within a bounded time: 503 when the database does not answer within its
connect timeout or the process is draining; 200 with `status: degraded` while Redis is configured but
unreachable (rate limits then count per process, see `platform/admission/ratelimit.py`). Under
`leadwire serve` it also shows the sandbox world building in another process: 200 with `status:
building` and a `world` object (stage, percent, elapsed seconds), since the API serves meanwhile and
only jobs wait for the world; `degraded` if that build failed. `/metrics` is the Prometheus text
format, behind `Authorization: Bearer <LEADWIRE_METRICS_TOKEN>` when that is set.
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

from leadwire.platform.errors import ApiError
from leadwire.platform.http.envelope import JSONResponse
from leadwire.platform.http.schemas import errors
from leadwire.platform.jobs import presence
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(tags=["operations"])
PUBLIC: dict[str, Any] = {"security": []}
_READINESS = {
    "type": "object",
    "required": ["ok", "status", "checks"],
    "properties": {
        "ok": {"type": "boolean"},
        "status": {"enum": ["ready", "building", "degraded", "database_unavailable", "draining"]},
        "checks": {
            "type": "object",
            "properties": {
                "database": {"enum": ["ok", "unavailable"]},
                "redis": {"enum": ["ok", "unavailable", "not_configured"]},
                "world": {"enum": ["ready", "building", "failed"]},
                "workers": {
                    "enum": ["ok", "none_alive"],
                    "description": "`none_alive`: no worker process has beaten in the last "
                    f"{int(presence.BEAT_SECONDS * presence.STALE_AFTER_BEATS)} s, so jobs wait queued",
                },
            },
        },
        "reasons": {
            "type": "array",
            "items": {"type": "string"},
            "description": "why the status is `degraded`, one sentence per cause",
        },
        "world": {
            "type": "object",
            "description": "`leadwire serve` only: the sandbox world, built in a separate process on first "
            "start; jobs wait queued until it is ready",
            "required": ["state"],
            "properties": {
                "state": {"enum": ["ready", "building", "failed"]},
                "size": {"type": "string"},
                "stage": {"type": ["string", "null"], "description": "the stage running now"},
                "stage_percent": {"type": ["number", "null"]},
                "percent": {"type": "number", "description": "the whole build, estimated"},
                "elapsed_seconds": {"type": "number"},
                "expected_seconds": {"type": "number", "description": "typical for this size on 2 cores"},
                "stages_done": {"type": "object", "additionalProperties": {"type": "number"}},
                "error": {"type": "string"},
            },
        },
    },
}
_WORLD_FIELDS = (
    "state",
    "size",
    "stage",
    "stage_percent",
    "percent",
    "elapsed_seconds",
    "expected_seconds",
    "stages_done",
    "error",
)
READINESS_DOC: dict[str, Any] = {
    "security": [],
    "responses": {
        "200": {
            "description": "Ready; building while `leadwire serve` builds the sandbox world (jobs wait for "
            "it); degraded while Redis is unreachable (limits per process), after a failed world build, "
            "or while no worker is alive (jobs wait queued)",
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
    summary="Readiness: database reachable and not draining; `building` while the sandbox world "
    "builds, `degraded` while Redis is unreachable",
)
async def readyz(request: Request, runtime: Runtime = Depends(get_runtime)) -> JSONResponse:
    """200 `ready` (`building` while the sandbox world builds, `degraded` while Redis is unreachable)
    when this process should get traffic; 503 `database_unavailable` or `draining` when it should not.
    No key."""
    database_up, redis_up = await asyncio.gather(_database_answers(runtime), runtime.rate_limiter.ping())
    checks = {
        "database": "ok" if database_up else "unavailable",
        "redis": ("ok" if redis_up else "unavailable") if runtime.settings.redis_url else "not_configured",
    }
    world = _world(request)
    extra: dict[str, Any] = {}
    if world is not None:
        checks["world"] = world["state"]
        extra["world"] = world
    if not database_up:
        return JSONResponse(
            {"ok": False, "status": "database_unavailable", "checks": checks, **extra}, status_code=503
        )
    if runtime.draining:
        return JSONResponse({"ok": False, "status": "draining", "checks": checks, **extra}, status_code=503)
    workers = await _workers_alive(runtime)
    if workers is not None:
        checks["workers"] = "ok" if workers.workers else "none_alive"
    reasons = _degraded_because(checks)
    if reasons:
        return JSONResponse({"ok": True, "status": "degraded", "checks": checks, "reasons": reasons, **extra})
    status = "building" if checks.get("world") == "building" else "ready"
    return JSONResponse({"ok": True, "status": status, "checks": checks, **extra})


def _degraded_because(checks: dict[str, str]) -> list[str]:
    # A load balancer sends traffic on any 200: while the world builds the API answers, only jobs wait;
    # the in-process worker starts once it is built, so no worker then is not a fault.
    reasons = []
    if checks["redis"] == "unavailable":
        reasons.append("Redis is unreachable: rate limits are counted per process")
    if checks.get("world") == "failed":
        reasons.append("the sandbox world build failed")
    if checks.get("workers") == "none_alive" and checks.get("world") != "building":
        stale = int(presence.BEAT_SECONDS * presence.STALE_AFTER_BEATS)
        reasons.append(f"no worker has reported in the last {stale} s: jobs wait queued")
    return reasons


async def _workers_alive(runtime: Runtime) -> presence.Alive | None:
    """The live workers, or None when the database did not say within the connect timeout (then the
    database check, just passed, says what there is to say)."""
    try:
        async with asyncio.timeout(runtime.settings.db_connect_timeout_seconds):
            async with runtime.reader() as session:
                alive = await presence.alive(session)
    except Exception:
        return None
    WORKERS_ALIVE.set(alive.workers)
    return alive


def _world(request: Request) -> dict[str, Any] | None:
    """The sandbox world build `leadwire serve` started (None in every other process)."""
    build = getattr(request.app.state, "world_build", None)
    if build is None:
        return None
    status = build.status()
    return {name: status[name] for name in _WORLD_FIELDS if status.get(name) is not None}


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
    rate-limit fallbacks. No API key: `Authorization: Bearer <LEADWIRE_METRICS_TOKEN>`, or nothing when the
    operator opened it with `LEADWIRE_METRICS_PUBLIC=true`; closed otherwise."""
    token = runtime.settings.metrics_token
    if not token and not runtime.settings.metrics_public:
        raise ApiError(
            "api_key_missing",
            detail="set LEADWIRE_METRICS_TOKEN and send it as a bearer token, or LEADWIRE_METRICS_PUBLIC",
        )
    if token:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if not given:
            raise ApiError("api_key_missing", detail="send Authorization: Bearer <LEADWIRE_METRICS_TOKEN>")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
            raise ApiError("api_key_invalid", detail="not the metrics token")
    _sample_process_state(runtime)
    await _workers_alive(runtime)
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


TASKS = Gauge("leadwire_asyncio_tasks", "asyncio tasks alive in this process (requests, streams, workers)")
WORKERS_ALIVE = Gauge(
    "leadwire_workers_alive",
    "worker processes (anywhere, as the database knows them) that beat within the last "
    f"{int(presence.BEAT_SECONDS * presence.STALE_AFTER_BEATS)} s; read at scrape and readiness",
)
POOL_IN_USE = Gauge("leadwire_db_connections_in_use", "database connections checked out of a pool", ["pool"])


def _sample_process_state(runtime: Runtime) -> None:
    """Gauges read when scraped: what a leak (of streams, tasks or connections) would grow."""
    TASKS.set(len(asyncio.all_tasks()))
    for name, engine in (("write", runtime.engine), ("read", runtime.read_engine)):
        checkedout = getattr(engine.pool, "checkedout", None) if engine is not None else None
        if checkedout is not None:
            POOL_IN_USE.labels(pool=name).set(checkedout())
    POOL_IN_USE.labels(pool="poll").set(runtime.poll_connections_in_use())
