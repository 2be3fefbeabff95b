"""The dispatch job: what the worker runs when a dispatch's slot is due, and its creation item."""

from __future__ import annotations

from typing import Any

from leadwire.outreach import service
from leadwire.outreach.schemas import DispatchRequest, DispatchResult
from leadwire.platform.billing import NOT_METERED
from leadwire.platform.jobs import ActionSpec, JobContext, reduced_job


async def run_dispatch(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    return await service.deliver(
        ctx, DispatchRequest.model_validate(await service.with_attachments(ctx, payload))
    )


DISPATCH_ACTION = ActionSpec(
    action=service.DISPATCH,
    scopes="outreach",
    handler=run_dispatch,
    request_class="outreach",
    timeout_seconds=120.0,
    price=NOT_METERED,  # outreach is outside job billing (docs/api.md, Credits and per-row billing)
    creation_item=reduced_job,
    result=DispatchResult,
)
