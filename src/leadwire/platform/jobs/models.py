"""The one jobs table behind every asynchronous action (its statuses and moves: `states.py`), the
blobs a job carries, and the workers' presence rows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Float, ForeignKey, Index, Integer, LargeBinary, Row, String, text
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, JsonType, UtcDateTime

DETAIL_LIMIT = 500


class Job(Base):
    __tablename__ = "jobs"
    __table_args__ = (
        # Only pending rows are ever claimed: a partial index keeps the claim cheap however large the
        # history of finished jobs grows.
        Index(
            "ix_jobs_pending_due",
            "scheduled_at",
            "id",
            postgresql_where=text("status IN ('queued', 'scheduled')"),
            sqlite_where=text("status IN ('queued', 'scheduled')"),
        ),
        Index("ix_jobs_user_status", "user_id", "status"),
        Index("ix_jobs_finished_at", "finished_at"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    api_key_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The request that created the job (`req_...`), so the worker's log lines of the job carry it too.
    request_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    action: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    channel: Mapped[str | None] = mapped_column(String(16), nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JsonType)
    # The creation's `metadata`, apart from the payload: a poll reads it without the payload.
    job_metadata: Mapped[Any] = mapped_column(JsonType, nullable=True)
    # Bytes of the job's blobs (`JobBlob`) while it is not over: what an account's queued-bytes cap sums.
    blob_bytes: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    progress_stage: Mapped[str] = mapped_column(String(64))
    progress_percent: Mapped[float] = mapped_column(Float, default=0.0)
    resource_type: Mapped[str | None] = mapped_column(String(32), nullable=True)
    resource_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    scheduled_at: Mapped[datetime] = mapped_column(UtcDateTime())
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    attempt_count: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    error_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The failure's human sentence (`error.detail`), capped at DETAIL_LIMIT characters.
    error_detail: Mapped[str | None] = mapped_column(String(DETAIL_LIMIT), nullable=True)
    billing_status: Mapped[str] = mapped_column(String(16))
    reserved_credits: Mapped[int] = mapped_column(BigInteger, default=0)
    charged_credits: Mapped[int] = mapped_column(BigInteger, default=0)
    pending_units: Mapped[float] = mapped_column(Float, default=0.0)
    # Why a pending job waits past the time it asked for, and until when: `{reason, until}` (a sending
    # policy's cap or window, a paused account); shown on the job while it is pending.
    hold: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class JobBlob(Base):
    """A large binary part of a job's payload (a dispatch's attachment), kept apart from the job row so
    reading the job never reads it, and deleted as soon as the job is over."""

    __tablename__ = "job_blobs"
    __table_args__ = (Index("ix_job_blobs_job_id", "job_id"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    job_id: Mapped[str] = mapped_column(String(32), ForeignKey("jobs.id", ondelete="CASCADE"))
    size: Mapped[int] = mapped_column(BigInteger)
    content: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class WorkerPresence(Base):
    """A worker process that is alive, as far as the database knows: written when it starts and every
    few seconds after (`presence.beat`), deleted when it stops. `/readyz` and `/metrics` read it, since
    an API process cannot see workers on other machines; the supervisor of `leadwire cluster` deletes
    the row of a worker it saw die, with its leases."""

    __tablename__ = "worker_presence"

    owner: Mapped[str] = mapped_column(String(64), primary_key=True)  # the lease owner id of its jobs
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    concurrency: Mapped[int] = mapped_column(Integer)
    running: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(UtcDateTime())
    beat_at: Mapped[datetime] = mapped_column(UtcDateTime())


@dataclass(frozen=True, slots=True)
class NewJob:
    """A job as its creation made it: the row's values, without the ORM's per-object bookkeeping, so a
    batch of creations costs one multi-row INSERT rather than an object graph to flush. Read-only: a
    later change to the job goes through a statement or a loaded `Job`.

    `claim` is the local worker's claim of a job handed off at its creation (`handoff`), written in
    the same INSERT: it is the worker's first move, not the creation's, so the fields keep the job as
    created (`queued`), and that is what every creation answers however soon the worker starts it."""

    id: str
    user_id: str
    api_key_id: str | None
    request_id: str | None
    action: str
    status: str
    channel: str | None
    payload: dict[str, Any]
    progress_stage: str
    progress_percent: float
    resource_type: str | None
    resource_id: str | None
    scheduled_at: datetime
    billing_status: str
    reserved_credits: int
    charged_credits: int
    pending_units: float
    created_at: datetime
    updated_at: datetime
    attempt_count: int = 0
    started_at: datetime | None = None
    finished_at: datetime | None = None
    result: dict[str, Any] | None = None
    error_code: str | None = None
    error_detail: str | None = None
    job_metadata: Any = None
    blob_bytes: int = 0
    hold: dict[str, Any] | None = None
    lease_owner: str | None = None
    lease_expires_at: datetime | None = None
    claim: Mapping[str, Any] | None = None

    def row(self) -> dict[str, Any]:
        """The values to INSERT: the job as created, with the local worker's claim when it has one."""
        return {**{name: getattr(self, name) for name in _NEW_JOB_FIELDS}, **(self.claim or {})}


_NEW_JOB_FIELDS = tuple(f.name for f in fields(NewJob) if f.name != "claim")


# A job as an ORM object, as created (`NewJob`) or as a Core row of the jobs table: the public view
# reads the same attributes of each.
JobLike = Job | NewJob | Row[Any]
