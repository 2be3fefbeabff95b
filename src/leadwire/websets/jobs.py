"""Job actions of prospect lists: preparation (criteria, strategy, hand-over), the creation's
discovery run, and Find More runs. Runs are billed a credit per released qualified item."""

from __future__ import annotations

from leadwire.platform.billing.prices import per_unit
from leadwire.platform.jobs.registry import ActionSpec
from leadwire.websets import discovery, service

ITEM_PRICE = per_unit(1, kind="items")  # a credit per released qualified item

PREPARE_ACTION = ActionSpec(
    action=service.PREPARE,
    capability="websets",
    handler=discovery.prepare,
    timeout_seconds=300.0,
    resource_type="webset",
    # The goal is reserved at creation; preparation hands the reservation to the run it starts.
    max_units=lambda p: {"items": float(p["goal"])},
    price=ITEM_PRICE,
    on_cancel=service.follow_cancelled_job,
)
DISCOVER_ACTION = ActionSpec(
    action=service.DISCOVER,
    capability="websets",
    handler=discovery.run,
    timeout_seconds=600.0,
    resource_type="webset",
    max_units=lambda p: {"items": float(p["goal"])},
    price=ITEM_PRICE,
    on_cancel=service.follow_cancelled_job,
)
FIND_MORE_ACTION = ActionSpec(
    action=service.FIND_MORE,
    capability="websets",
    handler=discovery.run,
    timeout_seconds=600.0,
    resource_type="webset",
    max_units=lambda p: {"items": float(p["goal"])},
    price=ITEM_PRICE,
    on_cancel=service.follow_cancelled_job,
)
