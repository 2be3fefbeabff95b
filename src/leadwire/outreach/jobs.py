"""The dispatch job: what the worker runs when a dispatch's slot is due, and its creation item."""

from __future__ import annotations

from typing import Any

from leadwire.channels.actions import sending_action
from leadwire.outreach import service
from leadwire.outreach.schemas import DispatchRequest, DispatchResult
from leadwire.platform.jobs import JobContext


async def run_dispatch(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    return await service.deliver(
        ctx,
        DispatchRequest.model_validate(await service.with_attachments(ctx, payload)),
        api_version=int(payload.get("api_version", 1)),
    )


DISPATCH_ACTION = sending_action(
    action=service.DISPATCH,
    scopes="outreach",
    handler=run_dispatch,
    result=DispatchResult,
    outcome_events=("outreach.delivered", "outreach.failed"),
)
