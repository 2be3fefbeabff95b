"""A test-only plugin: the `test.echo` action and a creation route that drive the jobs engine.

Loaded with `LEADWIRE_PLUGINS=tests.support.echo` (in-process tests pass it through Settings).
The payload steers the handler: `sleep` seconds, `fail` code (with `fail_detail`), `units` billed,
`raise` an exception, `block_file` waits until that file exists (lets a test kill a worker mid-job
deterministically).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Request
from sqlalchemy import text
from sse_starlette import EventSourceResponse, ServerSentEvent
from typing_extensions import TypedDict

from leadwire.platform.billing.prices import NOT_BILLABLE, NOT_METERED, per_kind
from leadwire.platform.callers import Caller, Permission
from leadwire.platform.capability import Capability
from leadwire.platform.http.auth import require
from leadwire.platform.http.body import json_body, openapi_body
from leadwire.platform.http.creation import Idempotency, idempotent, prefer_wait, respond_with_job
from leadwire.platform.http.envelope import JSONResponse
from leadwire.platform.http.session import Session
from leadwire.platform.jobs.context import JobContext, JobFailure
from leadwire.platform.jobs.registry import ActionSpec, registry
from leadwire.platform.jobs.service import create_job
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.validation import RequestModel

ACTION = "test.echo"


class EchoRequest(RequestModel):
    message: str = "hello"
    sleep: float = 0.0
    fail: str | None = None
    fail_detail: str | None = None
    units: float = 0.0
    max_units: float = 0.0
    # Units of named kinds (priced per kind, like a trade report's sections) and their maxima.
    kinds: dict[str, float] = {}
    max_kinds: dict[str, float] = {}
    block_file: str | None = None
    started_file: str | None = None
    scheduled_in: float = 0.0
    # The creation route waits until this file exists before creating its job, holding its idempotency
    # claim (a slow request, or one a test kills mid-request).
    hold_creation_until: str | None = None
    # Hold a database connection through the sleep, reading before and after, as a long step of a real
    # handler does (a connection cut meanwhile surfaces in the handler).
    read_database: bool = False


class EchoResult(TypedDict):
    message: str
    attempt: int
    pid: int


BLOCK_LIMIT_SECONDS = 120.0


async def _until_released(path: Path) -> None:
    """A test that fails before releasing its job must not leave the job waiting for the rest of the
    run: past the limit the job fails instead."""
    for _ in range(int(BLOCK_LIMIT_SECONDS / 0.05)):
        if path.exists():
            return
        await asyncio.sleep(0.05)
    raise RuntimeError(f"echo was never released ({path})")


async def run_echo(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    request = EchoRequest.model_validate(payload)
    if request.started_file:
        Path(request.started_file).write_text(f"{os.getpid()} {ctx.attempt}")
    if request.block_file:
        await _until_released(Path(request.block_file))
    if request.read_database:
        async with ctx.sessionmaker() as session:
            await session.execute(text("SELECT 1"))
            await asyncio.sleep(request.sleep)
            await session.execute(text("SELECT 1"))
    elif request.sleep:
        await asyncio.sleep(request.sleep)
    await ctx.progress("echoing", 50.0)
    ctx.bill(request.units)
    for kind, count in request.kinds.items():
        ctx.bill(count, kind=kind)
    if request.fail == "raise":
        raise RuntimeError("echo asked to raise")
    if request.fail:
        raise JobFailure(request.fail, request.fail_detail)
    return {"message": request.message, "attempt": ctx.attempt, "pid": os.getpid()}


ECHO_SPEC = registry.register(
    ActionSpec(
        action=ACTION,
        scopes="research",
        handler=run_echo,
        timeout_seconds=float(os.environ.get("LEADWIRE_TEST_ECHO_TIMEOUT", "30")),
        max_units=lambda payload: {
            "unit": float(payload.get("max_units", 0.0)),
            **payload.get("max_kinds", {}),
        },
        # 1.5 a unit; kinds priced like customs rows (3.6 and 3.0 credits), all rounded up once.
        price=per_kind(unit="1.5", counterparties="3.6", trends="3.6", categories="3.0"),
        result=EchoResult,
    )
)

router = APIRouter(tags=["test"])


@router.post("/api/v2/test/echo", openapi_extra=openapi_body(EchoRequest))
async def create_echo(
    session: Session,
    caller: Caller = Depends(require(Permission("research:write", "task"))),
    idem: Idempotency = Depends(idempotent()),
    body: EchoRequest = Depends(json_body(EchoRequest)),
    runtime: Runtime = Depends(get_runtime),
    wait: int | None = Depends(prefer_wait),
) -> JSONResponse:
    from datetime import timedelta

    from leadwire.platform.time import utcnow

    if body.hold_creation_until:
        await _until_released(Path(body.hold_creation_until))
    scheduled = utcnow() + timedelta(seconds=body.scheduled_in) if body.scheduled_in else None
    job = await create_job(
        session,
        runtime.notifier,
        caller,
        action=ACTION,
        payload=body.model_dump(),
        scheduled_at=scheduled,
        status="scheduled" if scheduled else "queued",
        draining=runtime.draining,
    )
    return await respond_with_job(session, runtime, job, idem=idem, wait=wait)


@router.get("/api/v2/test/boom")
async def boom(caller: Caller = Depends(require(Permission("research:read", "read")))) -> JSONResponse:
    raise RuntimeError("secret internal detail")


@router.get("/api/v2/test/customs-probe")
async def customs_probe(
    caller: Caller = Depends(require(Permission("customs:read", "read"))),
) -> JSONResponse:
    return JSONResponse({"ok": True})


FREE_ACTION = "test.free_echo"
FREE_SPEC = registry.register(
    ActionSpec(
        action=FREE_ACTION,
        scopes="research",
        handler=run_echo,
        price=NOT_BILLABLE,
        result=EchoResult,
    )
)


@router.post("/api/v2/test/free-echo", openapi_extra=openapi_body(EchoRequest))
async def create_free_echo(
    session: Session,
    caller: Caller = Depends(require(Permission("research:write", "task"))),
    idem: Idempotency = Depends(idempotent()),
    body: EchoRequest = Depends(json_body(EchoRequest)),
    runtime: Runtime = Depends(get_runtime),
    wait: int | None = Depends(prefer_wait),
) -> JSONResponse:
    job = await create_job(session, runtime.notifier, caller, action=FREE_ACTION, payload=body.model_dump())
    return await respond_with_job(session, runtime, job, idem=idem, wait=wait)


@router.post("/api/v2/test/keyed-echo", openapi_extra=openapi_body(EchoRequest))
async def create_keyed_echo(
    session: Session,
    caller: Caller = Depends(require(Permission("research:write", "task"))),
    idem: Idempotency = Depends(idempotent(required=True)),
    body: EchoRequest = Depends(json_body(EchoRequest)),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    job = await create_job(session, runtime.notifier, caller, action=ACTION, payload=body.model_dump())
    return await respond_with_job(session, runtime, job, idem=idem, wait=None)


@router.get("/api/v2/test/events/{topic}/stream")
async def stream_topic(
    request: Request,
    topic: str,
    stream_cursor: str | None = None,
    caller: Caller = Depends(require(Permission("research:read", "read"))),
    runtime: Runtime = Depends(get_runtime),
) -> EventSourceResponse:
    """The shape a webset stream will have: replay from the checkpoint, follow, end on `complete`."""
    from leadwire.platform.db import transaction
    from leadwire.platform.events import log
    from leadwire.platform.events.followers import follow
    from leadwire.platform.http.sse import control, resume_point, sse_response, to_sse

    start = resume_point(stream_cursor, request.headers.get("last-event-id"))
    async with transaction(runtime.sessionmaker) as session:
        if start is not None and await log.must_reset(session, topic, start):
            reset = True
        else:
            reset = False
            start = start if start is not None else await log.latest_seq(session, topic)

    async def events() -> AsyncIterator[ServerSentEvent]:
        if reset:
            yield control("reset", {"reason": "checkpoint_expired"})
            return
        async for event in follow(runtime, topic, start or 0, until=lambda e: e.type == "complete"):
            yield to_sse(event)

    return sse_response(events())


DELIVER_ACTION = "test.deliver"


async def run_deliver(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    """A stand-in outreach send: the "provider" appends one line per message to `sent_file`."""
    from leadwire.channels import delivery

    begun = await delivery.begin(ctx, channel="email", recipient=payload["recipient"])
    if begun.receipt is not None:
        return {"receipt": begun.receipt, "reused": True}
    if payload.get("started_file"):
        Path(payload["started_file"]).write_text(str(os.getpid()))
    if payload.get("block_file"):
        while not Path(payload["block_file"]).exists():
            await asyncio.sleep(0.05)
    if payload.get("refuse"):
        await delivery.fail(ctx, begun.delivery_id, error_code="recipient_not_found", sent_unknown=False)
        raise JobFailure("recipient_not_found")
    with Path(payload["sent_file"]).open("a") as sent:
        sent.write(f"{payload['recipient']} {ctx.job_id}\n")
    if payload.get("hold_after_send_file"):  # the provider accepted; the worker has not recorded it yet
        while not Path(payload["hold_after_send_file"]).exists():
            await asyncio.sleep(0.05)
    receipt = {"kind": "message", "provider": "test", "provider_message_id": begun.delivery_id}
    await delivery.finish(ctx, begun.delivery_id, receipt=receipt)
    return {"receipt": receipt, "reused": False}


DELIVER_SPEC = registry.register(
    ActionSpec(
        action=DELIVER_ACTION,
        scopes="outreach",
        handler=run_deliver,
        request_class="outreach",
        price=NOT_METERED,
    )
)


CAPABILITY = Capability(name="test", routers=(router,), actions=(ECHO_SPEC, FREE_SPEC, DELIVER_SPEC))
