"""An operation that starts work, declared once by its slice; every face derives from the declaration.

`Operation` holds what a caller needs to know about one creation (its request model, with the fields'
types, limits and docs; its permission; its error codes; what it answers) and the service function
that starts it. The REST route (`add_creation_route`), the MCP tool (`ToolKit.operation_tool`) and,
through the OpenAPI document, the SDK's methods and the CLI's options are made from it, so a field, a
limit or a code is written in one place.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from leadwire.platform.callers import Permission
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs.models import JobLike, NewJob
from leadwire.platform.jobs.schemas import PublicJob
from leadwire.platform.jobs.views import creation_item
from leadwire.platform.validation import RequestModel

M = TypeVar("M", bound=RequestModel)
R = TypeVar("R")
# `start(session, runtime, caller, body)`, and the resource's id by its name when the operation acts on
# one (`start(..., body, webset_id=...)`).
Start = Callable[..., Awaitable[R]]


@dataclass(frozen=True, kw_only=True)
class Operation(Generic[M, R]):
    """One creation: `start` runs the slice's rules in the request's transaction and returns what it
    created (`R`); `item` is the 202 answer made of it, described by `created` for OpenAPI.

    A job operation (`job_operation`) creates one job: REST honours `Prefer: wait` and MCP its
    `wait_seconds` argument, answering the finished job when it ends in time. Another operation (a
    webset with its preparation job) answers its item at once."""

    name: str  # the MCP tool's name, and the REST route's
    body: type[M]
    permission: Permission
    start: Start[R]
    item: Callable[[R], Mapping[str, Any]]
    summary: str
    description: str  # REST: the operation's documentation
    # MCP: the tool's description; None leaves the operation off MCP (a v1-only variant).
    tool_description: str | None
    error_codes: tuple[str, ...] = ()
    # The id of the resource it acts on (`webset_id`): a path parameter, and a tool argument.
    resource: str | None = None
    # Body fields the operation sets itself: not tool arguments (dispatch's `action`).
    fixed: Mapping[str, Any] = field(default_factory=dict)
    created: tuple[type[Any], str] = (PublicJob, "Job accepted")  # the 202 item's schema, and its text
    waits: bool = True
    tool_wait_seconds: int = 20  # the MCP tool's default `wait_seconds`
    # The Idempotency-Key header is required (a retried click must not start a second run).
    idempotency_required: bool = False
    # A job that finished within the wait may be an error answer instead (v1 likes: 502).
    refuse_finished: Callable[[JobLike], ApiError | None] | None = None

    def tool_fields(self) -> list[str]:
        """The request model's fields a tool call gives, in the model's order."""
        return [name for name in self.body.model_fields if name not in self.fixed]


def job_operation(**declared: Any) -> Operation[Any, NewJob]:
    """An operation that creates one job, answered with the action's creation item (the job, or the
    reduced item its action declares); takes `Operation`'s fields but `item`."""
    item: Callable[[JobLike], Mapping[str, Any]] = creation_item
    return Operation(item=item, **declared)
