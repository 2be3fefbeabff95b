"""Bench plugin: the trivial job action `bench.noop` (returns `{}` at once, never billed).

Loaded with `LEADWIRE_PLUGINS=bench.plugins.noop` and PYTHONPATH=<repo root>; it has no router, so
jobs of this action are created through `leadwire.platform.jobs.service.create_job`.
Capability `research`: a key with `research:read` can read its jobs.
"""

from __future__ import annotations

from typing import Any

from leadwire.platform.billing.prices import NOT_BILLABLE
from leadwire.platform.jobs.context import JobContext
from leadwire.platform.jobs.registry import ActionSpec, registry

ACTION = "bench.noop"


async def run_noop(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    return {}


SPEC = registry.register(ActionSpec(action=ACTION, scopes="research", handler=run_noop, price=NOT_BILLABLE))
