"""Routes that create, one way for every capability: an `Operation` declared by the slice becomes a POST
route with the permission, the idempotency key, the validated body, the slice's service starting the
work in the request's transaction, and `Prefer: wait` — documented in OpenAPI with the item, the
finished job and the operation's error codes (`add_creation_route`); and the pieces such a route is
made of (`idempotent`, `prefer_wait`, `respond_with_job`, `respond`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform import idempotency
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.http.auth import authenticated_caller, require
from leadwire.platform.http.body import json_body, openapi_body
from leadwire.platform.http.envelope import JSONResponse, ok_item
from leadwire.platform.http.schemas import ItemEnvelope, documented, errors
from leadwire.platform.http.session import Session
from leadwire.platform.jobs.models import JobLike, NewJob
from leadwire.platform.jobs.operations import Operation
from leadwire.platform.jobs.schemas import PublicJob
from leadwire.platform.jobs.states import TERMINAL
from leadwire.platform.jobs.views import creation_item, public_job
from leadwire.platform.jobs.wait import parse_prefer_wait, waiting_for
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.unit_of_work import commit_rewrite, commit_with_response, store_response


class ReplayedResponse(Exception):
    """Raised to short-circuit a handler with a stored idempotent response."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__("replay")
        self.status = status
        self.body = body


@dataclass
class Idempotency:
    claim: idempotency.Claim | None


def idempotent(*, required: bool = False) -> Callable[..., AsyncIterator[Idempotency]]:
    """A dependency for POST routes: claims the request's Idempotency-Key for the authenticated caller
    (the same `authenticated_caller` the route's `require()` resolved), or replays the stored response.
    Declare it after the route's permission, so a refused request never claims a key."""

    async def dependency(
        request: Request,
        caller: Caller = Depends(authenticated_caller),
        runtime: Runtime = Depends(get_runtime),
    ) -> AsyncIterator[Idempotency]:
        raw_key = request.headers.get("idempotency-key")
        if raw_key is None:
            if required:
                raise ApiError("idempotency_key_required", param="Idempotency-Key")
            yield Idempotency(None)
            return
        try:
            outcome = await idempotency.claim(
                runtime,
                api_key_id=caller.key_id,
                method=request.method,
                path=request.url.path,
                key=idempotency.validate_key(raw_key),
                body=await request.body(),
            )
        except ApiError as refused:
            if refused.code == "idempotency_key_in_progress":
                await _give_back(request, runtime)
            raise
        if isinstance(outcome, idempotency.Replay):
            raise ReplayedResponse(outcome.status, outcome.body)
        beating = asyncio.create_task(idempotency.keep_claimed(runtime, outcome))
        try:
            yield Idempotency(outcome)
        except BaseException as failed:
            if isinstance(failed, ApiError) and failed.code == "idempotency_key_in_progress":
                await _give_back(request, runtime)  # its claim was taken over: no work of its own
            await idempotency.release(runtime, outcome)
            raise
        finally:
            beating.cancel()

    return dependency


async def _give_back(request: Request, runtime: Runtime) -> None:
    """A retry answered "in progress" did no work: its creation counts against no budget."""
    decision = getattr(request.state, "rate_decision", None)
    if decision is not None:
        await runtime.rate_limiter.give_back(decision)


def prefer_wait(request: Request) -> int | None:
    return parse_prefer_wait(request.headers.get("prefer"))


async def respond_with_job(
    session: AsyncSession,
    runtime: Runtime,
    job: NewJob,
    *,
    idem: Idempotency,
    wait: int | None,
    item: Callable[[JobLike], Mapping[str, Any]] = creation_item,
    refuse_finished: Callable[[JobLike], ApiError | None] | None = None,
) -> JSONResponse:
    """End the creation transaction (job + stored response), then honour `Prefer: wait`.

    200 with the terminal job when it finishes within the wait, else 202 with the job as created.
    The idempotency record is updated to what was actually sent. `refuse_finished` may turn a job that
    finished within the wait into an error response (v1 post likes: a failed like is 502); the key then
    keeps the 202 creation response, since the job exists and a retry must not create another.
    """
    body = ok_item(item(job))
    status = 202
    seconds = None if wait is None else min(wait, int(runtime.settings.prefer_wait_cap_seconds))
    with waiting_for(runtime, job.id) as waiter:  # before the commit: the job may end right after it
        await commit_with_response(session, idem.claim, status=status, body=body)
        # The job as this transaction wrote it: not over yet, unless the start returned an ended one.
        pending_now = job.status not in TERMINAL
        finished = await waiter.terminal(seconds, pending_now=pending_now) if seconds else None
    headers: dict[str, str] = {}
    if seconds is not None:
        headers["Preference-Applied"] = f"wait={seconds}"
        refusal = refuse_finished(finished) if finished is not None and refuse_finished else None
        if refusal is not None:
            refusal.headers = {**refusal.headers, **headers}
            raise refusal
        if finished is not None:
            status, body = 200, ok_item(public_job(finished))
            await commit_rewrite(session, idem.claim, status=status, body=body)
    return JSONResponse(body, status_code=status, headers=headers)


async def respond(
    session: AsyncSession,
    idem: Idempotency,
    body: dict[str, Any],
    *,
    status: int = 200,
    replayed: dict[str, Any] | None = None,
) -> JSONResponse:
    """A non-job POST response, stored for the idempotency key in the same transaction. `replayed`:
    what a replay answers instead, when the body holds what must not be stored (a secret shown once)."""
    await store_response(session, idem.claim, status=status, body=body if replayed is None else replayed)
    return JSONResponse(body, status_code=status)


# What every creation route can answer besides its own validation codes.
CREATION_ERRORS = (
    "invalid_request",
    "insufficient_credits",
    "idempotency_conflict",
    "idempotency_key_in_progress",
    "task_unavailable",
    "request_payload_too_large",
)
FINISHED_IN_TIME = documented(ItemEnvelope[PublicJob], 200, "Job finished within Prefer: wait")
# Routes whose Idempotency-Key is required (`idempotent(required=True)`) document it so.
IDEMPOTENCY_KEY_REQUIRED = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": True,
    "description": "1-255 printable ASCII characters; a retry with the same key gets the same job",
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]([ -~]*[!-~])?$"},
}


def add_creation_route(
    router: APIRouter, path: str, operation: Operation[Any, Any], *, version: str = "v2"
) -> None:
    """POST `path` on `router` for `operation`: the permission, the idempotency key, the validated body,
    the slice's `start` in the request's transaction, then 202 with the operation's item — or, for a
    job operation, 200 with the finished job when it ends within `Prefer: wait`. An operation both
    versions share is mounted once per version (`version="v1"` names and titles the v1 route)."""
    body_model = operation.body

    async def create(
        request: Request,
        session: Session,
        caller: Caller = Depends(require(operation.permission)),
        idem: Idempotency = Depends(idempotent(required=operation.idempotency_required)),
        body: Any = Depends(json_body(body_model)),
        runtime: Runtime = Depends(get_runtime),
        wait: int | None = Depends(prefer_wait),
    ) -> JSONResponse:
        resource = {operation.resource: request.path_params[operation.resource]} if operation.resource else {}
        created = await operation.start(session, runtime, caller, body, **resource)
        if not operation.waits:
            return await respond(session, idem, ok_item(operation.item(created)), status=202)
        return await respond_with_job(
            session,
            runtime,
            created,
            idem=idem,
            wait=wait,
            item=operation.item,
            refuse_finished=operation.refuse_finished,
        )

    model, text = operation.created
    responses = documented(ItemEnvelope[model], 202, text)  # type: ignore[valid-type]
    if operation.waits:
        responses.update(FINISHED_IN_TIME)
    extra = openapi_body(body_model)
    parameters = [IDEMPOTENCY_KEY_REQUIRED] if operation.idempotency_required else []
    if operation.resource:
        parameters.append(_path_parameter(operation.resource))
    if parameters:
        extra = {**extra, "parameters": parameters}
    codes = [*CREATION_ERRORS, *(("idempotency_key_required",) if operation.idempotency_required else ())]
    router.add_api_route(
        path,
        create,
        methods=["POST"],
        name=operation.name if version == "v2" else f"{operation.name}_{version}",
        status_code=202,
        summary=operation.summary if version == "v2" else f"{operation.summary} ({version})",
        description=operation.description,
        openapi_extra=extra,
        responses={**responses, **errors(*codes, *operation.error_codes)},
    )


def _path_parameter(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
