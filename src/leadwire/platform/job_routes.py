"""One way to declare a job-creation route: permission, idempotency key, validated body, the slice's
service starting the job in the request's transaction, and `Prefer: wait` — documented in OpenAPI
with the job response and the route's error codes. Slices with many such routes (customs has seven)
declare each in a line instead of repeating the same dependency-injection signature.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Depends
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.auth import Caller
from leadwire.platform.body import RequestModel, json_body, openapi_body
from leadwire.platform.envelope import JSONResponse
from leadwire.platform.http import Idempotency, idempotent, prefer_wait, respond_with_job
from leadwire.platform.jobs.models import NewJob
from leadwire.platform.openapi import errors
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.schemas import ItemEnvelope, PublicJob, documented
from leadwire.platform.session import Session

M = TypeVar("M", bound=RequestModel)
Start = Callable[[AsyncSession, Runtime, Caller, M], Awaitable[NewJob]]

# What every creation route can answer besides its own validation codes.
CREATION_ERRORS = (
    "invalid_request",
    "insufficient_credits",
    "idempotency_conflict",
    "idempotency_key_in_progress",
    "task_unavailable",
    "request_payload_too_large",
)
JOB_RESPONSES: dict[int | str, dict[str, Any]] = {
    **documented(ItemEnvelope[PublicJob], 202, "Job accepted"),
    **documented(ItemEnvelope[PublicJob], 200, "Job finished within Prefer: wait"),
}


def add_job_route(
    router: APIRouter,
    path: str,
    *,
    name: str,
    body: type[M],
    permission: Callable[..., Awaitable[Caller]],
    start: Start[M],
    error_codes: tuple[str, ...] = (),
    summary: str | None = None,
    description: str | None = None,
) -> None:
    """POST `path` on `router`: 202 with the created job (200 when it finished within Prefer: wait)."""

    async def create(
        session: Session,
        caller: Caller = Depends(permission),
        idem: Idempotency = Depends(idempotent()),
        request: Any = Depends(json_body(body)),
        runtime: Runtime = Depends(get_runtime),
        wait: int | None = Depends(prefer_wait),
    ) -> JSONResponse:
        job = await start(session, runtime, caller, request)
        return await respond_with_job(session, runtime, job, idem=idem, wait=wait)

    router.add_api_route(
        path,
        create,
        methods=["POST"],
        name=name,
        status_code=202,
        summary=summary,
        description=description,
        openapi_extra=openapi_body(body),
        responses={**JOB_RESPONSES, **errors(*CREATION_ERRORS, *error_codes)},
    )
