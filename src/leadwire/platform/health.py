"""Operational endpoints: liveness, readiness (database reachable) and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text
from starlette.responses import Response

from leadwire.platform.envelope import JSONResponse
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(tags=["operations"])


@router.get("/healthz", include_in_schema=True)
async def healthz() -> JSONResponse:
    return JSONResponse({"ok": True, "status": "alive"})


@router.get("/readyz")
async def readyz(runtime: Runtime = Depends(get_runtime)) -> JSONResponse:
    try:
        async with runtime.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    except Exception:
        return JSONResponse({"ok": False, "status": "database_unavailable"}, status_code=503)
    if runtime.draining:
        return JSONResponse({"ok": False, "status": "draining"}, status_code=503)
    return JSONResponse({"ok": True, "status": "ready"})


@router.get("/metrics")
async def metrics() -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
