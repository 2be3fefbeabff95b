"""Lists seeded from customs records (`seed: {type: "customs", role, hs_code, country_codes, start_date,
end_date, min_trade_count}`).

The candidates are the companies on the seed's side of the records (imports declared by the importer's
country for an importer, exports for an exporter) of that product and period, located in one of the
countries and with at least `min_trade_count` records: most records first, a stable order a run reads
by offset. Each is matched to a company the prospects source knows (by name and country) or kept as the
records name it, then verified against the criteria like any candidate. Its trade facts travel with it:
- as evidence the reasoner reads and cites (what was traded, how often, how much, with whom);
- as `entity.trade` on the item;
- as four ready-made columns (enrichments whose `seed_fact` is set), written with the item in the
  run's own transaction: never a job, never charged as cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any
from urllib.parse import urlencode

import pycountry
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.events import append_events
from leadwire.platform.ids import new_id
from leadwire.platform.notify import Notifier
from leadwire.platform.time import utcnow
from leadwire.providers.hs_codes import describe
from leadwire.providers.prospects import CompanyRef, ProspectSource
from leadwire.providers.reasoner import Evidence, Prospect
from leadwire.providers.trade import Partner, TradeFilters, TradeScope, TradeStore, TradingCompany
from leadwire.providers.trade_terms import COMMON_CATALOG, alpha2_of
from leadwire.websets import states
from leadwire.websets.enrichments import cell_view
from leadwire.websets.models import EnrichmentCell, Webset, WebsetEnrichment, WebsetItem

TOP_PARTNERS = 3  # counterparties named per company: the evidence and the column


@dataclass(frozen=True)
class TradeFacts:
    """One company's records in the seed's scope."""

    country3: str
    records: int
    amount_usd: float
    last_shipment: date
    partners: tuple[Partner, ...]
    source: str  # the records' address (`records_url`)
    title: str


@dataclass(frozen=True)
class SeedColumn:
    fact: str  # `WebsetEnrichment.seed_fact`
    format: str
    heading: str  # the column's description, before the seed's terms


COLUMNS = (
    SeedColumn("records", "number", "Customs records"),
    SeedColumn("amount_usd", "number", "Trade value in USD"),
    SeedColumn("partners", "text", "Largest {partners} by value"),
    SeedColumn("last_shipment", "date", "Last shipment"),
)


def scope_of(seed: dict[str, Any]) -> TradeScope:
    return TradeScope(
        COMMON_CATALOG[seed["role"]],
        date.fromisoformat(seed["start_date"]),
        date.fromisoformat(seed["end_date"]),
        TradeFilters(hs_code=seed["hs_code"]),
    )


def _countries(seed: dict[str, Any]) -> list[str]:
    return [code for code in seed["country_codes"].split(",") if code]


def label(seed: dict[str, Any]) -> str:
    return (
        f"{seed['role']}s of HS {seed['hs_code']} in {seed['country_codes']}, "
        f"{seed['start_date']} to {seed['end_date']}"
    )


async def size(store: TradeStore, seed: dict[str, Any]) -> int:
    return await store.trading_company_count(
        seed["role"], scope_of(seed), _countries(seed), min_trade_count=int(seed["min_trade_count"])
    )


async def next_batch(
    store: TradeStore,
    source: ProspectSource,
    seed: dict[str, Any],
    offset: int,
    size: int,
    exclude: frozenset[str],
) -> tuple[list[Prospect], int, dict[str, TradeFacts]]:
    """The next `size` companies from `offset`, each with its facts as evidence; those in `exclude`
    dropped. With how many companies were read, and the facts by prospect key."""
    scope = scope_of(seed)
    companies = await store.trading_companies(
        seed["role"],
        scope,
        _countries(seed),
        min_trade_count=int(seed["min_trade_count"]),
        offset=offset,
        limit=size,
    )
    refs = [CompanyRef(c.name, None, alpha2_of(c.country3)) for c in companies]
    found = await source.lookup(refs) if refs else []
    candidates = [
        (company, known or ref.as_named()) for company, ref, known in zip(companies, refs, found, strict=True)
    ]
    candidates = [(company, prospect) for company, prospect in candidates if prospect.key not in exclude]
    partners = await store.top_partners(
        seed["role"], scope, [(c.name, c.country3) for c, _ in candidates], TOP_PARTNERS
    )
    prospects: list[Prospect] = []
    facts: dict[str, TradeFacts] = {}
    for company, prospect in candidates:
        if prospect.key in facts:  # two names of the records that are one company: the first (larger)
            continue
        fact = _facts(seed, company, tuple(partners.get((company.name, company.country3), ())))
        facts[prospect.key] = fact
        found_by_records = evidence(company.name, entity_trade(fact, seed))
        prospects.append(replace(prospect, evidence=(found_by_records, *prospect.evidence)))
    return prospects, len(companies), facts


def records_url(seed: dict[str, Any], company: TradingCompany) -> str:
    """Where the facts come from: the customs records of this company in the seed's scope, as a
    `customs:` address (the records are the store's, not a web page)."""
    terms = {
        "role": seed["role"],
        "company": company.name,
        "country": company.country3,
        "hs_code": seed["hs_code"],
        "start_date": seed["start_date"],
        "end_date": seed["end_date"],
    }
    return f"customs:{COMMON_CATALOG[seed['role']]}?{urlencode(terms)}"


def _facts(seed: dict[str, Any], company: TradingCompany, partners: tuple[Partner, ...]) -> TradeFacts:
    return TradeFacts(
        country3=company.country3,
        records=company.trade_count,
        amount_usd=company.amount_usd,
        last_shipment=company.last_shipment,
        partners=partners,
        source=records_url(seed, company),
        title=f"Customs records of {company.name} as {seed['role']}, HS {seed['hs_code']}",
    )


def entity_trade(facts: TradeFacts, seed: dict[str, Any]) -> dict[str, Any]:
    """`entity.trade` of an item the seed found: its facts and the seed's terms."""
    return {
        "role": seed["role"],
        "hs_code": seed["hs_code"],
        "start_date": seed["start_date"],
        "end_date": seed["end_date"],
        "country_code": facts.country3,
        "records": facts.records,
        "amount_usd": round(facts.amount_usd, 2),
        "last_shipment": facts.last_shipment.isoformat(),
        "top_counterparties": [
            {"name": p.name, "country_code": p.country3, "records": p.trade_count, "amount_usd": p.amount_usd}
            for p in facts.partners
        ],
        "source": facts.source,
    }


def evidence(name: str, trade: dict[str, Any]) -> Evidence:
    """The facts as a document the reasoner reads and may cite: at discovery, and again whenever the
    item is re-verified or enriched (from its `entity.trade`)."""
    importer = trade["role"] == "importer"
    country = pycountry.countries.get(alpha_3=trade["country_code"])
    place = country.name if country is not None else trade["country_code"]
    product = describe(trade["hs_code"]).en
    goods = f"HS {trade['hs_code']}" + (f" ({product})" if product else "")
    partners = ", ".join(f"{p['name']} ({p['country_code']})" for p in trade["top_counterparties"])
    text = (
        f"{name}, {place}, {'imported' if importer else 'exported'} goods under {goods} in "
        f"{trade['records']} customs records from {trade['start_date']} to {trade['end_date']}, worth "
        f"USD {trade['amount_usd']:,.0f}; the last on {trade['last_shipment']}."
        + (f" Largest {'suppliers' if importer else 'buyers'}: {partners}." if partners else "")
    )
    title = f"Customs records of {name} as {trade['role']}, HS {trade['hs_code']}"
    return Evidence(url=trade["source"], title=title, text=text)


# -- the ready-made columns ----------------------------------------------------------------------


def add_columns(session: AsyncSession, webset_id: str, seed: dict[str, Any]) -> None:
    """The four columns a trade-seeded list is created with, complete from the start: each item the seed
    adds comes with its cells."""
    now = utcnow()
    terms = f"HS {seed['hs_code']}, {seed['start_date']} to {seed['end_date']}"
    partners = "suppliers" if seed["role"] == "importer" else "buyers"
    for place, column in enumerate(COLUMNS):
        at = now + timedelta(microseconds=place)  # columns are listed by creation time: keep their order
        session.add(
            WebsetEnrichment(
                id=new_id("enr"),
                webset_id=webset_id,
                description=f"{column.heading.format(partners=partners)} ({terms})",
                format=column.format,
                options=[],
                metadata_={},
                status="completed",
                job_id=None,
                seed_fact=column.fact,
                deleted=False,
                created_at=at,
                updated_at=at,
            )
        )


def _value(fact: str, facts: TradeFacts) -> list[str] | None:
    if fact == "records":
        return [str(facts.records)]
    if fact == "amount_usd":
        return [f"{facts.amount_usd:.2f}"]
    if fact == "last_shipment":
        return [facts.last_shipment.isoformat()]
    return [f"{p.name} ({p.country3})" for p in facts.partners] or None


async def write_cells(
    session: AsyncSession,
    notifier: Notifier,
    webset: Webset,
    found: Sequence[tuple[WebsetItem, TradeFacts]],
    job_id: str,
) -> None:
    """The seed's columns of newly found items, in the caller's transaction: every item, so one a refresh
    later qualifies has them too. Each cell of a released item is announced on the list's stream after
    the item itself (an item held past the goal is announced, cells and all, when it is released). A
    column deleted or cancelled gets no more cells."""
    columns = list(
        (
            await session.execute(
                select(WebsetEnrichment)
                .where(
                    WebsetEnrichment.webset_id == webset.id,
                    WebsetEnrichment.seed_fact.is_not(None),
                    WebsetEnrichment.deleted.is_(False),
                    WebsetEnrichment.status != "cancelled",
                )
                .order_by(WebsetEnrichment.created_at, WebsetEnrichment.id)
            )
        ).scalars()
    )
    if not columns or not found:
        return
    now = utcnow()
    events = []
    for item, facts in found:
        for column in columns:
            assert column.seed_fact is not None
            result = _value(column.seed_fact, facts)
            cell = EnrichmentCell(
                enrichment_id=column.id,
                item_id=item.id,
                job_id=job_id,
                filled=result is not None,
                result=result,
                reasoning=f"From the customs records: {facts.title}.",
                references=[{"url": facts.source, "title": facts.title}],
                created_at=now,
            )
            session.add(cell)
            if not item.released:
                continue
            payload = {
                "webset_id": webset.id,
                "item_id": item.id,
                "items_revision": webset.items_revision,
                "enrichment": cell_view(column, cell),
            }
            events.append(("webset.item.enriched", payload))
    await append_events(session, notifier, states.topic(webset.id), events)
