"""Discovery: what the preparation job and each run's job do, step by step.

Preparation writes the criteria, plans the strategy and hands over to the run's job. A run asks the
prospects port one planned query at a time for companies not yet in the list, verifies them against
every criterion, and commits each batch — items, counters, the run's checkpoint and an `items.changed`
event — in one transaction. A run whose worker died resumes from that checkpoint: everything already
verified is an item, and items are excluded from every later search, so nothing is found twice.
A run releases only items that qualify (partial or better): when the planned queries have no such
candidate left it stops `exhausted` with fewer items than asked, and charges for those it released.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.db import is_transient, transaction
from leadwire.platform.events import append_event
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import JobContext, JobFailure, hand_over
from leadwire.platform.time import iso, utcnow
from leadwire.providers.prospects import ProspectQuery, ProspectSource
from leadwire.providers.reasoner import Criterion, PlannedQuery, Prospect, Reasoner, Verdict
from leadwire.providers.search import SearchProviderError
from leadwire.providers.trade import TradeStoreError
from leadwire.search.understand import understand
from leadwire.websets import data_use, exclusions, people, seeding, service, states, trade_seed, views
from leadwire.websets.models import Webset, WebsetItem
from leadwire.websets.scoring import evaluation, score_of
from leadwire.websets.trade_seed import TradeFacts

FIRST_BATCH = 30  # small, so the first items arrive within seconds
MAX_BATCH = 200
RUN_SECONDS = 480.0  # a run stops (stop_reason time_limit) well before its job's timeout


async def prepare(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    reasoner: Reasoner = ctx.adapter("reasoner")
    webset_id = payload["webset_id"]
    async with transaction(ctx.sessionmaker) as session:
        webset = await _webset(session, webset_id)
        if webset.status != "generating_criteria":  # a rescued job whose work was done, or cancelled
            run = await states.current_run(session, webset)
            return _prepared(webset, run.job_id if run else None)
        webset.started_at = webset.started_at or utcnow()
        query, kind, locale = webset.query, webset.target_kind, webset.locale
    try:
        drafts = await reasoner.write_criteria(query, kind, locale)  # type: ignore[arg-type]
        criteria = [Criterion(new_id("crit"), d.description, d.type, d.weight, d.required) for d in drafts]
        async with transaction(ctx.sessionmaker) as session:
            webset = await _webset(session, webset_id, lock=True)
            now = utcnow()
            webset.criteria = [_criterion_dict(c) for c in criteria]
            webset.criteria_updated_at = now
            states.planning(webset, now)
            await states.append_changed(session, ctx.runtime.notifier, webset, [], [])
        await ctx.progress("planning", 40.0)
        plan = await reasoner.plan_strategy(query, kind, locale, criteria)  # type: ignore[arg-type]
    except Exception as exc:
        if is_transient(exc):
            raise  # the database failed the step, not the request: the job runs again
        await _fail(ctx, webset_id, "webset_preparation_failed", str(exc)[:300])
        raise JobFailure("webset_preparation_failed", "criteria or strategy could not be written") from exc
    async with transaction(ctx.sessionmaker) as session:
        webset = await _webset(session, webset_id, lock=True)
        if webset.status != "generating_criteria":
            return _prepared(webset, None)
        now = utcnow()
        webset.strategy = {
            "query_groups": [
                {"angle": g.angle, "rationale": g.rationale, "queries": [_query_dict(q) for q in g.queries]}
                for g in plan.query_groups
            ],
            "additional_queries": [_query_dict(q) for q in plan.additional_queries],
            "rounds": [],
        }
        webset.strategy_available_at = webset.strategy_updated_at = now
        states.start_searching(webset, now)
        child = await hand_over(
            session,
            ctx.runtime.notifier,
            ctx.job_id,
            action=service.DISCOVER,
            payload={"webset_id": webset_id, "run": 1, **states.run_terms(webset.goal, webset.seed)},
            resource=("webset", webset_id),
        )
        run = await states.current_run(session, webset)
        assert run is not None
        run.job_id = child.id
        await append_event(
            session,
            ctx.runtime.notifier,
            states.topic(webset_id),
            "webset.strategy",
            {**views.strategy(webset), "items_revision": webset.items_revision},
        )
        return _prepared(webset, child.id)


def _prepared(webset: Webset, job_id: str | None) -> dict[str, Any]:
    return {"webset_id": webset.id, "webset_status": webset.status, "discovery_job_id": job_id}


def _criterion_dict(c: Criterion) -> dict[str, Any]:
    return {
        "id": c.id,
        "description": c.description,
        "type": c.type,
        "weight": c.weight,
        "required": c.required,
        "active": c.active,
    }


def _query_dict(q: PlannedQuery) -> dict[str, str]:
    return {"text": q.text, "user_location": q.user_location}


async def _webset(session: AsyncSession, webset_id: str, *, lock: bool = False) -> Webset:
    webset = await session.get(Webset, webset_id, with_for_update=lock)
    if webset is None:
        raise JobFailure("webset_not_found")
    return webset


async def _fail(ctx: JobContext, webset_id: str, code: str, detail: str | None) -> None:
    async with transaction(ctx.sessionmaker) as session:
        webset = await _webset(session, webset_id, lock=True)
        if webset.status in states.IN_PROGRESS:
            await states.finish(
                session,
                ctx.runtime.notifier,
                webset,
                "failed",
                "failed",
                job_id=ctx.job_id,
                failure=(code, detail),
            )


# -- a run -------------------------------------------------------------------------------------

# The endings whose released items are charged (a failed run raises, and charges nothing).
BILLED_ENDINGS = frozenset({"completed", "cancelled"})


async def run(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    webset_id, number = payload["webset_id"], int(payload["run"])
    try:
        await _may_read(ctx, webset_id)
        return await _run(ctx, webset_id, number)
    except JobFailure:
        raise
    except (SearchProviderError, TradeStoreError) as exc:
        await _fail(ctx, webset_id, exc.code, exc.detail)
        raise JobFailure(exc.code, exc.detail) from exc
    except Exception as exc:
        if not is_transient(exc):  # a database that failed the run: the job runs again and resumes
            await _fail(ctx, webset_id, "webset_discovery_failed", type(exc).__name__)
        raise


async def _may_read(ctx: JobContext, webset_id: str) -> None:
    """A run reads what its list is made of with the plan and the key as they are now (a monitor's
    slot, a Find More queued before a downgrade): refused, the list fails with the refusal's code."""
    async with transaction(ctx.runtime.reader) as session:
        webset = await _webset(session, webset_id)
        if webset.status not in states.IN_PROGRESS:
            return
        try:
            await data_use.check_run(ctx, session, data_use.of_list(webset.target_kind, webset.seed))
        except JobFailure as refused:
            failure = refused
        else:
            return
    await _fail(ctx, webset_id, failure.code, failure.detail)
    raise failure


async def _run(ctx: JobContext, webset_id: str, number: int) -> dict[str, Any]:
    started = time.monotonic()
    async with transaction(ctx.sessionmaker) as session:
        webset = await _webset(session, webset_id, lock=True)
        run_row = await states.current_run(session, webset)
        if run_row is None or run_row.number != number or webset.status in states.FINISHED:
            if run_row is not None and run_row.number == number and run_row.status in BILLED_ENDINGS:
                # An attempt that died after finishing the run but before its job's success (and
                # charge) was saved: this attempt charges what the run released.
                seeding.bill_run(ctx, await seeding.rows_read(session, webset, run_row), run_row.released)
            return {"webset_id": webset_id, "run": number, "webset_status": webset.status}
        run_row.status = "running"
        states.start_searching(webset, utcnow())
        criteria = [Criterion(**c) for c in webset.criteria]
        queries = _planned(webset.strategy or {})
        query, kind, goal, cap = webset.query, webset.target_kind, webset.goal, webset.verify_cap
        excluded = await exclusions.load(session, webset.exclude)
        seed = webset.seed
    if seed is not None:  # the seed's candidates stand where the planned queries would
        queries = [PlannedQuery(seeding.label(seed), "")] * await seeding.size(ctx, seed)
    if number > 1:
        await _release_overflow(ctx, webset_id, number)
    source: ProspectSource = ctx.adapter("prospects")
    reasoner: Reasoner = ctx.adapter("reasoner")
    positions = list(understand(query).roles) if kind == "person" else []
    explored: set[str] = set()
    while True:
        async with transaction(ctx.runtime.reader) as session:
            state = await _state(session, webset_id, number)
        stop = _stop_reason(state, goal, cap, len(queries), time.monotonic() - started)
        if stop is not None:
            break
        planned = queries[state["query_index"]]
        size = (
            FIRST_BATCH if state["verified"] == 0 else min(MAX_BATCH, max(50, (goal - state["released"]) * 2))
        )
        size = max(1, min(size, cap - state["verified"]))
        await _set_stage(ctx, webset_id, "searching")
        exclude = frozenset(state["companies"] | explored | excluded.domains)
        advance: int | None = None
        facts: dict[str, TradeFacts] = {}
        if seed is None:
            companies = await source.companies(
                ProspectQuery(planned.text, size, exclude, planned.user_location or None)
            )
            exhausted = len(companies) < size
        else:
            batch = await seeding.next_batch(ctx, source, seed, state["query_index"], size, exclude)
            companies, advance, facts = batch.companies, batch.read, batch.facts
            exhausted = advance < size
        explored.update(c.key for c in companies)
        companies = [c for c in companies if excluded.keeps(c)]
        prospects = (
            [
                p
                for p in await people.expand(ctx.adapter("contacts"), companies, positions)
                if excluded.keeps(p)
            ]
            if kind == "person"
            else companies
        )
        await _set_stage(ctx, webset_id, "verifying")
        verdicts = await reasoner.verify(query, criteria, prospects) if prospects else []
        await _commit_batch(
            ctx, webset_id, number, planned, prospects, verdicts, criteria, exhausted, advance, facts
        )
        await ctx.progress("verifying", min(99.0, 100.0 * (state["released"] + 1) / max(goal, 1)))
    async with transaction(ctx.sessionmaker) as session:
        webset = await _webset(session, webset_id, lock=True)
        run_row = await states.current_run(session, webset)
        assert run_row is not None
        released = run_row.released
        if webset.status in states.IN_PROGRESS:
            await states.finish(session, ctx.runtime.notifier, webset, "completed", stop, job_id=ctx.job_id)
        seeding.bill_run(ctx, await seeding.rows_read(session, webset, run_row), run_row.released)
    return {"webset_id": webset_id, "run": number, "released": released, "stop_reason": stop}


async def _release_overflow(ctx: JobContext, webset_id: str, number: int) -> None:
    """Qualified items an earlier run verified beyond its goal (a batch may qualify more than the goal
    has room for) are Find More's first results, best first, before any new search."""
    async with transaction(ctx.sessionmaker) as session:
        webset = await _webset(session, webset_id, lock=True)
        run_row = await states.current_run(session, webset)
        if run_row is None or run_row.number != number or webset.status not in states.IN_PROGRESS:
            return
        room = webset.goal - run_row.released
        waiting = (
            (
                await session.execute(
                    select(WebsetItem)
                    .where(
                        WebsetItem.webset_id == webset_id,
                        WebsetItem.released.is_(False),
                        WebsetItem.match_status.in_(("full", "partial")),
                    )
                    .order_by(WebsetItem.score.desc(), WebsetItem.position)
                    .limit(max(room, 0))
                )
            )
            .scalars()
            .all()
        )
        if not waiting:
            return
        now = utcnow()
        by_id = {c["id"]: c for c in webset.criteria}
        for row in waiting:
            row.released = True
            row.updated_at = now
        run_row.released += len(waiting)
        webset.items_revision += 1
        states.touch(webset, now)
        changed = [views.item(row, detail="compact", finished=False, criteria_by_id=by_id) for row in waiting]
        await states.append_added(session, ctx.runtime.notifier, webset, changed)


def _planned(strategy: dict[str, Any]) -> list[PlannedQuery]:
    raw = [q for g in strategy.get("query_groups", []) for q in g.get("queries", [])]
    raw += strategy.get("additional_queries", [])
    seen, out = set(), []
    for q in raw:
        key = (q["text"].casefold(), q.get("user_location", ""))
        if key not in seen and q["text"].strip():
            seen.add(key)
            out.append(PlannedQuery(q["text"], q.get("user_location", "")))
    return out


def _stop_reason(state: dict[str, Any], goal: int, cap: int, queries: int, elapsed: float) -> str | None:
    if state["status"] not in states.IN_PROGRESS:
        return "cancelled"
    if state["released"] >= goal:
        return "goal_reached"
    if state["verified"] >= cap:
        return "verify_cap_reached"
    if state["query_index"] >= queries:
        return "exhausted"
    if elapsed >= RUN_SECONDS:
        return "time_limit"
    return None


async def _state(session: AsyncSession, webset_id: str, number: int) -> dict[str, Any]:
    webset = await _webset(session, webset_id)
    run_row = await states.current_run(session, webset)
    assert run_row is not None
    verified = await session.scalar(
        select(func.count()).where(WebsetItem.webset_id == webset_id, WebsetItem.run_number == number)
    )
    keys = (
        await session.execute(select(WebsetItem.entity).where(WebsetItem.webset_id == webset_id))
    ).scalars()
    companies = {e.get("company_domain") or e.get("domain") for e in keys}
    companies.discard(None)
    return {
        "status": webset.status,
        "released": run_row.released,
        "verified": int(verified or 0),
        "query_index": run_row.query_index,
        "companies": companies,
    }


async def _set_stage(ctx: JobContext, webset_id: str, stage: str) -> None:
    async with transaction(ctx.sessionmaker) as session:
        webset = await _webset(session, webset_id, lock=True)
        if webset.status in ("searching", "verifying") and webset.status != stage:
            states.move(webset, stage, utcnow())


async def _commit_batch(
    ctx: JobContext,
    webset_id: str,
    number: int,
    planned: PlannedQuery,
    prospects: Sequence[Prospect],
    verdicts: Sequence[Sequence[Verdict]],
    criteria: Sequence[Criterion],
    exhausted: bool,
    advance: int | None = None,
    facts: dict[str, TradeFacts] | None = None,
) -> None:
    """Store a verified batch as items (released up to the goal) and move the run's checkpoint; a
    trade-seeded batch's items carry their facts and get the seed's cells."""
    async with transaction(ctx.sessionmaker) as session:
        webset = await _webset(session, webset_id, lock=True)
        run_row = await states.current_run(session, webset)
        if run_row is None or run_row.number != number or webset.status not in states.IN_PROGRESS:
            return
        present = set(
            (
                await session.execute(
                    select(WebsetItem.entity_key).where(
                        WebsetItem.webset_id == webset_id,
                        WebsetItem.entity_key.in_([p.key for p in prospects] or [""]),
                    )
                )
            ).scalars()
        )
        position = int(
            await session.scalar(
                select(func.coalesce(func.max(WebsetItem.position), 0)).where(
                    WebsetItem.webset_id == webset_id
                )
            )
            or 0
        )
        now = utcnow()
        changed, qualified_new, full_new = [], 0, 0
        seeded: list[tuple[WebsetItem, TradeFacts]] = []
        by_id = {c["id"]: c for c in webset.criteria}
        for prospect, verdict_list in zip(prospects, verdicts, strict=True):
            if prospect.key in present:
                continue
            present.add(prospect.key)
            fact = facts.get(prospect.key) if facts else None
            status, score = score_of(criteria, verdict_list)
            qualified = status != "rejected"
            release = not qualified or run_row.released < webset.goal
            if qualified and release:
                run_row.released += 1
            position += 1
            row = WebsetItem(
                id=new_id("item"),
                webset_id=webset_id,
                entity_key=prospect.key[:300],
                position=position,
                run_number=number,
                target_kind=prospect.kind,
                entity=people.entity_of(
                    prospect, trade_seed.entity_trade(fact, webset.seed or {}) if fact else None
                ),
                match_status=status,
                score=score,
                evaluations=[evaluation(v) for v in verdict_list],
                released=release,
                created_at=now,
                updated_at=now,
            )
            session.add(row)
            if fact is not None:
                seeded.append((row, fact))
            qualified_new += qualified
            full_new += status == "full"
            if release:
                changed.append(views.item(row, detail="compact", finished=False, criteria_by_id=by_id))
        # A query is done when the search has no more to give, or when a whole batch of its candidates
        # (ranked best first) qualified none: those further down will not either. The run never pads.
        if advance is not None:  # a seeded run's checkpoint is the next row of its import
            run_row.query_index += advance
        elif exhausted or qualified_new == 0:
            run_row.query_index += 1
        run_row.rounds = [*run_row.rounds, _round(planned, len(prospects), qualified_new, now)]
        await session.flush()
        await refresh_counts(session, webset, number)
        webset.items_revision += 1
        states.touch(webset, now)
        if webset.strategy is not None:
            webset.strategy = {
                **webset.strategy,
                "rounds": [*webset.strategy.get("rounds", []), {"run": number, **run_row.rounds[-1]}],
            }
            webset.strategy_updated_at = now
        await states.append_added(session, ctx.runtime.notifier, webset, changed)
        await trade_seed.write_cells(session, ctx.runtime.notifier, webset, seeded, ctx.job_id)


async def refresh_counts(session: AsyncSession, webset: Webset, number: int) -> None:
    rows = (
        await session.execute(
            select(WebsetItem.match_status, WebsetItem.run_number, func.count())
            .where(WebsetItem.webset_id == webset.id)
            .group_by(WebsetItem.match_status, WebsetItem.run_number)
        )
    ).all()
    webset.verified = sum(int(n) for _, run_number, n in rows if run_number == number)
    webset.qualified = sum(int(n) for status, _, n in rows if status in ("full", "partial"))
    webset.full = sum(int(n) for status, _, n in rows if status == "full")


def _round(planned: PlannedQuery, found: int, qualified: int, now: Any) -> dict[str, Any]:
    return {
        "query": planned.text,
        "user_location": planned.user_location,
        "found": found,
        "qualified": qualified,
        "at": iso(now),
    }
