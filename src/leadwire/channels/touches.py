"""One touch per person across channels: each v2 dispatch records who it reaches (every identifier the
dispatch gave of the person: address, phone, LinkedIn profile) and when it is planned to go, so a
dispatch on another channel to the same person within the sending account's
`person_touch_interval_hours` waits (`hold.reason: person_touched`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, UtcDateTime, insert_rows
from leadwire.platform.jobs import Job

# Failures that mean nothing reached the person (a provider's refusal before sending): no touch.
UNSENT_FAILURES = (
    "provider_rate_limited",
    "provider_rejected",
    "provider_unavailable",
    "recipient_not_found",
    "recipient_opted_out",
    "recipient_blocked",
    "account_disconnected",
    "whatsapp_reengagement_required",
    "invitation_note_too_long",
    "invitation_attachment_unsupported",
)
_KEY_FIELDS = (("address", "email"), ("phone", "phone"), ("profile_url", "linkedin"))


class PersonTouch(Base):
    __tablename__ = "person_touches"
    __table_args__ = (Index("ix_person_touches_person", "user_id", "person_key", "touched_at"),)

    job_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("jobs.id", ondelete="CASCADE"), primary_key=True
    )
    person_key: Mapped[str] = mapped_column(String(340), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    touched_at: Mapped[datetime] = mapped_column(UtcDateTime())


def person_keys(recipient: dict[str, Any] | None) -> list[str]:
    """`email:<address>`, `phone:<e164>`, `linkedin:<profile url>` for the identifiers given (already
    normalised by the dispatch's rules)."""
    recipient = recipient or {}
    return [f"{kind}:{recipient[field]}"[:340] for field, kind in _KEY_FIELDS if recipient.get(field)]


async def last_touch_elsewhere(
    session: AsyncSession,
    user_id: str,
    keys: list[str],
    channel: str,
    since: datetime,
    *,
    before_job: str | None = None,
) -> datetime | None:
    """The latest touch of the person on another channel at or after `since` (planned ones included; a
    cancelled job touched nobody, nor did one that failed before sending). `before_job`: only touches of
    jobs created before it (job ids sort by creation time)."""
    if not keys:
        return None
    query = (
        select(func.max(PersonTouch.touched_at))
        .join(Job, Job.id == PersonTouch.job_id)
        .where(
            PersonTouch.user_id == user_id,
            PersonTouch.person_key.in_(keys),
            PersonTouch.channel != channel,
            PersonTouch.touched_at >= since,
            Job.status != "cancelled",
            or_(Job.status != "failed", Job.error_code.not_in(UNSENT_FAILURES)),
        )
    )
    if before_job is not None:
        query = query.where(PersonTouch.job_id < before_job)
    latest: datetime | None = await session.scalar(query)
    return latest


async def record(
    session: AsyncSession, *, user_id: str, job_id: str, channel: str, keys: list[str], at: datetime
) -> None:
    rows = [
        {"job_id": job_id, "person_key": key, "user_id": user_id, "channel": channel, "touched_at": at}
        for key in dict.fromkeys(keys)
    ]
    await insert_rows(session, PersonTouch.__table__, rows)  # type: ignore[arg-type]


async def move(session: AsyncSession, job_id: str, at: datetime) -> None:
    """The job's touch goes when the job now goes."""
    await session.execute(update(PersonTouch).where(PersonTouch.job_id == job_id).values(touched_at=at))
