"""Job actions of prospect lists: preparation (criteria, strategy, hand-over), the creation's
discovery run, and Find More runs. Runs are billed a credit per released qualified item."""

from __future__ import annotations

from typing import Any

from leadwire.platform.billing import per_kind
from leadwire.platform.jobs import ActionSpec, Handler
from leadwire.providers.trade_terms import COMPANY_ROW_KIND, COMPANY_ROW_PRICE
from leadwire.websets import discovery, enrichment_run, enrichments, refresh, service, states
from leadwire.websets.enrichment_schemas import EnrichResult
from leadwire.websets.monitor_schemas import RefreshResult
from leadwire.websets.schemas import PreparationResult, RunResult

# A credit per released qualified item; a trade-seeded run also pays a customs company row for each
# candidate it reads from the records.
ITEM_PRICE = per_kind(items="1", **{COMPANY_ROW_KIND: COMPANY_ROW_PRICE})


def _action(action: str, handler: Handler, timeout_seconds: float, result: type[Any]) -> ActionSpec:
    """Every webset action reserves the run's goal in items, and its list follows it when it is cancelled
    or fails."""
    return ActionSpec(
        action=action,
        scopes="websets",
        handler=handler,
        timeout_seconds=timeout_seconds,
        resource_type="webset",
        max_units=lambda p: {"items": float(p["goal"]), COMPANY_ROW_KIND: float(p.get("seed_rows", 0))},
        price=ITEM_PRICE,
        on_cancel=states.follow_cancelled_job,
        on_fail=states.follow_failed_job,
        result=result,
    )


# Preparation reserves the goal at creation and hands the reservation to the run it starts.
PREPARE_ACTION = _action(service.PREPARE, discovery.prepare, 300.0, PreparationResult)
DISCOVER_ACTION = _action(service.DISCOVER, discovery.run, 600.0, RunResult)
FIND_MORE_ACTION = _action(service.FIND_MORE, discovery.run, 600.0, RunResult)

# Credits per non-empty cell, by format: an address or a number from the contacts path or the pages
# costs more than a value read by the reasoner. `LEADWIRE_PRICES` may change any of them.
CELL_PRICES = per_kind(
    enrichment_text="0.2",
    enrichment_number="0.2",
    enrichment_date="0.2",
    enrichment_options="0.2",
    enrichment_url="0.2",
    enrichment_phone="0.5",
    enrichment_email="1",
)
ENRICH_ACTION = ActionSpec(
    action=enrichments.ENRICH,
    scopes="websets",
    handler=enrichment_run.run,
    timeout_seconds=900.0,
    resource_type="webset",
    max_units=lambda p: {enrichments.kind_of(p["format"]): float(p["goal"])},
    price=CELL_PRICES,
    on_cancel=enrichments.follow_ended_job,
    on_fail=enrichments.follow_ended_job,
    result=EnrichResult,
)

REFRESH_ACTION = ActionSpec(
    action=refresh.REFRESH,
    scopes="websets",
    handler=refresh.run,
    timeout_seconds=900.0,
    resource_type="webset",
    max_units=lambda p: {"refreshed_items": float(p["goal"])},
    price=per_kind(refreshed_items="0.2"),  # a re-verification, not a new find
    result=RefreshResult,
)
