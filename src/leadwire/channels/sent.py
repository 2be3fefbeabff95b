"""What an account's connected accounts sent, to whom and when: its delivery records (the at-most-once
log, `delivery.py`), newest first. A message's text is not kept, so it is not shown."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.channels.delivery import Delivery
from leadwire.platform.time import iso

STATES = ("sending", "sent", "not_sent", "unknown")


async def sent_messages(
    session: AsyncSession, user_id: str, *, limit: int, before: str | None = None
) -> tuple[list[dict[str, Any]], str | None]:
    """A page of the account's deliveries, newest first; the id to pass as `before` for the next one."""
    statement = select(Delivery).where(Delivery.user_id == user_id)
    if before is not None:
        statement = statement.where(Delivery.id < before[:64])
    rows = list((await session.execute(statement.order_by(Delivery.id.desc()).limit(limit + 1))).scalars())
    page = rows[:limit]
    shown = [
        {
            "id": row.id,
            "job_id": row.job_id,
            "channel": row.channel,
            "recipient": row.recipient,
            "state": row.state,
            "kind": (row.receipt or {}).get("kind"),
            "provider": (row.receipt or {}).get("provider"),
            "error_code": row.error_code,
            "created_at": iso(row.created_at),
            "finished_at": iso(row.finished_at),
        }
        for row in page
    ]
    return shown, page[-1].id if len(rows) > limit else None
