"""Seeded lists: candidates from a seed instead of a search, read in a stable order so a run's
checkpoint is how many it has read (`discovery._commit_batch(advance=...)`).

- `{type: "import", id}`: the import's rows in line order, each matched to a company the prospects
  source knows or else kept as the row describes it.
- `{type: "customs", ...}`: the companies the trade store finds (`trade_seed.py`), with their facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.db import transaction
from leadwire.platform.jobs import JobContext
from leadwire.providers.prospects import CompanyRef, ProspectSource
from leadwire.providers.reasoner import Prospect
from leadwire.providers.trade import TradeStore
from leadwire.providers.trade_terms import COMPANY_ROW_KIND
from leadwire.websets import imports, trade_seed
from leadwire.websets.models import Webset, WebsetItem, WebsetRun
from leadwire.websets.trade_seed import TradeFacts


@dataclass(frozen=True)
class SeedBatch:
    companies: list[Prospect]  # those not excluded, in seed order
    read: int  # how far the batch moved the checkpoint
    facts: dict[str, TradeFacts] = field(default_factory=dict)  # a trade seed's facts, by prospect key


def label(seed: dict[str, Any]) -> str:
    """What a run's rounds call the seed's candidates."""
    if seed["type"] == "import":
        return f"rows of import {seed['id']}"
    return trade_seed.label(seed)


async def size(ctx: JobContext, seed: dict[str, Any]) -> int:
    """How many candidates the seed holds."""
    if seed["type"] == "import":
        async with transaction(ctx.runtime.reader) as session:
            return await imports.row_count(session, seed["id"])
    store: TradeStore = ctx.adapter("trade")
    return await trade_seed.size(store, seed)


async def next_batch(
    ctx: JobContext,
    source: ProspectSource,
    seed: dict[str, Any],
    offset: int,
    size: int,
    exclude: frozenset[str],
) -> SeedBatch:
    """The next `size` candidates of the seed from `offset`; those whose company is in `exclude` dropped."""
    if seed["type"] == "customs":
        store: TradeStore = ctx.adapter("trade")
        companies, read, facts = await trade_seed.next_batch(store, source, seed, offset, size, exclude)
        return SeedBatch(companies, read, facts)
    async with transaction(ctx.runtime.reader) as session:
        rows = await imports.rows_from(session, seed["id"], offset=offset, limit=size)
    refs = [CompanyRef(r.name, r.domain, r.country) for r in rows]
    found = await source.lookup(refs) if refs else []
    companies = [known or ref.as_named() for ref, known in zip(refs, found, strict=True)]
    return SeedBatch([c for c in companies if c.key not in exclude], len(rows))


async def rows_read(session: AsyncSession, webset: Webset, run_row: WebsetRun) -> int:
    """The customs company rows a trade-seeded run read and verified (its items); 0 for other lists."""
    if webset.seed is None or webset.seed["type"] != "customs":
        return 0
    read = await session.scalar(
        select(func.count()).where(WebsetItem.webset_id == webset.id, WebsetItem.run_number == run_row.number)
    )
    return int(read or 0)


def bill_run(ctx: JobContext, rows: int, released: int) -> None:
    """A credit per released qualified item, and a customs company row per candidate read from records."""
    ctx.bill(released, kind="items")
    if rows:
        ctx.bill(rows, kind=COMPANY_ROW_KIND)
