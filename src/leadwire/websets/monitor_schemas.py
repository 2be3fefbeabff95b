"""Request bodies and wire shapes of monitors: a prospect list kept fresh on a schedule (docs/api.md,
Monitors)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictInt, StrictStr, field_validator
from typing_extensions import TypedDict

from leadwire.platform.validation import Metadata, RequestModel, small_metadata, with_examples

COUNTS = (25, 100, 500, 1000)
MAX_MONITORS_PER_WEBSET = 5
MAX_MONITORS_PER_ACCOUNT = 50
MONITOR_STATUSES = ("active", "paused")


class Cadence(RequestModel):
    """When runs start: a five-field cron expression, read in an IANA time zone; at most hourly."""

    cron: StrictStr = Field(max_length=100, description='five fields, e.g. "0 9 * * 1-5"; at most hourly')
    timezone: StrictStr = Field(default="UTC", max_length=64, description="IANA, e.g. Europe/Berlin")


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in COUNTS:
        raise ValueError("count is one of 25, 100, 500, 1000")
    return value


class MonitorCreate(RequestModel):
    model_config = with_examples(
        {
            "webset_id": "ws_01m8bbjy0y21565xg5kr944hr5",
            "cadence": {"cron": "0 9 * * 1", "timezone": "Europe/Berlin"},
        }
    )
    missing_codes = {"webset_id": "invalid_monitor", "cadence": "invalid_monitor"}
    invalid_codes = {
        "webset_id": "invalid_monitor",
        "cadence": "invalid_monitor_cadence",
        "behavior": "invalid_monitor",
        "count": "invalid_monitor",
        "metadata": "invalid_monitor",
    }

    webset_id: StrictStr = Field(max_length=64)
    cadence: Cadence
    behavior: Literal["search", "refresh"] = Field(
        default="search",
        description=(
            "`search`: each run is a Find More of `count` items, the list's criteria and exclusions; "
            "`refresh`: each run re-verifies the list's items and re-runs its enrichments"
        ),
    )
    count: StrictInt = Field(default=25, json_schema_extra={"enum": list(COUNTS)})
    metadata: Metadata = Field(default_factory=dict)

    _metadata = field_validator("metadata")(small_metadata)
    _count = field_validator("count", mode="before")(_count)


class MonitorUpdate(RequestModel):
    model_config = with_examples(
        {"status": "paused"}, {"cadence": {"cron": "0 8 * * 1-5", "timezone": "Europe/Berlin"}, "count": 100}
    )
    invalid_codes = {
        "cadence": "invalid_monitor_cadence",
        "status": "invalid_monitor",
        "count": "invalid_monitor",
        "metadata": "invalid_monitor",
    }

    cadence: Cadence | None = None
    status: Literal["active", "paused"] | None = None
    count: Annotated[StrictInt, Field(json_schema_extra={"enum": list(COUNTS)})] | None = None
    metadata: Metadata | None = None

    _metadata = field_validator("metadata")(small_metadata)

    @field_validator("count", mode="before")
    @classmethod
    def _count(cls, value: object) -> int | None:
        return None if value is None else _count(value)


class CadenceOut(TypedDict):
    cron: str
    timezone: str


class MonitorOut(TypedDict):
    id: str
    object: Literal["monitor"]
    webset_id: str
    status: str
    pause_reason: Annotated[
        str | None,
        Field(description="`key_revoked` when the key that set it up was revoked or expired; else null"),
    ]
    behavior: str
    cadence: CadenceOut
    count: int
    metadata: dict[str, str]
    next_run_at: str | None
    last_run_at: str | None
    created_at: str
    updated_at: str


class MonitorRunOut(TypedDict):
    """One slot: the job it started (its status and charge are the job's), or `skipped` with the code
    that stopped it (the list was still running, the account's credits or job limit)."""

    id: str
    monitor_id: str
    slot_at: str
    status: str
    job_id: str | None
    skipped_code: str | None
    created_at: str


class RefreshResult(TypedDict):
    """A `websets.refresh` job's result: the items it re-verified (and is charged for), those whose
    match or score changed in its last attempt, and the enrichments it started filling again."""

    webset_id: str
    checked: int
    changed: int
    enrichments_refilled: int
