"""Response models for the OpenAPI document: the envelopes and the public job (spec sections 1-2).

Routes render plain dicts with orjson; these models only describe those shapes to clients.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel

T = TypeVar("T")


class ItemEnvelope(BaseModel, Generic[T]):
    ok: Literal[True]
    request_id: str
    item: T


class ItemsEnvelope(BaseModel, Generic[T]):
    ok: Literal[True]
    request_id: str
    items: list[T]


class JobProgress(BaseModel):
    stage: str
    percent: float


class JobResource(BaseModel):
    type: str
    id: str | None


class JobError(BaseModel):
    code: str


class JobBilling(BaseModel):
    status: Literal["pending", "settled", "not_billable", "not_metered"]
    charged_credits: int
    pending_units: float


class PublicJob(BaseModel):
    id: str
    action: str
    status: Literal["queued", "scheduled", "running", "settling", "succeeded", "failed", "cancelled"]
    channel: Literal["email", "linkedin", "whatsapp"] | None = None
    progress: JobProgress
    resource: JobResource | None
    scheduled_at: str
    started_at: str | None
    finished_at: str | None
    attempt_count: int
    result: dict[str, Any] | None
    error: JobError | None
    billing: JobBilling


def documented(
    model: Any, status: int = 200, description: str = "Success"
) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": model, "description": description}}
