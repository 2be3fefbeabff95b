"""The wire shapes of the envelopes and the public job (spec sections 1-2), each defined once.

A wire shape is a `TypedDict`: the renderer that produces a response is typed to return it (so mypy
holds it to exactly these keys and types), and the OpenAPI document derives its schema from the same
class (pydantic reads TypedDicts). Responses stay plain dicts rendered with orjson — no model is
constructed on the hot read paths — and the test suite validates every response it receives against
the published schema (`tests/support/conformance.py`).
"""

from __future__ import annotations

from typing import Any, Generic, Literal, NotRequired, TypeVar

from pydantic import BaseModel
from typing_extensions import TypedDict

T = TypeVar("T")


class ItemEnvelope(BaseModel, Generic[T]):
    ok: Literal[True]
    request_id: str
    item: T


class ItemsEnvelope(BaseModel, Generic[T]):
    ok: Literal[True]
    request_id: str
    items: list[T]


class JobProgress(TypedDict):
    stage: str
    percent: float


class JobResource(TypedDict):
    type: str
    id: str


class JobError(TypedDict):
    code: str
    detail: NotRequired[str]  # a human sentence saying why, when the failure has one


class JobBilling(TypedDict):
    status: Literal["pending", "settled", "not_billable", "not_metered"]
    charged_credits: int
    pending_units: float


# The contract also names `settling`; a job here settles in the transaction that ends it, so it never
# shows that status (docs/api.md, "Jobs").
JobStatus = Literal["queued", "scheduled", "running", "succeeded", "failed", "cancelled"]
Channel = Literal["email", "linkedin", "whatsapp"]


class PublicJob(TypedDict):
    id: str
    action: str
    status: JobStatus
    channel: NotRequired[Channel]  # outreach jobs only
    progress: JobProgress
    resource: JobResource  # what the job is about; {type: job, id: <its own id>} when nothing else
    scheduled_at: str
    started_at: str | None
    finished_at: str | None
    attempt_count: int
    result: dict[str, Any] | None
    error: JobError | None
    billing: JobBilling
    metadata: NotRequired[Any]  # the caller's `metadata`, for actions whose request carries it


class ReducedJob(TypedDict):
    """The reduced creation item an action may declare instead of the whole job (spec section 2:
    outreach creation responses)."""

    id: str
    status: JobStatus
    action: str
    channel: Channel
    scheduled_at: str


def documented(
    model: Any, status: int = 200, description: str = "Success"
) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": model, "description": description}}
