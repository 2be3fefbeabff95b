"""A list seeded from an import: its candidates are the import's rows in line order, each matched to a
company the prospects source knows or else kept as the row describes it; the run's checkpoint is the
next row (`discovery._commit_batch(advance=...)`)."""

from __future__ import annotations

from leadwire.platform.db import transaction
from leadwire.platform.jobs import JobContext
from leadwire.providers.prospects import CompanyRef, ProspectSource
from leadwire.providers.reasoner import Prospect
from leadwire.websets import imports


async def next_rows(
    ctx: JobContext, source: ProspectSource, import_id: str, offset: int, size: int, exclude: frozenset[str]
) -> tuple[list[Prospect], int]:
    """The next `size` rows of the import from `offset`, each matched to a company the source knows or
    else kept as the row describes it (never invented facts: no evidence, judged as such); rows whose
    company is in `exclude` dropped. With how many rows were read."""
    async with transaction(ctx.runtime.reader) as session:
        rows = await imports.rows_from(session, import_id, offset=offset, limit=size)
    refs = [CompanyRef(r.name, r.domain, r.country) for r in rows]
    found = await source.lookup(refs) if refs else []
    companies = [known or as_given(ref) for ref, known in zip(refs, found, strict=True)]
    return [c for c in companies if c.key not in exclude], len(rows)


def as_given(ref: CompanyRef) -> Prospect:
    name = ref.name or ref.domain or ""
    key = ref.domain or "name:" + " ".join(name.casefold().split()) + (
        f"@{ref.country}" if ref.country else ""
    )
    return Prospect(
        key=key,
        kind="company",
        name=name,
        website=f"https://{ref.domain}" if ref.domain else None,
        country=ref.country,
    )
