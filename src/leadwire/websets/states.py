"""A prospect list's state machine in one place: its statuses, the moves between them, and each move
with everything it writes (status and progress stage together, the run, the events its streams get).
The routes' service and the worker's discovery both move a list only through these functions.

    generating_criteria ──▶ searching ⇄ verifying ──▶ completed
            │  (stage: planning)   │                    failed | cancelled
            └──────────────────────┴──▶ failed | cancelled
    completed | failed | cancelled ──Find More──▶ queued ──▶ searching ...

`progress.stage` is the status, except while criteria are written and the strategy is planned
(`planning`). The list's goal is its current run's; the verification cap follows from it
(`Webset.verify_cap`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.events import DomainEvent, append_event, brief_of, constant, emit
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import Job, release_held
from leadwire.platform.notify import Notifier
from leadwire.platform.time import utcnow
from leadwire.websets import views
from leadwire.websets.models import Webset, WebsetEnrichment, WebsetRun, verify_cap_of
from leadwire.websets.schemas import ItemOut

# A list's events are readable under `websets:read`; a webhook whose key lacks it is told which list
# and what happened, not what the list holds (`DomainEvent.brief`).
READ_SCOPE = "websets:read"


ENRICH = "websets.enrich"  # the action of enrichment jobs (`enrichments.py`), released when a run ends
# Statuses of a list whose run is under way; the others are final until a Find More.
IN_PROGRESS = ("generating_criteria", "queued", "searching", "verifying")
FINISHED = views.FINISHED
MOVES: Mapping[str, frozenset[str]] = {
    "generating_criteria": frozenset({"searching", "failed", "cancelled"}),
    "queued": frozenset({"searching", "failed", "cancelled"}),
    "searching": frozenset({"verifying", "completed", "failed", "cancelled"}),
    "verifying": frozenset({"searching", "completed", "failed", "cancelled"}),
    "completed": frozenset({"queued"}),
    "failed": frozenset({"queued"}),
    "cancelled": frozenset({"queued"}),
}


def topic(webset_id: str) -> str:
    """The event-log topic of a list's streams."""
    return f"webset:{webset_id}"


def new_run(webset_id: str, number: int, *, job_id: str | None, now: datetime) -> WebsetRun:
    return WebsetRun(
        id=new_id("run"),
        webset_id=webset_id,
        number=number,
        job_id=job_id,
        status="pending",
        released=0,
        query_index=0,
        rounds=[],
        created_at=now,
    )


def touch(webset: Webset, now: datetime) -> None:
    """The list's progress changed (counts, items, criteria): readers see when."""
    webset.progress_updated_at = webset.updated_at = now


def move(webset: Webset, status: str, now: datetime) -> None:
    """The one place a list's status (and, with it, its progress stage) is written."""
    if status != webset.status and status not in MOVES[webset.status]:
        raise ValueError(f"webset {webset.id}: {webset.status} cannot become {status}")
    webset.status = webset.stage = status
    touch(webset, now)


def planning(webset: Webset, now: datetime) -> None:
    """Criteria written, the strategy being planned: a stage of `generating_criteria`."""
    webset.stage = "planning"
    touch(webset, now)


def start_searching(webset: Webset, now: datetime) -> None:
    """The run starts (or resumes) searching; the list's start time is its first run's."""
    if webset.status in ("generating_criteria", "queued"):
        move(webset, "searching", now)
    webset.started_at = webset.started_at or now


def run_terms(goal: int, seed: dict[str, Any] | None) -> dict[str, Any]:
    """The payload terms a list's job reserves credits for: the goal in items, and for a trade-seeded
    list the customs company rows its run may read (one per candidate it may verify)."""
    terms: dict[str, Any] = {"goal": goal}
    if seed is not None and seed.get("type") == "customs":
        terms["seed_rows"] = verify_cap_of(goal)
    return terms


def queue_find_more(webset: Webset, goal: int, now: datetime) -> None:
    """A finished list starts run `run_number + 1` for `goal` more items: queued, progress reset."""
    move(webset, "queued", now)
    webset.run_number += 1
    webset.goal = goal
    webset.verified = 0
    webset.stop_reason = None
    webset.failure_code = None
    webset.failure_detail = None
    webset.finished_at = None


async def current_run(session: AsyncSession, webset: Webset) -> WebsetRun | None:
    return (
        await session.execute(
            select(WebsetRun).where(WebsetRun.webset_id == webset.id, WebsetRun.number == webset.run_number)
        )
    ).scalar_one_or_none()


async def append_changed(
    session: AsyncSession,
    notifier: Notifier,
    webset: Webset,
    changed: list[ItemOut],
    removed: list[str],
) -> int:
    """The `items.changed` event of the list's streams: its status, progress and changed items."""
    payload = {
        "webset_id": webset.id,
        "items_revision": webset.items_revision,
        "webset_status": webset.status,
        "progress": dict(views.progress(webset)),
        "items": changed,
        "removed": removed,
    }
    return await append_event(session, notifier, topic(webset.id), "items.changed", payload)


async def append_added(
    session: AsyncSession, notifier: Notifier, webset: Webset, added: list[ItemOut]
) -> None:
    """Items released to the list: the streams' `items.changed`, and the `webset.items.added` domain
    event (webhooks) with the new items' ids and the list's progress."""
    await append_changed(session, notifier, webset, added, [])
    if added:
        data = {
            "webset_id": webset.id,
            "item_ids": [item["id"] for item in added],
            "items_revision": webset.items_revision,
            "progress": dict(views.progress(webset)),
        }
        added_event = DomainEvent(
            webset.user_id,
            "webset.items.added",
            constant(data),
            scope=READ_SCOPE,
            brief=brief_of("webset_id", "items_revision"),
        )
        await emit(session, notifier, [added_event])


async def finish(
    session: AsyncSession,
    notifier: Notifier,
    webset: Webset,
    status: str,
    stop_reason: str,
    *,
    job_id: str | None,
    failure: tuple[str, str | None] | None = None,
) -> None:
    """The run ends: the list's status, the run's, and the `complete` event, in one transaction."""
    now = utcnow()
    move(webset, status, now)
    webset.stop_reason = stop_reason
    webset.finished_at = now
    if failure is not None:
        webset.failure_code, webset.failure_detail = failure[0], (failure[1] or None)
    await session.execute(
        update(WebsetRun)
        .where(WebsetRun.webset_id == webset.id, WebsetRun.number == webset.run_number)
        .values(status=status, finished_at=now)
    )
    await append_changed(session, notifier, webset, [], [])
    await append_complete(session, notifier, webset, job_id)
    await _release_enrichments(session, notifier, webset)
    if status in ("completed", "failed"):
        data = {**views.list_item(webset), "job_id": job_id, "run": webset.run_number}
        ended = DomainEvent(
            webset.user_id,
            f"webset.{status}",
            constant(data),
            scope=READ_SCOPE,
            brief=brief_of("id", "status", "job_id", "run"),
        )
        await emit(session, notifier, [ended])


async def _release_enrichments(session: AsyncSession, notifier: Notifier, webset: Webset) -> None:
    """The enrichment jobs held for the run fill its items now."""
    held = (
        await session.execute(
            select(WebsetEnrichment.job_id).where(
                WebsetEnrichment.webset_id == webset.id, WebsetEnrichment.job_id.is_not(None)
            )
        )
    ).scalars()
    await release_held(session, notifier, [j for j in held if j], action=ENRICH)


async def append_complete(
    session: AsyncSession, notifier: Notifier, webset: Webset, job_id: str | None
) -> None:
    """The `complete` event that ends the list's streams: its run's end, or the end of an enrichment
    that went on after it (`job_id` is the run's either way)."""
    complete: dict[str, Any] = {
        "webset_id": webset.id,
        "webset_status": webset.status,
        "items_revision": webset.items_revision,
        "job_id": job_id,
        "run": webset.run_number,
    }
    await append_event(session, notifier, topic(webset.id), "complete", complete)


async def follow_failed_job(session: AsyncSession, notifier: Notifier, job: Job) -> None:
    """A preparation, discovery or Find More job failed without its list being told (a timeout, a worker
    lost past the job's attempts): the list's run ends failed with the job's code, and its streams get
    their `complete`."""
    webset = await session.get(Webset, job.resource_id or "", with_for_update=True)
    if webset is None or webset.status not in IN_PROGRESS:
        return
    run = await current_run(session, webset)
    if job.id not in (webset.preparation_job_id, run.job_id if run else None):
        return  # the job of an earlier run
    failure = (job.error_code or "webset_discovery_failed", job.error_detail)
    await finish(session, notifier, webset, "failed", "failed", job_id=job.id, failure=failure)


async def follow_cancelled_job(session: AsyncSession, notifier: Notifier, job: Job) -> None:
    """A queued preparation, discovery or Find More job was cancelled: its list's run ends cancelled."""
    webset = await session.get(Webset, job.resource_id or "", with_for_update=True)
    if webset is None or webset.status not in IN_PROGRESS:
        return
    await finish(session, notifier, webset, "cancelled", "cancelled", job_id=job.id)
