"""Prospect-list rules on the request side: create a list and its preparation job, read lists, strategy
and items with a consistent stream checkpoint, and start Find More. A list's moves are `states.py`'s.

Every function runs in its caller's transaction and knows nothing of HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.events import head_seq
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import NewJob, create_job
from leadwire.platform.pagination import CursorCodec, binding, newest_first
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.providers.data_rights import check as check_data
from leadwire.websets import data_use, enrichments, exclusions, imports, states, trade_seed, views
from leadwire.websets.models import Webset, WebsetItem
from leadwire.websets.owned import get_owned
from leadwire.websets.schemas import CreateWebsetRequest, FindMoreRequest, ItemOut

PREPARE = "websets.prepare"
DISCOVER = "websets.discover"
FIND_MORE = "websets.find_more"
# Counts each plan may ask for (docs/api.md, Scopes and plans).
PLAN_COUNTS = {"free": (25,), "pro": (25, 100, 500), "business": (25, 100, 500, 1000)}
MATCH_FILTERS = {
    "qualified": ("full", "partial"),
    "full": ("full",),
    "partial": ("partial",),
    "rejected": ("rejected",),
    "verified": ("full", "partial", "rejected"),
}
# Items read back by id at once: an `items.changed` event carries one release batch, well under this.
MAX_ITEMS_BY_ID = 200


def cursor_codec(runtime: Runtime) -> CursorCodec:
    """The signed-cursor codec of list and item pages (REST and MCP alike)."""
    return CursorCodec.for_instance(runtime.settings.resolved_secret_key)


def check_count(caller: Caller, count: int) -> None:
    if count not in PLAN_COUNTS.get(caller.plan.name, PLAN_COUNTS["business"]):
        raise ApiError("webset_count_not_available_for_tier", param="count")


async def create(
    session: AsyncSession, runtime: Runtime, caller: Caller, body: CreateWebsetRequest
) -> tuple[Webset, NewJob]:
    """The list (generating_criteria), its first run and its preparation job, in one transaction."""
    check_count(caller, body.count)
    if body.seed is not None and body.seed.type == "customs" and body.target_kind != "company":
        # The records name companies: a person list would pay a company row per person it finds.
        raise ApiError(
            "webset_seed_invalid",
            param="seed",
            detail='a customs seed finds companies: use target_kind "company", then find their people '
            "with the contacts research",
        )
    seed = body.seed.stored() if body.seed is not None else None
    columns = data_use.of_formats(asked.format for asked in body.enrichments)
    check_data(caller, data_use.of_list(body.target_kind, seed) | columns)
    if body.seed is not None and body.seed.type == "import":
        assert body.seed.id is not None
        await imports.get_owned(session, caller, body.seed.id, code="webset_seed_not_found", param="seed.id")
    excluded = await exclusions.merged_sources(session, caller, body.exclude)
    now = utcnow()
    webset_id = new_id("ws")
    job = await create_job(
        session,
        runtime.notifier,
        caller,
        action=PREPARE,
        payload={"webset_id": webset_id, **states.run_terms(body.count, seed)},
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
        exclude=excluded,
        seed=seed,
        run_number=1,
        items_revision=0,
        stage="generating_criteria",
        goal=body.count,
        verified=0,
        qualified=0,
        full=0,
        progress_updated_at=now,
        created_at=now,
        updated_at=now,
    )
    session.add(webset)
    await session.flush()
    session.add(states.new_run(webset_id, 1, job_id=None, now=now))
    if seed is not None and seed["type"] == "customs":
        trade_seed.add_columns(session, webset_id, seed)
    for asked in body.enrichments:
        enrichment = enrichments.add(session, webset_id, asked)
        await session.flush()
        await enrichments.start_filling(
            session, runtime.notifier, caller, webset, enrichment, coming=body.count
        )
    await session.flush()
    return webset, job


async def get_readable(
    session: AsyncSession, caller: Caller, webset_id: str, *, columns: bool = True
) -> Webset:
    """The caller's list whose items the caller may read: 403 when they are made of data the plan or
    the key does not read (`data_use`); with `columns`, the data of its enrichments' cells too."""
    webset = await get_owned(session, caller, webset_id)
    await data_use.check_webset(session, caller, webset, columns=columns)
    return webset


async def detail(session: AsyncSession, caller: Caller, webset_id: str) -> dict[str, Any]:
    webset = await get_owned(session, caller, webset_id)
    run = await states.current_run(session, webset)
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
    rows, next_cursor = await newest_first(
        session, codec, statement, Webset.id, limit=limit, cursor=cursor, bound_to=bound
    )
    return [dict(views.list_item(w)) for w in rows], next_cursor


async def strategy(session: AsyncSession, caller: Caller, webset_id: str) -> dict[str, Any]:
    webset = await get_owned(session, caller, webset_id)
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
    row = (
        await session.execute(
            select(head_seq(states.topic(webset_id)), Webset.items_revision).where(Webset.id == webset_id)
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
    webset = await get_readable(session, caller, webset_id, columns=detail != "compact")
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
    return ItemsSnapshot(
        items=await _shown(session, webset, rows, detail),
        next_cursor=codec.encode({"position": rows[-1].position}, bound_to=bound) if more else None,
        webset_status=webset.status,
        items_revision=revision,
        stream_cursor=stream_cursor,
    )


async def items_by_id(
    session: AsyncSession, caller: Caller, webset_id: str, item_ids: list[str], *, match: str, detail: str
) -> list[ItemOut]:
    """The released items among `item_ids` that `match` selects, in list order (what a follower of the
    stream reads again at a fuller detail than the event carries)."""
    webset = await get_readable(session, caller, webset_id, columns=detail != "compact")
    if not item_ids:
        return []
    statement = select(WebsetItem).where(
        WebsetItem.webset_id == webset.id,
        WebsetItem.id.in_(item_ids[:MAX_ITEMS_BY_ID]),
        WebsetItem.match_status.in_(MATCH_FILTERS[match]),
        WebsetItem.released.is_(True),
    )
    rows = list((await session.execute(statement.order_by(WebsetItem.position))).scalars())
    return await _shown(session, webset, rows, detail)


async def _shown(session: AsyncSession, webset: Webset, rows: list[WebsetItem], detail: str) -> list[ItemOut]:
    finished = webset.status in states.FINISHED
    by_id = {c["id"]: c for c in webset.criteria}
    shown = [views.item(r, detail=detail, finished=finished, criteria_by_id=by_id) for r in rows]
    if detail != "compact":
        cells = await enrichments.cells_of(session, webset.id, [r.id for r in rows])
        for item in shown:
            item["enrichments"] = cells[item["id"]]
    return shown


async def find_more(
    session: AsyncSession, runtime: Runtime, caller: Caller, body: FindMoreRequest, *, webset_id: str
) -> NewJob:
    """A new run excluding everything found: 409 `webset_busy` while one is active."""
    webset = await get_owned(session, caller, webset_id, lock=True)
    await data_use.check_webset(session, caller, webset)  # the run and its columns' new cells
    if webset.status in states.IN_PROGRESS:
        raise ApiError("webset_busy")
    if webset.strategy is None:  # the creation never got as far as a plan: nothing to continue
        raise ApiError("webset_busy", detail="the list has no strategy to continue from")
    check_count(caller, body.count)
    excluded = await exclusions.merged_sources(session, caller, body.exclude, webset.exclude)
    number = webset.run_number + 1
    job = await create_job(
        session,
        runtime.notifier,
        caller,
        action=FIND_MORE,
        payload={"webset_id": webset.id, "run": number, **states.run_terms(body.count, webset.seed)},
        resource=("webset", webset.id),
        draining=runtime.draining,
    )
    now = utcnow()
    webset.exclude = excluded
    states.queue_find_more(webset, body.count, now)
    session.add(states.new_run(webset.id, number, job_id=job.id, now=now))
    await session.flush()
    await enrichments.for_find_more(session, runtime.notifier, caller, webset, body.count)
    await states.append_changed(session, runtime.notifier, webset, [], [])
    return job
