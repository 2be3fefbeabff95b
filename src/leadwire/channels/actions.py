"""What every job that sends through a connected account has in common, declared once for the
capabilities that send (a dispatch, a post like): rate-limited in the `outreach` request class,
outside job billing (docs/api.md, Credits and per-row billing), answered at creation with the reduced
item `{id, status, action, channel, scheduled_at}` because it waits for the channel's next slot."""

from __future__ import annotations

from typing import Any

from leadwire.channels.limits import SENDS
from leadwire.platform.billing import NOT_METERED
from leadwire.platform.jobs import ActionSpec, Handler, reduced_job

SEND_TIMEOUT_SECONDS = 120.0


def sending_action(
    *,
    action: str,
    scopes: str,
    handler: Handler,
    result: Any,
    outcome_events: tuple[str, str] | None = None,
) -> ActionSpec:
    return ActionSpec(
        action=action,
        scopes=scopes,
        handler=handler,
        request_class=SENDS.name,
        timeout_seconds=SEND_TIMEOUT_SECONDS,
        price=NOT_METERED,
        creation_item=reduced_job,
        result=result,
        outcome_events=outcome_events,
    )
