"""Bench plugin: the billed job action `bench.billed` — 1 credit reserved at creation, 1 unit billed.

Loaded with `LEADWIRE_PLUGINS=bench.plugins.noop,bench.plugins.billed` and PYTHONPATH=<repo root>; it
has no router, so jobs of this action are created through `leadwire.platform.jobs.service.create_jobs`.
Price 1 credit per unit and at most 1 unit per payload: creating a job reserves 1 credit on the
account's balance row (a `reserve` ledger entry); the handler bills 1 unit and returns `{}` at once, so
settlement releases the 1 reserved (`release`) and charges 1 (`charge`, the job's `charged_credits`).
Capability `research`: a key with `research:read` can read its jobs.
"""

from __future__ import annotations

from typing import Any

from leadwire.platform.billing.prices import per_unit
from leadwire.platform.jobs.context import JobContext
from leadwire.platform.jobs.registry import ActionSpec, registry

ACTION = "bench.billed"


async def run_billed(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    ctx.bill(1)
    return {}


SPEC = registry.register(
    ActionSpec(
        action=ACTION,
        scopes="research",
        handler=run_billed,
        price=per_unit(1),
        max_units=lambda payload: 1,
    )
)
