"""Enrichments on the request side: ask a list a column, read, cancel and delete it, start the job that
fills it (on creation, and again for each Find More), and show its cells on the list's items.

An enrichment covers the list's qualified items: those it has now and those its runs add later. A
`websets.enrich` job fills the cells that are missing, while the list's run goes on, then ends; Find
More starts another one for the items it adds. Each job reserves a cell's price for every item it may
fill and is charged for the cells it found (an empty cell costs nothing).

Every function runs in its caller's transaction and knows nothing of HTTP.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import Job, cancel_job, create_job
from leadwire.platform.notify import Notifier
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import iso, utcnow
from leadwire.websets import data_use, states
from leadwire.websets.enrichment_schemas import (
    MAX_ENRICHMENTS,
    CellOut,
    EnrichmentOut,
    EnrichmentRequest,
)
from leadwire.websets.models import EnrichmentCell, Webset, WebsetEnrichment, WebsetItem
from leadwire.websets.owned import get_owned as owned_webset

ENRICH = states.ENRICH
# A job held for its list's run runs by then even if nothing released it: past any run's time limit.
HELD_AT_MOST = timedelta(hours=2)
QUALIFIED = ("full", "partial")


def kind_of(format: str) -> str:
    """The billing kind of a format's cells (`LEADWIRE_PRICES` names it)."""
    return f"enrichment_{format}"


def qualified_items() -> Any:
    """The items an enrichment covers: released and qualified."""
    return and_(WebsetItem.released.is_(True), WebsetItem.match_status.in_(QUALIFIED))


async def create(
    session: AsyncSession, runtime: Runtime, caller: Caller, body: EnrichmentRequest, *, webset_id: str
) -> WebsetEnrichment:
    """The enrichment and the job that fills it, in one transaction; 409 past `MAX_ENRICHMENTS`."""
    webset = await owned_webset(session, caller, webset_id, lock=True)
    # The new column reads the list's items (and, for an email column, the contacts path).
    await data_use.check_webset(
        session, caller, webset, columns=False, also=data_use.of_formats([body.format])
    )
    held = await session.scalar(
        select(func.count()).where(
            WebsetEnrichment.webset_id == webset.id,
            WebsetEnrichment.deleted.is_(False),
            WebsetEnrichment.seed_fact.is_(None),  # a seed's ready-made columns are not asked for
        )
    )
    if int(held or 0) >= MAX_ENRICHMENTS:
        raise ApiError(
            "enrichment_limit_exceeded", detail=f"a list holds at most {MAX_ENRICHMENTS} enrichments"
        )
    enrichment = add(session, webset.id, body)
    await session.flush()
    await start_filling(
        session, runtime.notifier, caller, webset, enrichment, coming=await coming_items(session, webset)
    )
    return enrichment


async def create_view(
    session: AsyncSession, runtime: Runtime, caller: Caller, body: EnrichmentRequest, *, webset_id: str
) -> EnrichmentOut:
    """`create`, answered as the enrichment's view."""
    enrichment = await create(session, runtime, caller, body, webset_id=webset_id)
    return (await views(session, webset_id, [enrichment]))[0]


def add(session: AsyncSession, webset_id: str, body: EnrichmentRequest) -> WebsetEnrichment:
    now = utcnow()
    enrichment = WebsetEnrichment(
        id=new_id("enr"),
        webset_id=webset_id,
        description=body.description,
        format=body.format,
        options=body.labels,
        metadata_=dict(body.metadata),
        status="pending",
        job_id=None,
        deleted=False,
        created_at=now,
        updated_at=now,
    )
    session.add(enrichment)
    return enrichment


async def coming_items(session: AsyncSession, webset: Webset) -> int:
    """How many more qualified items the list's run in progress may still release (0 when none runs)."""
    if webset.status not in states.IN_PROGRESS:
        return 0
    run = await states.current_run(session, webset)
    return max(0, webset.goal - (run.released if run else 0))


async def start_filling(
    session: AsyncSession,
    notifier: Notifier,
    caller: Caller,
    webset: Webset,
    enrichment: WebsetEnrichment,
    *,
    coming: int,
) -> None:
    """A job for the cells missing now and those of the `coming` items a run will add. While the list's
    run goes on the job is held (`scheduled`) and released when the run ends (`states.finish`): it
    reserves its credits now but takes no worker from the run."""
    missing = await session.scalar(
        select(func.count()).select_from(_missing(enrichment.id, webset.id).subquery())
    )
    goal = int(missing or 0) + coming
    now = utcnow()
    held = webset.status in states.IN_PROGRESS
    job = await create_job(
        session,
        notifier,
        caller,
        action=ENRICH,
        payload={
            "enrichment_id": enrichment.id,
            "webset_id": webset.id,
            "goal": goal,
            "format": enrichment.format,
        },
        resource=("webset", webset.id),
        status="scheduled" if held else "queued",
        scheduled_at=now + HELD_AT_MOST if held else None,
    )
    enrichment.job_id = job.id
    enrichment.status = "pending"
    enrichment.updated_at = now


def _missing(enrichment_id: str, webset_id: str) -> Any:
    """The covered items of the list without a cell of the enrichment, in list order."""
    has_cell = exists().where(
        EnrichmentCell.enrichment_id == enrichment_id, EnrichmentCell.item_id == WebsetItem.id
    )
    return (
        select(WebsetItem.id)
        .where(WebsetItem.webset_id == webset_id, qualified_items(), ~has_cell)
        .order_by(WebsetItem.position)
    )


async def missing_items(
    session: AsyncSession, enrichment_id: str, webset_id: str, limit: int
) -> list[WebsetItem]:
    ids = list((await session.execute(_missing(enrichment_id, webset_id).limit(limit))).scalars())
    if not ids:
        return []
    rows = (await session.execute(select(WebsetItem).where(WebsetItem.id.in_(ids)))).scalars()
    by_id = {row.id: row for row in rows}
    return [by_id[i] for i in ids if i in by_id]


async def for_find_more(
    session: AsyncSession, notifier: Notifier, caller: Caller, webset: Webset, count: int
) -> None:
    """Find More adds items: each enrichment still wanted gets a job for them."""
    for enrichment in await active(session, webset.id):
        await start_filling(session, notifier, caller, webset, enrichment, coming=count)


async def active(session: AsyncSession, webset_id: str) -> list[WebsetEnrichment]:
    """The columns jobs fill (a seed's own are written with its items) that are still wanted."""
    return list(
        (
            await session.execute(
                select(WebsetEnrichment)
                .where(
                    WebsetEnrichment.webset_id == webset_id,
                    WebsetEnrichment.deleted.is_(False),
                    WebsetEnrichment.status != "cancelled",
                    WebsetEnrichment.seed_fact.is_(None),
                )
                .order_by(WebsetEnrichment.created_at, WebsetEnrichment.id)
            )
        ).scalars()
    )


async def get_owned(
    session: AsyncSession, caller: Caller, webset_id: str, enrichment_id: str, *, lock: bool = False
) -> tuple[Webset, WebsetEnrichment]:
    webset = await owned_webset(session, caller, webset_id, lock=lock)
    statement = select(WebsetEnrichment).where(
        WebsetEnrichment.id == enrichment_id[:64],
        WebsetEnrichment.webset_id == webset.id,
        WebsetEnrichment.deleted.is_(False),
    )
    enrichment = (
        await session.execute(statement.with_for_update() if lock else statement)
    ).scalar_one_or_none()
    if enrichment is None:
        raise ApiError("enrichment_not_found")
    return webset, enrichment


async def read(session: AsyncSession, caller: Caller, webset_id: str, enrichment_id: str) -> EnrichmentOut:
    webset, enrichment = await get_owned(session, caller, webset_id, enrichment_id)
    return (await views(session, webset.id, [enrichment]))[0]


async def list_for(session: AsyncSession, caller: Caller, webset_id: str) -> list[EnrichmentOut]:
    """The list's enrichments, oldest first (at most `MAX_ENRICHMENTS`: no paging)."""
    webset = await owned_webset(session, caller, webset_id)
    return await views(session, webset.id, await of_webset(session, webset.id))


async def of_webset(session: AsyncSession, webset_id: str) -> list[WebsetEnrichment]:
    return list(
        (
            await session.execute(
                select(WebsetEnrichment)
                .where(WebsetEnrichment.webset_id == webset_id, WebsetEnrichment.deleted.is_(False))
                .order_by(WebsetEnrichment.created_at, WebsetEnrichment.id)
            )
        ).scalars()
    )


async def cancel(
    session: AsyncSession, notifier: Notifier, caller: Caller, webset_id: str, enrichment_id: str
) -> EnrichmentOut:
    """Stops filling: cells found stay (and are charged); a queued job is cancelled, a running one ends
    at its next batch. Cancelling a finished enrichment changes nothing."""
    webset, enrichment = await get_owned(session, caller, webset_id, enrichment_id, lock=True)
    await _stop(session, notifier, caller, webset, enrichment)
    return (await views(session, webset.id, [enrichment]))[0]


async def delete(
    session: AsyncSession, notifier: Notifier, caller: Caller, webset_id: str, enrichment_id: str
) -> None:
    """Stops it and removes it from the list, its items and exports; what its jobs found is charged."""
    webset, enrichment = await get_owned(session, caller, webset_id, enrichment_id, lock=True)
    await _stop(session, notifier, caller, webset, enrichment)
    enrichment.deleted = True


async def _stop(
    session: AsyncSession, notifier: Notifier, caller: Caller, webset: Webset, enrichment: WebsetEnrichment
) -> None:
    """No more cells: its job, if queued, is cancelled; a running one stores nothing more and ends at its
    next batch. Streams that followed the enrichment past the list's run end."""
    if enrichment.status in ("pending", "running"):
        enrichment.status = "cancelled"
        enrichment.updated_at = utcnow()
    if enrichment.job_id is None:
        return
    job = await session.get(Job, enrichment.job_id)
    enrichment.job_id = None
    if job is not None and job.status in ("queued", "scheduled"):
        await cancel_job(session, notifier, caller, job.id)
    if webset.status in states.FINISHED:
        run = await states.current_run(session, webset)
        await states.append_complete(session, notifier, webset, run.job_id if run else None)


async def follow_ended_job(session: AsyncSession, notifier: Notifier, job: Job) -> None:
    """A queued job cancelled, or one that failed past its attempts: its enrichment is no longer being
    filled (cancelled, so a stream or a reader does not wait for it); create it again to retry."""
    enrichment_id = (job.payload or {}).get("enrichment_id")
    enrichment = await session.get(WebsetEnrichment, enrichment_id or "", with_for_update=True)
    if enrichment is None or enrichment.job_id != job.id:
        return
    enrichment.job_id = None
    if enrichment.status in ("pending", "running"):
        enrichment.status = "cancelled"
    enrichment.updated_at = utcnow()
    webset = await session.get(Webset, enrichment.webset_id, with_for_update=True)
    if webset is not None and webset.status in states.FINISHED:
        run = await states.current_run(session, webset)
        await states.append_complete(session, notifier, webset, run.job_id if run else None)


async def filling(session: AsyncSession, webset_id: str) -> bool:
    """Whether a job is filling one of the list's enrichments (its streams then follow it to its end)."""
    return bool(
        await session.scalar(
            select(
                exists().where(
                    WebsetEnrichment.webset_id == webset_id,
                    WebsetEnrichment.deleted.is_(False),
                    WebsetEnrichment.job_id.is_not(None),
                )
            )
        )
    )


async def views(
    session: AsyncSession, webset_id: str, enrichments: Sequence[WebsetEnrichment]
) -> list[EnrichmentOut]:
    total = int(
        await session.scalar(select(func.count()).where(WebsetItem.webset_id == webset_id, qualified_items()))
        or 0
    )
    done = dict(  # cells of the items covered now (a seed's columns also hold the rejected items')
        (
            await session.execute(
                select(EnrichmentCell.enrichment_id, func.count())
                .join(WebsetItem, WebsetItem.id == EnrichmentCell.item_id)
                .where(
                    EnrichmentCell.enrichment_id.in_([e.id for e in enrichments] or [""]),
                    qualified_items(),
                )
                .group_by(EnrichmentCell.enrichment_id)
            )
        ).all()
    )
    return [view(e, done=int(done.get(e.id, 0)), total=total) for e in enrichments]


def view(enrichment: WebsetEnrichment, *, done: int, total: int) -> EnrichmentOut:
    return {
        "id": enrichment.id,
        "object": "enrichment",
        "webset_id": enrichment.webset_id,
        "status": enrichment.status,
        "description": enrichment.description,
        "format": enrichment.format,
        "options": [{"label": label} for label in enrichment.options]
        if enrichment.format == "options"
        else None,
        "metadata": dict(enrichment.metadata_),
        "progress": {"done": min(done, total), "total": total},
        "job_id": enrichment.job_id,
        "created_at": iso(enrichment.created_at),
        "updated_at": iso(enrichment.updated_at),
    }


async def cells_of(
    session: AsyncSession, webset_id: str, item_ids: Sequence[str]
) -> dict[str, list[CellOut]]:
    """Each item's cells, one per enrichment of the list in its order: `pending` where none was found
    yet, `cancelled` where it never will be."""
    return await cells_for(session, await of_webset(session, webset_id), item_ids)


async def cells_for(
    session: AsyncSession, enrichments: Sequence[WebsetEnrichment], item_ids: Sequence[str]
) -> dict[str, list[CellOut]]:
    if not enrichments or not item_ids:
        return {item_id: [] for item_id in item_ids}
    rows = (
        await session.execute(
            select(EnrichmentCell).where(
                EnrichmentCell.enrichment_id.in_([e.id for e in enrichments]),
                EnrichmentCell.item_id.in_(list(item_ids)),
            )
        )
    ).scalars()
    found = {(c.enrichment_id, c.item_id): c for c in rows}
    return {item_id: [cell_view(e, found.get((e.id, item_id))) for e in enrichments] for item_id in item_ids}


def cell_view(enrichment: WebsetEnrichment, cell: EnrichmentCell | None) -> CellOut:
    if cell is None:
        status = "cancelled" if enrichment.status == "cancelled" else "pending"
        return {
            "enrichment_id": enrichment.id,
            "format": enrichment.format,
            "status": status,
            "result": None,
            "reasoning": None,
            "references": [],
        }
    return {
        "enrichment_id": enrichment.id,
        "format": enrichment.format,
        "status": "completed",
        "result": list(cell.result) if cell.result is not None else None,
        "reasoning": cell.reasoning,
        "references": [{"url": r["url"], "title": r.get("title")} for r in cell.references],
    }
