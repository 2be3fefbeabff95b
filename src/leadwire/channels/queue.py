"""The sends placed through each connected account: one row per v2 dispatch or post like, written with
its job, so an account's queue (`GET /api/v2/outreach/queue`) is one indexed read joined to the jobs
that are still waiting."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, and_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column
from typing_extensions import TypedDict

from leadwire.platform.db import Base, UtcDateTime
from leadwire.platform.jobs import PENDING, Job, JobHold, NewJob
from leadwire.platform.time import iso


class ScheduledSend(Base):
    __tablename__ = "scheduled_sends"
    __table_args__ = (
        Index("ix_scheduled_sends_account", "user_id", "account_id", "job_id"),
        Index("ix_scheduled_sends_connected_account", "account_id"),
    )

    job_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("jobs.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("connect_accounts.id", ondelete="CASCADE"))
    # The window's zone where the policy's window follows the recipient, and where it was told from.
    timezone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    timezone_source: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


async def record_send(
    session: AsyncSession, job: NewJob, account_id: str, timezone: str | None, source: str | None
) -> None:
    session.add(
        ScheduledSend(
            job_id=job.id,
            user_id=job.user_id,
            account_id=account_id,
            timezone=timezone,
            timezone_source=source,
            created_at=job.created_at,
        )
    )
    await session.flush()


class QueuedSend(TypedDict):
    job_id: str
    account_id: str
    action: str
    channel: str
    status: str
    scheduled_at: str
    hold: JobHold | None
    timezone: str | None
    timezone_source: str | None
    created_at: str


async def waiting_sends(
    session: AsyncSession, user_id: str, account_id: str | None, *, after: str | None, limit: int
) -> list[QueuedSend]:
    """The account's (or every account's) sends still waiting, in slot order, `limit` after the job id
    `after` (a cursor into that order: slot, then id). Sends placed through v2 only: v1 follows no
    policy and lists nothing here."""
    query = (
        select(Job.id, Job.action, Job.channel, Job.status, Job.scheduled_at, Job.hold, ScheduledSend)
        .join(ScheduledSend, ScheduledSend.job_id == Job.id)
        .where(ScheduledSend.user_id == user_id, Job.status.in_(PENDING))
    )
    if account_id is not None:
        query = query.where(ScheduledSend.account_id == account_id)
    if after is not None:
        anchor = (await session.execute(select(Job.scheduled_at).where(Job.id == after))).scalar_one_or_none()
        if anchor is not None:
            query = query.where(
                (Job.scheduled_at > anchor) | and_(Job.scheduled_at == anchor, Job.id > after)
            )
    rows = await session.execute(query.order_by(Job.scheduled_at, Job.id).limit(limit))
    return [_queued(row) for row in rows]


def _queued(row: Any) -> QueuedSend:
    send: ScheduledSend = row.ScheduledSend
    return QueuedSend(
        job_id=row.id,
        account_id=send.account_id,
        action=row.action,
        channel=row.channel,
        status=row.status,
        scheduled_at=iso(row.scheduled_at),
        hold=row.hold,
        timezone=send.timezone,
        timezone_source=send.timezone_source,
        created_at=iso(send.created_at),
    )
