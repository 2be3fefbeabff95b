"""What each console page shows, read through the services the API uses; a part the key's scopes do not
allow is None (the page says so), never read."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.channels import connected, sending_policy
from leadwire.channels.pause_rules import shown_status
from leadwire.channels.queue import waiting_sends
from leadwire.channels.sent import sent_messages
from leadwire.console import web
from leadwire.platform import jobs as platform_jobs
from leadwire.platform.billing import read_balance
from leadwire.platform.callers import Caller
from leadwire.platform.jobs import STATUSES, PublicJob
from leadwire.platform.pagination import CursorCodec
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import iso, utcnow

QUEUE_ROWS = 20


async def overview(session: AsyncSession, caller: Caller) -> dict[str, Any]:
    return {
        "credits": await _credits(session, caller) if caller.can("credits:read") else None,
        "accounts": await _accounts(session, caller) if caller.can("accounts:read") else None,
        "queue": (
            await waiting_sends(session, caller.user_id, None, after=None, limit=QUEUE_ROWS)
            if caller.can("outreach:read")
            else None
        ),
    }


SENT_PER_PAGE = 50


async def outreach(session: AsyncSession, caller: Caller, before: str | None) -> dict[str, Any]:
    """The connected accounts, the queue and what was sent (needs `outreach:read`; the accounts
    `accounts:read`)."""
    shown = await overview(session, caller)
    sent, next_before = await sent_messages(session, caller.user_id, limit=SENT_PER_PAGE, before=before)
    return {"accounts": shown["accounts"], "queue": shown["queue"], "sent": sent, "next_before": next_before}


async def _credits(session: AsyncSession, caller: Caller) -> dict[str, int]:
    view = await read_balance(session, caller.user_id)
    return {"balance": view.balance, "reserved": view.reserved, "available": view.available}


async def _accounts(session: AsyncSession, caller: Caller) -> list[dict[str, Any]]:
    now, shown = utcnow(), []
    for account in await connected.list_accounts(session, caller.user_id):
        status = shown_status(account, now)
        today = (await sending_policy.policy_view(session, account))["today"]
        shown.append(
            {
                "id": account.id,
                "display_name": account.display_name,
                "channel": account.channel,
                "status": status,
                "resume_at": iso(account.resume_at) if status == "paused" else None,
                "today": f"{today['scheduled']} of {today['allowance']} placed",
            }
        )
    return shown


JOBS_PER_PAGE = 25


async def jobs(
    session: AsyncSession, runtime: Runtime, caller: Caller, *, status: str | None, cursor: str | None
) -> dict[str, Any]:
    """A page of the account's jobs (what `GET /api/v2/jobs` lists), newest first."""
    if status is not None and status not in STATUSES:
        status = None
    codec = CursorCodec.for_instance(runtime.settings.resolved_secret_key)

    async def read(at: str | None) -> tuple[list[PublicJob], str | None]:
        return await platform_jobs.list_jobs(
            session, codec, caller, status=status, limit=JOBS_PER_PAGE, cursor=at
        )

    found, next_cursor = await web.first_page_if_stale(read, cursor)
    return {"jobs": found, "next_cursor": next_cursor, "status": status, "statuses": STATUSES}


async def cancel(session: AsyncSession, runtime: Runtime, caller: Caller, job_id: str) -> None:
    """`POST /api/v2/jobs/{id}/cancel`'s service, with its refusals (`task_not_found`, a missing write
    scope, `job_already_running`)."""
    await platform_jobs.cancel_job(session, runtime.notifier, caller, job_id)
