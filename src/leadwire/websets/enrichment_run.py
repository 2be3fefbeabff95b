"""The `websets.enrich` job: fill an enrichment's missing cells, batch by batch, then end (a job for
a list whose run is under way is held until the run ends: `enrichments.start_filling`).

Each batch commits its cells, the list's `items_revision` and a `webset.item.enriched` event per cell
in one transaction, under the enrichment's row lock; a cell another job stored meanwhile is kept, not
stored twice. The job is charged, when it ends, for the non-empty cells it stored (counted from the
table, so an attempt after a killed worker charges what the earlier one found, and nothing twice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.db import transaction
from leadwire.platform.events import append_events
from leadwire.platform.jobs import JobContext
from leadwire.platform.time import utcnow
from leadwire.providers.reasoner import EnrichmentAsk, EnrichmentFormat
from leadwire.websets import cells, data_use, enrichments, states
from leadwire.websets.models import EnrichmentCell, Webset, WebsetEnrichment, WebsetItem

BATCH = 25


@dataclass(frozen=True, slots=True)
class _Look:
    stopped: bool  # cancelled, deleted, or its list gone
    stored: int  # cells this job stored so far (this attempt and any earlier one)
    items: list[WebsetItem]


async def run(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    enrichment_id, webset_id, goal = payload["enrichment_id"], payload["webset_id"], int(payload["goal"])
    async with transaction(ctx.runtime.reader) as session:
        enrichment = await session.get(WebsetEnrichment, enrichment_id)
        ask = _ask(enrichment) if enrichment is not None else None
        webset = await session.get(Webset, webset_id)
        if ask is not None and webset is not None:  # the format's source and the list's own data, now
            data = data_use.of_list(webset.target_kind, webset.seed) | data_use.of_formats([ask.format])
            await data_use.check_run(ctx, session, data)
    while ask is not None:
        async with transaction(ctx.runtime.reader) as session:
            look = await _look(session, ctx.job_id, enrichment_id, webset_id, BATCH)
        room = goal - look.stored
        if look.stopped or room <= 0:
            break
        if not look.items:
            break
        batch = look.items[:room]
        found = await cells.compute(ctx, ask, batch)
        await _commit(ctx, enrichment_id, webset_id, batch, found)
        await ctx.progress("enriching", min(99.0, 100.0 * (look.stored + len(batch)) / max(goal, 1)))
    stored = await _finish(ctx, enrichment_id, webset_id)
    ctx.bill(stored, kind=enrichments.kind_of(payload["format"]))
    return {"enrichment_id": enrichment_id, "webset_id": webset_id, "cells": stored}


def _ask(enrichment: WebsetEnrichment) -> EnrichmentAsk:
    described = cast(EnrichmentFormat, enrichment.format)
    return EnrichmentAsk(enrichment.description, described, tuple(enrichment.options))


async def _look(session: AsyncSession, job_id: str, enrichment_id: str, webset_id: str, limit: int) -> _Look:
    enrichment = await session.get(WebsetEnrichment, enrichment_id)
    webset = await session.get(Webset, webset_id)
    stopped = enrichment is None or webset is None or enrichment.deleted or enrichment.status == "cancelled"
    stored = await _stored(session, job_id, enrichment_id, filled_only=False)
    if stopped:
        return _Look(True, stored, [])
    return _Look(False, stored, await enrichments.missing_items(session, enrichment_id, webset_id, limit))


async def _stored(session: AsyncSession, job_id: str, enrichment_id: str, *, filled_only: bool) -> int:
    statement = select(func.count()).where(
        EnrichmentCell.enrichment_id == enrichment_id, EnrichmentCell.job_id == job_id
    )
    if filled_only:
        statement = statement.where(EnrichmentCell.filled.is_(True))
    return int(await session.scalar(statement) or 0)


async def _commit(
    ctx: JobContext, enrichment_id: str, webset_id: str, batch: list[WebsetItem], found: list[cells.Found]
) -> None:
    async with transaction(ctx.sessionmaker) as session:
        webset = await session.get(Webset, webset_id, with_for_update=True)
        enrichment = await session.get(WebsetEnrichment, enrichment_id, with_for_update=True)
        if webset is None or enrichment is None or enrichment.deleted or enrichment.status == "cancelled":
            return
        present = set(
            (
                await session.execute(
                    select(EnrichmentCell.item_id).where(
                        EnrichmentCell.enrichment_id == enrichment_id,
                        EnrichmentCell.item_id.in_([item.id for item in batch]),
                    )
                )
            ).scalars()
        )
        now = utcnow()
        new = [
            EnrichmentCell(
                enrichment_id=enrichment_id,
                item_id=item.id,
                job_id=ctx.job_id,
                filled=cell.result is not None,
                result=cell.result,
                reasoning=cell.reasoning,
                references=cell.references,
                created_at=now,
            )
            for item, cell in zip(batch, found, strict=True)
            if item.id not in present
        ]
        session.add_all(new)
        if enrichment.status == "pending":
            enrichment.status = "running"
        enrichment.updated_at = now
        if not new:
            return
        webset.items_revision += 1
        states.touch(webset, now)
        events = [
            (
                "webset.item.enriched",
                {
                    "webset_id": webset_id,
                    "item_id": cell.item_id,
                    "items_revision": webset.items_revision,
                    "enrichment": enrichments.cell_view(enrichment, cell),
                },
            )
            for cell in new
        ]
        await append_events(session, ctx.runtime.notifier, states.topic(webset_id), events)


async def _finish(ctx: JobContext, enrichment_id: str, webset_id: str) -> int:
    """The enrichment is complete when this job was its last one; the list's streams that followed it
    get their `complete` when the list's run is over. The number of non-empty cells this job stored."""
    async with transaction(ctx.sessionmaker) as session:
        webset = await session.get(Webset, webset_id, with_for_update=True)
        enrichment = await session.get(WebsetEnrichment, enrichment_id, with_for_update=True)
        if webset is not None and enrichment is not None and enrichment.job_id == ctx.job_id:
            enrichment.job_id = None
            if enrichment.status in ("pending", "running"):
                enrichment.status = "completed"
            enrichment.updated_at = utcnow()
            if webset.status in states.FINISHED:
                run = await states.current_run(session, webset)
                await states.append_complete(
                    session, ctx.runtime.notifier, webset, run.job_id if run else None
                )
        return await _stored(session, ctx.job_id, enrichment_id, filled_only=True)
