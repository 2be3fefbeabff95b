"""Refresh: re-verify a finished list's items against its criteria, as they stand now, and re-run its
enrichments — what a monitor of behavior `refresh` does at each slot.

The `websets.refresh` job takes the released items in list order, a batch at a time: each is looked up
again (its record and pages), judged by the reasoner on every active criterion, and given its new
match and score. A batch commits its items, the list's counts and an `items.changed` event carrying
the items whose match or score changed, in one transaction; each item records the job that refreshed
it, which is the job's checkpoint (a rescued attempt goes on from there) and its charge (a credit-fifth
per item re-verified, counted from the items). When every item is done, each enrichment still wanted
loses its cells and is filled again by a job of its own.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller
from leadwire.platform.db import transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs import Job, JobContext, JobFailure, NewJob, create_job
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.providers.reasoner import Criterion, Reasoner
from leadwire.websets import cells, data_use, discovery, enrichments, scoring, states, views
from leadwire.websets.models import EnrichmentCell, Webset, WebsetItem
from leadwire.websets.owned import account_caller
from leadwire.websets.owned import get_owned as owned_webset

REFRESH = "websets.refresh"
BATCH = 50


async def start(session: AsyncSession, runtime: Runtime, caller: Caller, webset_id: str) -> NewJob:
    """The refresh job of a finished list; 409 `webset_busy` while a run is under way."""
    webset = await owned_webset(session, caller, webset_id, lock=True)
    await data_use.check_webset(session, caller, webset)  # its items read again, its columns refilled
    if webset.status in states.IN_PROGRESS:
        raise ApiError("webset_busy")
    released = await session.scalar(
        select(func.count()).where(WebsetItem.webset_id == webset.id, WebsetItem.released.is_(True))
    )
    return await create_job(
        session,
        runtime.notifier,
        caller,
        action=REFRESH,
        payload={"webset_id": webset.id, "goal": int(released or 0)},
        resource=("webset", webset.id),
        draining=runtime.draining,
    )


async def run(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    webset_id = payload["webset_id"]
    async with transaction(ctx.runtime.reader) as session:
        webset = await session.get(Webset, webset_id)
        if webset is None:
            raise JobFailure("webset_not_found")
        query, criteria = webset.query, [Criterion(**c) for c in webset.criteria]
        await data_use.check_run(ctx, session, data_use.of_list(webset.target_kind, webset.seed))
    reasoner: Reasoner = ctx.adapter("reasoner")
    changed = 0
    while True:
        async with transaction(ctx.runtime.reader) as session:
            batch = await _next_batch(session, webset_id, ctx.job_id)
        if not batch:
            break
        prospects = await cells.prospects_of(ctx.adapter("prospects"), batch)
        verdicts = await reasoner.verify(query, criteria, prospects)
        changed += await _commit(ctx, webset_id, batch, verdicts, criteria)
    async with transaction(ctx.sessionmaker) as session:
        checked = int(
            await session.scalar(
                select(func.count()).where(
                    WebsetItem.webset_id == webset_id, WebsetItem.refreshed_job_id == ctx.job_id
                )
            )
            or 0
        )
        refilled = await _refill_enrichments(session, ctx, webset_id)
    ctx.bill(checked, kind="refreshed_items")
    return {"webset_id": webset_id, "checked": checked, "changed": changed, "enrichments_refilled": refilled}


async def _next_batch(session: AsyncSession, webset_id: str, job_id: str) -> list[WebsetItem]:
    not_yet = or_(WebsetItem.refreshed_job_id.is_(None), WebsetItem.refreshed_job_id != job_id)
    statement = (
        select(WebsetItem)
        .where(WebsetItem.webset_id == webset_id, WebsetItem.released.is_(True), not_yet)
        .order_by(WebsetItem.position)
        .limit(BATCH)
    )
    return list((await session.execute(statement)).scalars())


async def _commit(
    ctx: JobContext, webset_id: str, batch: list[WebsetItem], verdicts: Any, criteria: list[Criterion]
) -> int:
    """The batch's new matches, in one transaction; how many items changed match or score."""
    async with transaction(ctx.sessionmaker) as session:
        webset = await session.get(Webset, webset_id, with_for_update=True)
        if webset is None:
            return 0
        now = utcnow()
        by_id = {c["id"]: c for c in webset.criteria}
        rows = {
            row.id: row
            for row in (
                await session.execute(select(WebsetItem).where(WebsetItem.id.in_([i.id for i in batch])))
            ).scalars()
        }
        changed = []
        for item, verdict_list in zip(batch, verdicts, strict=True):
            row = rows.get(item.id)
            if row is None:
                continue
            status, score = scoring.score_of(criteria, verdict_list)
            row.refreshed_job_id = ctx.job_id
            if (status, score) != (row.match_status, row.score):
                row.match_status, row.score = status, score
                row.evaluations = [scoring.evaluation(v) for v in verdict_list]
                row.updated_at = now
                changed.append(views.item(row, detail="compact", finished=True, criteria_by_id=by_id))
        await session.flush()
        if changed:
            await discovery.refresh_counts(session, webset, webset.run_number)
            webset.items_revision += 1
            states.touch(webset, now)
            await states.append_changed(session, ctx.runtime.notifier, webset, changed, [])
        return len(changed)


async def _refill_enrichments(session: AsyncSession, ctx: JobContext, webset_id: str) -> int:
    """Each enrichment still wanted loses its cells and is filled again (a job of its own, charged per
    cell as any). Done once per refresh job: an enrichment it refilled records it, so a rescued attempt
    (its worker killed after this commit, before the job's success was saved) leaves it."""
    webset = await session.get(Webset, webset_id, with_for_update=True)
    if webset is None:
        return 0
    wanted = [
        e
        for e in await enrichments.active(session, webset_id)
        if e.job_id is None and e.refilled_by != ctx.job_id
    ]
    if not wanted:
        return 0
    job = await session.get(Job, ctx.job_id)
    caller = await account_caller(session, webset.user_id, (job.api_key_id if job else None) or "")
    refilled = 0
    for enrichment in wanted:
        try:
            async with session.begin_nested():  # refused (credits, the plan's job limit): cells kept
                await session.execute(
                    delete(EnrichmentCell).where(EnrichmentCell.enrichment_id == enrichment.id)
                )
                notifier = ctx.runtime.notifier
                await enrichments.start_filling(session, notifier, caller, webset, enrichment, coming=0)
                enrichment.refilled_by = ctx.job_id
                refilled += 1
        except ApiError:
            continue
    return refilled
