"""The action registry: each capability registers its job actions with handler, scope and price."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadwire.platform.billing.prices import NOT_BILLABLE, PRICES, Price

if TYPE_CHECKING:
    from leadwire.platform.jobs.context import JobContext

Handler = Callable[["JobContext", dict[str, Any]], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class ActionSpec:
    """How the engine treats one action.

    `capability` names the scopes (`<capability>:read` to read the job, `:write` to cancel it);
    `max_units` estimates the most billable units a payload can produce, for the reservation.
    """

    action: str
    capability: str
    handler: Handler
    request_class: str = "task"
    timeout_seconds: float = 300.0
    resource_type: str | None = None
    max_units: Callable[[dict[str, Any]], float] | None = None
    price_override: Price | None = None

    @property
    def price(self) -> Price:
        if self.price_override is not None:
            return self.price_override
        return PRICES.get(self.action, NOT_BILLABLE)


class ActionRegistry:
    def __init__(self) -> None:
        self._specs: dict[str, ActionSpec] = {}

    def register(self, spec: ActionSpec) -> ActionSpec:
        existing = self._specs.get(spec.action)
        if existing is not None and existing is not spec:
            raise ValueError(f"action {spec.action} registered twice")
        self._specs[spec.action] = spec
        return spec

    def get(self, action: str) -> ActionSpec:
        return self._specs[action]

    def find(self, action: str) -> ActionSpec | None:
        return self._specs.get(action)

    def actions(self) -> list[str]:
        return sorted(self._specs)


registry = ActionRegistry()
