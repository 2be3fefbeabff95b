"""The wire shapes of a job (docs/api.md, Jobs and their statuses): the public job every job route
answers with, and the reduced creation item an action may declare instead. `TypedDict`s, so the
renderers are typed to return exactly these keys and the OpenAPI document derives its schemas from
the same classes."""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict


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


class JobHold(TypedDict):
    """Why a pending job waits past its slot: `reason` (a sending policy's `daily_cap`, `ramp` or
    `window`; `paused`; `person_touched`) and `until`, the time it is now scheduled for."""

    reason: str
    until: str


# The contract also names `settling`; a job here settles in the transaction that ends it, so it never
# shows that status (docs/api.md, Jobs and their statuses).
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
    hold: NotRequired[JobHold]  # while a pending job waits past its slot (a sending policy)


class ReducedJob(TypedDict):
    """The reduced creation item an action may declare instead of the whole job (docs/api.md,
    Outreach dispatch by email: the 202 item)."""

    id: str
    status: JobStatus
    action: str
    channel: Channel
    scheduled_at: str
    hold: NotRequired[JobHold]  # v2: the sending policy placed it past the channel's slot
