"""Prospect-list rules: create a list and its preparation job, read lists, strategy and items with a
consistent stream checkpoint, start Find More, and follow a cancelled job.

Every function runs in its caller's transaction and knows nothing of HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.events import Event, append_event
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import Job, NewJob, create_job
from leadwire.platform.notify import Notifier
from leadwire.platform.pagination import CursorCodec, binding
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.websets import views
from leadwire.websets.models import Webset, WebsetItem, WebsetRun
from leadwire.websets.schemas import CreateWebsetRequest, FindMoreRequest, ItemOut

PREPARE = "websets.prepare"
DISCOVER = "websets.discover"
FIND_MORE = "websets.find_more"
# Counts each plan may ask for (DESIGN section 8).
PLAN_COUNTS = {"free": (25,), "pro": (25, 100, 500), "business": (25, 100, 500, 1000)}
RUNNING = ("generating_criteria", "queued", "searching", "verifying")
MATCH_FILTERS = {
    "qualified": ("full", "partial"),
    "full": ("full",),
    "partial": ("partial",),
    "rejected": ("rejected",),
    "verified": ("full", "partial", "rejected"),
}


def topic(webset_id: str) -> str:
    return f"webset:{webset_id}"


def cursor_codec(runtime: Runtime) -> CursorCodec:
    """The signed-cursor codec of list and item pages (REST and MCP alike)."""
    return CursorCodec("cursor:" + runtime.settings.resolved_secret_key)


def verify_cap(goal: int) -> int:
    """How many candidates one run may verify: enough to find the goal when a quarter qualify."""
    return min(max(goal * 4, 100), 4000)


def _check_count(caller: Caller, count: int) -> None:
    if count not in PLAN_COUNTS.get(caller.plan.name, PLAN_COUNTS["business"]):
        raise ApiError("webset_count_not_available_for_tier", param="count")


async def create(
    session: AsyncSession, runtime: Runtime, caller: Caller, body: CreateWebsetRequest
) -> tuple[Webset, NewJob]:
    """The list (generating_criteria), its first run and its preparation job, in one transaction."""
    _check_count(caller, body.count)
    now = utcnow()
    webset_id = new_id("ws")
    job = await create_job(
        session,
        runtime.notifier,
        caller,
        action=PREPARE,
        payload={"webset_id": webset_id, "goal": body.count},
        resource=("webset", webset_id),
        draining=runtime.draining,
    )
    webset = Webset(
        id=webset_id,
        user_id=caller.user_id,
        name=(body.title or body.query.strip())[:200],
        query=body.query,
        target_kind=body.target_kind,
        locale=body.locale,
        count=body.count,
        status="generating_criteria",
        criteria=[],
        preparation_job_id=job.id,
        run_number=1,
        items_revision=0,
        stage="generating_criteria",
        goal=body.count,
        verify_cap=verify_cap(body.count),
        verified=0,
        qualified=0,
        full=0,
        progress_updated_at=now,
        created_at=now,
        updated_at=now,
    )
    session.add(webset)
    await session.flush()
    session.add(_run(webset_id, 1, body.count, job_id=None, now=now))
    await session.flush()
    return webset, job


def _run(webset_id: str, number: int, goal: int, *, job_id: str | None, now: Any) -> WebsetRun:
    return WebsetRun(
        id=new_id("run"),
        webset_id=webset_id,
        number=number,
        job_id=job_id,
        goal=goal,
        status="pending",
        released=0,
        query_index=0,
        rounds=[],
        created_at=now,
    )


async def get_owned(session: AsyncSession, caller: Caller, webset_id: str, *, lock: bool = False) -> Webset:
    """The caller's webset, or 404 `webset_not_found` (also for another user's)."""
    if len(webset_id) > 64:
        raise ApiError("webset_not_found")
    statement = select(Webset).where(Webset.id == webset_id, Webset.user_id == caller.user_id)
    if lock:
        statement = statement.with_for_update()
    webset = (await session.execute(statement)).scalar_one_or_none()
    if webset is None:
        raise ApiError("webset_not_found")
    return webset


async def current_run(session: AsyncSession, webset: Webset) -> WebsetRun | None:
    return (
        await session.execute(
            select(WebsetRun).where(WebsetRun.webset_id == webset.id, WebsetRun.number == webset.run_number)
        )
    ).scalar_one_or_none()


async def reconcile(session: AsyncSession, webset: Webset) -> Webset:
    """A run whose job ended without finishing the list (a worker lost for good: attempts exhausted)
    shows as failed with the job's code; the next write makes it so."""
    if webset.status not in RUNNING:
        return webset
    run = await current_run(session, webset)
    job_id = run.job_id if run and run.job_id else webset.preparation_job_id
    job = await session.get(Job, job_id)
    if job is not None and job.status in ("failed", "cancelled"):
        webset.status = job.status
        webset.stage = job.status
        webset.failure_code = job.error_code if job.status == "failed" else None
    return webset


async def detail(session: AsyncSession, caller: Caller, webset_id: str) -> dict[str, Any]:
    webset = await reconcile(session, await get_owned(session, caller, webset_id))
    run = await current_run(session, webset)
    return dict(views.webset_detail(webset, run.job_id if run else None))


async def list_websets(
    session: AsyncSession,
    codec: CursorCodec,
    caller: Caller,
    *,
    limit: int,
    target_kind: str | None,
    cursor: str | None,
) -> tuple[list[dict[str, Any]], str | None]:
    """Newest first; `next_cursor` resumes after the last one shown (bound to the same filter)."""
    bound = binding(kind="websets", target_kind=target_kind)
    statement = select(Webset).where(Webset.user_id == caller.user_id)
    if target_kind is not None:
        statement = statement.where(Webset.target_kind == target_kind)
    if cursor is not None:
        after = codec.decode(cursor, bound_to=bound)
        statement = statement.where(Webset.id < str(after.get("id", "")))
    rows = list((await session.execute(statement.order_by(Webset.id.desc()).limit(limit + 1))).scalars())
    more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = codec.encode({"id": rows[-1].id}, bound_to=bound) if more else None
    return [dict(views.list_item(await reconcile(session, w))) for w in rows], next_cursor


async def strategy(session: AsyncSession, caller: Caller, webset_id: str) -> dict[str, Any]:
    webset = await reconcile(session, await get_owned(session, caller, webset_id))
    return dict(views.strategy(webset))


@dataclass(frozen=True)
class ItemsSnapshot:
    items: list[ItemOut]
    next_cursor: str | None
    webset_status: str
    items_revision: int
    stream_cursor: int


async def checkpoint(session: AsyncSession, webset_id: str) -> tuple[int, int]:
    """(stream_cursor, items_revision) read in one statement, so both describe the same moment even
    under READ COMMITTED; items read after it may be newer, which the stream's replay overlaps."""
    latest = select(func.coalesce(func.max(Event.seq), 0)).where(Event.topic == topic(webset_id))
    row = (
        await session.execute(
            select(latest.scalar_subquery(), Webset.items_revision).where(Webset.id == webset_id)
        )
    ).one()
    return int(row[0]), int(row[1])


async def items(
    session: AsyncSession,
    codec: CursorCodec,
    caller: Caller,
    webset_id: str,
    *,
    match: str,
    detail: str,
    limit: int,
    cursor: str | None,
) -> ItemsSnapshot:
    webset = await reconcile(session, await get_owned(session, caller, webset_id))
    stream_cursor, revision = await checkpoint(session, webset.id)
    bound = binding(kind="items", webset=webset.id, match=match)
    statement = select(WebsetItem).where(
        WebsetItem.webset_id == webset.id,
        WebsetItem.match_status.in_(MATCH_FILTERS[match]),
        WebsetItem.released.is_(True),
    )
    if cursor is not None:
        after = codec.decode(cursor, bound_to=bound)
        statement = statement.where(WebsetItem.position > int(after.get("position", 0)))
    rows = list((await session.execute(statement.order_by(WebsetItem.position).limit(limit + 1))).scalars())
    more = len(rows) > limit
    rows = rows[:limit]
    finished = webset.status in views.FINISHED
    by_id = {c["id"]: c for c in webset.criteria}
    return ItemsSnapshot(
        items=[views.item(r, detail=detail, finished=finished, criteria_by_id=by_id) for r in rows],
        next_cursor=codec.encode({"position": rows[-1].position}, bound_to=bound) if more else None,
        webset_status=webset.status,
        items_revision=revision,
        stream_cursor=stream_cursor,
    )


async def find_more(
    session: AsyncSession, runtime: Runtime, caller: Caller, webset_id: str, body: FindMoreRequest
) -> NewJob:
    """A new run excluding everything found: 409 `webset_busy` while one is active."""
    webset = await reconcile(session, await get_owned(session, caller, webset_id, lock=True))
    if webset.status in RUNNING:
        raise ApiError("webset_busy")
    if webset.strategy is None:  # the creation never got as far as a plan: nothing to continue
        raise ApiError("webset_busy", detail="the list has no strategy to continue from")
    _check_count(caller, body.count)
    number = webset.run_number + 1
    job = await create_job(
        session,
        runtime.notifier,
        caller,
        action=FIND_MORE,
        payload={"webset_id": webset.id, "run": number, "goal": body.count},
        resource=("webset", webset.id),
        draining=runtime.draining,
    )
    now = utcnow()
    session.add(_run(webset.id, number, body.count, job_id=job.id, now=now))
    webset.run_number = number
    webset.status = "queued"
    _reset_progress(webset, body.count, now)
    await session.flush()
    await append_changed(session, runtime.notifier, webset, [], [])
    return job


def _reset_progress(webset: Webset, goal: int, now: Any) -> None:
    webset.stage = "queued"
    webset.goal = goal
    webset.verify_cap = verify_cap(goal)
    webset.verified = 0
    webset.stop_reason = None
    webset.failure_code = None
    webset.failure_detail = None
    webset.finished_at = None
    webset.progress_updated_at = now
    webset.updated_at = now


async def append_changed(
    session: AsyncSession,
    notifier: Notifier,
    webset: Webset,
    changed: list[ItemOut],
    removed: list[str],
) -> int:
    payload = {
        "webset_id": webset.id,
        "items_revision": webset.items_revision,
        "webset_status": webset.status,
        "progress": dict(views.progress(webset)),
        "items": changed,
        "removed": removed,
    }
    return await append_event(session, notifier, topic(webset.id), "items.changed", payload)


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
    webset.status = status
    webset.stage = status
    webset.stop_reason = stop_reason
    webset.finished_at = now
    webset.progress_updated_at = now
    webset.updated_at = now
    if failure is not None:
        webset.failure_code, webset.failure_detail = failure[0], (failure[1] or None)
    await session.execute(
        update(WebsetRun)
        .where(WebsetRun.webset_id == webset.id, WebsetRun.number == webset.run_number)
        .values(status=status, finished_at=now)
    )
    await append_changed(session, notifier, webset, [], [])
    await append_event(
        session,
        notifier,
        topic(webset.id),
        "complete",
        {
            "webset_id": webset.id,
            "webset_status": status,
            "items_revision": webset.items_revision,
            "job_id": job_id,
            "run": webset.run_number,
        },
    )


async def follow_failed_job(session: AsyncSession, notifier: Notifier, job: Job) -> None:
    """A preparation, discovery or Find More job failed without its list being told (a timeout, a worker
    lost past the job's attempts): the list's run ends failed with the job's code, and its streams get
    their `complete`."""
    webset = await session.get(Webset, job.resource_id or "", with_for_update=True)
    if webset is None or webset.status not in RUNNING:
        return
    run = await current_run(session, webset)
    if job.id not in (webset.preparation_job_id, run.job_id if run else None):
        return  # the job of an earlier run
    failure = (job.error_code or "webset_discovery_failed", job.error_detail)
    await finish(session, notifier, webset, "failed", "failed", job_id=job.id, failure=failure)


async def follow_cancelled_job(session: AsyncSession, notifier: Notifier, job: Job) -> None:
    """A queued preparation, discovery or Find More job was cancelled: its list's run ends cancelled."""
    webset = await session.get(Webset, job.resource_id or "", with_for_update=True)
    if webset is None or webset.status not in RUNNING:
        return
    await finish(session, notifier, webset, "cancelled", "cancelled", job_id=job.id)
