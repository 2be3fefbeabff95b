"""The action registry: each capability registers its job actions with handler, scope and price."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadwire.platform.billing.prices import NOT_BILLABLE, Price, Units

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from leadwire.platform.jobs.context import JobContext
    from leadwire.platform.jobs.models import Job, JobLike
    from leadwire.platform.notify import Notifier

Handler = Callable[["JobContext", dict[str, Any]], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class ActionSpec:
    """How the engine treats one action; declared by its capability (see `platform/capability.py`).

    `scopes` is the prefix of the scopes that guard its jobs (`<scopes>:read` to read one, `:write` to
    cancel it);
    `price` the credits per unit of each kind the handler bills; `max_units` the most units of each
    kind (or of the default kind, as a number) a payload can produce, for the reservation;
    `creation_item` the reduced item a creation response carries instead of the whole job; `result`
    the model (a pydantic model or a TypedDict) of a succeeded job's `result`, which the OpenAPI
    document publishes as the type of that action's job result.
    """

    action: str
    scopes: str
    handler: Handler
    request_class: str = "task"
    timeout_seconds: float = 300.0
    resource_type: str | None = None
    max_units: Callable[[dict[str, Any]], float | Units] | None = None
    price: Price = NOT_BILLABLE
    creation_item: Callable[[JobLike], Mapping[str, Any]] | None = None
    result: type[Any] | None = None
    # Runs in the cancelling transaction after a queued job was cancelled: the capability's own record
    # of the work (a webset whose run will now never start) follows the job.
    on_cancel: Callable[[AsyncSession, Notifier, Job], Awaitable[None]] | None = None
    # Runs in the transaction that records the job failed — by its handler, a timeout, or a worker lost
    # past the job's attempts: the capability's record of the work (a webset's run) ends with it.
    on_fail: Callable[[AsyncSession, Notifier, Job], Awaitable[None]] | None = None
    # The domain events (`platform/events/domain.py`) its succeeded and failed jobs report besides
    # `job.succeeded` / `job.failed`: a sent message's `outreach.delivered` / `outreach.failed`.
    outcome_events: tuple[str, str] | None = None


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

    def scope(self, action: str, *, write: bool = False) -> str:
        """The scope that reads (or, `write`, cancels) a job of `action`: its capability's
        (`<scopes>:read`), or the action's own prefix for one no longer registered."""
        spec = self._specs.get(action)
        prefix = spec.scopes if spec is not None else action.split(".")[0]
        return f"{prefix}:{'write' if write else 'read'}"

    def any_on_fail(self) -> bool:
        """Whether some action follows its failures (else a failed batch reads nothing more)."""
        return any(spec.on_fail is not None for spec in self._specs.values())

    def charge(self, action: str, units: Units, *, succeeded: bool) -> int:
        """What a finished job costs: its units at its action's price, all kinds summed and rounded up
        once; nothing for a failure or an action no longer registered."""
        spec = self._specs.get(action)
        return spec.price.credits(units) if spec is not None and succeeded else 0

    def actions(self) -> list[str]:
        return sorted(self._specs)

    def specs(self) -> list[ActionSpec]:
        """Every registered action's declaration, by action name."""
        return [self._specs[action] for action in self.actions()]


registry = ActionRegistry()
