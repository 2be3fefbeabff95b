"""What a capability slice declares about itself, so the faces and the platform never name it.

Each slice (`research`, later `outreach`, `customs`, `websets`, …) declares one `Capability` in its own
package: its scopes, its HTTP routers (v1 and v2), its job actions (scope, request class, timeout,
prices per unit kind, reduced creation item), the plan-gated features it owns, the body limits of its
paths and its MCP tools. `leadwire/capabilities.py` lists the declarations once, with plain imports;
the app, the worker, the MCP server and the OpenAPI document iterate over that list.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from leadwire.platform.body_limits import register_body_limit
from leadwire.platform.errors import ErrorCode, register_errors
from leadwire.platform.events.domain import EventSink, register_sink
from leadwire.platform.jobs.background import BackgroundTask, register_background
from leadwire.platform.jobs.operations import Operation
from leadwire.platform.jobs.registry import ActionSpec, registry
from leadwire.platform.plans import RequestClass, register_feature, register_request_class
from leadwire.platform.users import register_scopes

if TYPE_CHECKING:
    from fastapi import APIRouter

    from leadwire.platform.http.mcp_tools import ToolKit

ALL_PLANS = frozenset({"free", "pro", "business"})
PAID_PLANS = frozenset({"pro", "business"})


@dataclass(frozen=True)
class Feature:
    """A plan-gated part of the product: a whole capability, or a part of one (research's contacts).
    Authorisation checks the feature named by the operation's `Permission`, or else the scope's prefix;
    a plan without it gets 403 `membership_tier_insufficient`."""

    name: str
    plans: frozenset[str] = ALL_PLANS


@dataclass(frozen=True)
class Capability:
    name: str
    scopes: tuple[str, ...] = ()
    # Its HTTP routers: routers, or names of modules with a `router`, imported when an app is built
    # (a worker serves no HTTP: it loads the job handlers and what they need, not the routes).
    routers: tuple[APIRouter | str, ...] = ()
    actions: tuple[ActionSpec, ...] = ()
    features: tuple[Feature, ...] = ()
    body_limits: Mapping[str, int] = field(default_factory=dict)
    # Registers the capability's MCP tools on the server, through the shared tool kit: a function, or
    # the name of a module with a `register_tools(kit)`, imported only when an MCP server is built (a
    # worker or an admin command then never loads the MCP SDK: a second of start-up).
    mcp_tools: Callable[[ToolKit], None] | str | None = None
    # Its creations, each declared once (`platform/jobs/operations.py`): the routes mount them with
    # `add_creation_route`, and each becomes an MCP tool here.
    operations: tuple[Operation[Any, Any], ...] = ()
    # Its public error codes (`platform/errors.py`: status and the user guide's two sentences).
    errors: tuple[ErrorCode, ...] = ()
    # The request classes of its own, rate-limited apart from read, poll and task.
    request_classes: tuple[RequestClass, ...] = ()
    # Receivers of the domain events other slices report (`platform/events/domain.py`), called in the
    # reporting transaction: the webhooks' outbox.
    event_sinks: tuple[EventSink, ...] = ()
    # Tasks a worker runs beside its jobs (`platform/jobs/background.py`): webhook delivery.
    background: tuple[BackgroundTask, ...] = ()

    def http_routers(self) -> list[APIRouter]:
        return [
            importlib.import_module(router).router if isinstance(router, str) else router
            for router in self.routers
        ]

    def register_mcp_tools(self, kit: ToolKit) -> None:
        tools = self.mcp_tools
        if isinstance(tools, str):
            tools = importlib.import_module(tools).register_tools
        if tools is not None:
            tools(kit)
        for operation in self.operations:
            kit.operation_tool(operation)


def install(capabilities: Iterable[Capability]) -> None:
    """Make the declarations known to the platform (idempotent: the same objects may install twice)."""
    for capability in capabilities:
        register_scopes(capability.scopes)
        for spec in capability.actions:
            registry.register(spec)
        for feature in capability.features:
            register_feature(feature.name, feature.plans)
        for path, max_bytes in capability.body_limits.items():
            register_body_limit(path, max_bytes)
        register_errors(capability.errors)
        for request_class in capability.request_classes:
            register_request_class(request_class)
        for sink in capability.event_sinks:
            register_sink(sink)
        for task in capability.background:
            register_background(task)


def plugin_capability(module: Any) -> Capability:
    """An extension module's declaration: its `CAPABILITY`, or (older plugins) a bare `router`."""
    declared = getattr(module, "CAPABILITY", None)
    if isinstance(declared, Capability):
        return declared
    router = getattr(module, "router", None)
    return Capability(name=module.__name__, routers=(router,) if router is not None else ())
