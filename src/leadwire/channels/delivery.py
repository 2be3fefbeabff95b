"""At-most-once delivery: a record is committed before a message is handed to a provider.

A job that runs again after its worker vanished finds the record: if the earlier attempt finished
sending, its receipt is reused and nothing is sent again; if it was mid-send, the outcome is unknown and
the job fails with `delivery_unknown` rather than risk a second message to the same person.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

from sqlalchemy import ForeignKey, Index, String, select
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, JsonType, UtcDateTime, dialect_insert, transaction
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import JobContext, JobFailure
from leadwire.platform.time import utcnow

SENDING, SENT, NOT_SENT, UNKNOWN = "sending", "sent", "not_sent", "unknown"


class Delivery(Base):
    __tablename__ = "deliveries"
    # An account's sends newest first (ids are time-ordered ULIDs), and the cascade of its deletion.
    __table_args__ = (Index("ix_deliveries_user_id_id", "user_id", "id"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    job_id: Mapped[str] = mapped_column(String(32), unique=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    recipient: Mapped[str] = mapped_column(String(512))
    state: Mapped[str] = mapped_column(String(16))
    receipt: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    error_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


@dataclass(frozen=True)
class Begun:
    """Either go ahead and send (`delivery_id`), or the earlier attempt's receipt (`receipt`)."""

    delivery_id: str
    receipt: dict[str, Any] | None = None


async def begin(ctx: JobContext, *, channel: str, recipient: str) -> Begun:
    """Commit the intent to send before calling the provider (raises `delivery_unknown` on a repeat)."""
    async with transaction(ctx.sessionmaker) as session:
        delivery_id = new_id("dlv")
        created = await session.execute(
            dialect_insert(session)(Delivery)
            .values(
                id=delivery_id,
                job_id=ctx.job_id,
                user_id=ctx.user_id,
                channel=channel,
                recipient=recipient[:512],
                state=SENDING,
                created_at=utcnow(),
            )
            .on_conflict_do_nothing()
            .returning(Delivery.id)
        )
        if created.scalar_one_or_none() is not None:
            return Begun(delivery_id)
        earlier = (await session.execute(select(Delivery).where(Delivery.job_id == ctx.job_id))).scalar_one()
    if earlier.state == SENT and earlier.receipt is not None:
        return Begun(earlier.id, receipt=earlier.receipt)
    if earlier.state == NOT_SENT:
        raise JobFailure(earlier.error_code or "provider_error")
    raise JobFailure("delivery_unknown")


async def finish(ctx: JobContext, delivery_id: str, *, receipt: dict[str, Any]) -> None:
    await _record(ctx, delivery_id, state=SENT, receipt=receipt, error_code=None)


async def fail(ctx: JobContext, delivery_id: str, *, error_code: str, sent_unknown: bool) -> None:
    """The provider refused or could not be reached (`not_sent`), or may have acted (`unknown`)."""
    await _record(
        ctx, delivery_id, state=UNKNOWN if sent_unknown else NOT_SENT, receipt=None, error_code=error_code
    )


async def fail_unforeseen(ctx: JobContext, delivery_id: str) -> NoReturn:
    """An error nobody foresaw once the provider may have acted (a bug, a library's surprise): record
    the outcome as unknown and fail `delivery_unknown`, so no retry can act a second time."""
    await fail(ctx, delivery_id, error_code="provider_error", sent_unknown=True)
    raise JobFailure("delivery_unknown")


async def _record(
    ctx: JobContext, delivery_id: str, *, state: str, receipt: dict[str, Any] | None, error_code: str | None
) -> None:
    async with transaction(ctx.sessionmaker) as session:
        delivery = await session.get(Delivery, delivery_id)
        if delivery is None:
            raise RuntimeError(f"no delivery {delivery_id}")
        delivery.state, delivery.receipt, delivery.error_code = state, receipt, error_code
        delivery.finished_at = utcnow()
