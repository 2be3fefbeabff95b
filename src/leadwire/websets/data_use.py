"""The gated outside data a list reads (`providers/data_rights.py` says what each needs): a customs
seed reads trade records, a person list and an email column read contacts. Every path that adds to a
list or shows its items asks here: creation, Find More, enrichments, refresh, monitors, item pages,
streams and exports, on REST, MCP and the console alike, and each job again when it runs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller
from leadwire.platform.jobs import Job, JobContext, JobFailure
from leadwire.providers.data_rights import CONTACTS, TRADE_RECORDS, OutsideData, check, reader_now, refusal
from leadwire.websets.models import Webset, WebsetEnrichment

Data = frozenset[OutsideData]
# Formats whose cells come from a gated source (`cells.compute`): email from the contacts path.
FORMAT_DATA: dict[str, Data] = {"email": frozenset({CONTACTS})}


def of_list(target_kind: str, seed: dict[str, Any] | None) -> Data:
    """What a list's items are made of: a customs seed's records, a person list's contacts."""
    data: set[OutsideData] = set()
    if seed is not None and seed.get("type") == "customs":
        data.add(TRADE_RECORDS)
    if target_kind == "person":
        data.add(CONTACTS)
    return frozenset(data)


def of_formats(formats: Iterable[str]) -> Data:
    return frozenset(kind for format in formats for kind in FORMAT_DATA.get(format, ()))


def of_event(kind: str | None, payload: dict[str, Any], list_data: Data) -> Data:
    """What one event of a list's stream shows: an enrichment's cell (`webset.item.enriched`) what its
    format reads; changed items (`items.changed`) what the list is made of (`list_data`) and their cells'."""
    if kind == "webset.item.enriched":
        return of_formats([str((payload.get("enrichment") or {}).get("format", ""))])
    items = payload.get("items") or [] if kind == "items.changed" else []
    if not items:
        return frozenset()
    cells = [cell.get("format", "") for item in items for cell in item.get("enrichments") or ()]
    return list_data | of_formats(cells)


async def of_columns(session: AsyncSession, webset_id: str) -> Data:
    """What the list's columns read or show: its enrichments not deleted (cells of a cancelled one
    are still shown)."""
    formats = (
        await session.execute(
            select(WebsetEnrichment.format).where(
                WebsetEnrichment.webset_id == webset_id, WebsetEnrichment.deleted.is_(False)
            )
        )
    ).scalars()
    return of_formats(formats)


async def of_webset(session: AsyncSession, webset: Webset, *, columns: bool = True) -> Data:
    """The list's own data, and with `columns` that of its enrichments: what a run, a refresh, an export
    or a full item page reads."""
    data = of_list(webset.target_kind, webset.seed)
    return data | await of_columns(session, webset.id) if columns else data


async def check_webset(
    session: AsyncSession, caller: Caller, webset: Webset, *, columns: bool = True, also: Data = frozenset()
) -> None:
    """Refuse (403) a caller who may not read what the list is made of, plus `also`."""
    check(caller, await of_webset(session, webset, columns=columns) | also)


async def check_run(ctx: JobContext, session: AsyncSession, data: Data) -> None:
    """At run time, with the account's plan and the job's key as they are now: a downgraded plan or a
    narrowed key fails the job with the refusal's code."""
    if not data:
        return
    key_id = await session.scalar(select(Job.api_key_id).where(Job.id == ctx.job_id))
    refused = refusal(await reader_now(session, ctx.user_id, key_id), data)
    if refused is not None:
        raise JobFailure(refused.code, refused.detail)
