"""Enrichment cells of a batch of items: who answers each format, and how an answer is kept.

Text, number, date, options and URL cells come from the reasoner, over each item's record and pages
(looked up again through the prospects port, so a cell reads the pages as they are now). Email cells
come from the contacts path: the address the contacts source gives for the person (or the role the
column names) at the item's domain, with its verification status in the reasoning — an address the
source did not verify says so, and none is ever made up from a name pattern. Phone cells are numbers
written on the item's pages, checked as valid for the company's country (or in international form).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import phonenumbers

from leadwire.platform.jobs import JobContext
from leadwire.providers.contacts import ContactRecord, ContactsProvider, ContactsProviderError
from leadwire.providers.positions import title_matches
from leadwire.providers.prospects import CompanyRef, ProspectSource
from leadwire.providers.reasoner import REASONED_FORMATS, Cell, EnrichmentAsk, Prospect, Reasoner
from leadwire.search.understand import understand
from leadwire.websets import trade_seed
from leadwire.websets.models import WebsetItem

CONTACTS_CONCURRENCY = 8
VERIFIED_STATUSES = frozenset({"valid", "verified", "deliverable"})
CONTACT_PAGE_WORDS = ("contact", "kontakt", "impressum", "imprint", "about", "联系")
# Words that announce a phone number just before it: without one, a bare run of digits (an amount, a
# code) is not read as a number to call.
PHONE_CUES = re.compile(
    r"(tel|phone|call|telefon|téléphone|telefono|电话|電話|mobile|hotline)\W*$", re.IGNORECASE
)
MIN_PHONE_DIGITS = 7


@dataclass(frozen=True, slots=True)
class Found:
    """A cell ready to store: references carry their page titles."""

    result: list[str] | None
    reasoning: str
    references: list[dict[str, Any]]


async def compute(ctx: JobContext, ask: EnrichmentAsk, items: Sequence[WebsetItem]) -> list[Found]:
    prospects = await prospects_of(ctx.adapter("prospects"), items)
    if ask.format in REASONED_FORMATS:
        reasoner: Reasoner = ctx.adapter("reasoner")
        cells = await reasoner.enrich(ask, prospects)
    elif ask.format == "email":
        cells = await emails(ctx.adapter("contacts"), ask, prospects)
    else:
        cells = [phone_on_pages(p) for p in prospects]
    return [_kept(cell, prospect) for cell, prospect in zip(cells, prospects, strict=True)]


def _kept(cell: Cell, prospect: Prospect) -> Found:
    titles = {e.url: e.title for e in prospect.evidence}
    references = [{"url": url, "title": titles.get(url)} for url in cell.references]
    return Found(list(cell.result) if cell.result is not None else None, cell.reasoning[:1000], references)


async def prospects_of(source: ProspectSource, items: Sequence[WebsetItem]) -> list[Prospect]:
    """Each item as a prospect with its company's record and pages; an item whose company the source
    does not know keeps what the item holds, without pages."""
    refs = [_company_ref(item.entity, item.target_kind) for item in items]
    found = await source.lookup(refs)
    return [_with_trade(item, _as_item(item, company)) for item, company in zip(items, found, strict=True)]


def _with_trade(item: WebsetItem, prospect: Prospect) -> Prospect:
    """A trade-seeded item keeps its customs records among its evidence, as when it was found."""
    trade = item.entity.get("trade")
    if not isinstance(trade, dict):
        return prospect
    trader = item.entity.get("company" if item.target_kind == "person" else "name")
    return replace(
        prospect, evidence=(trade_seed.evidence(str(trader or prospect.name), trade), *prospect.evidence)
    )


def _company_ref(entity: dict[str, Any], kind: str) -> CompanyRef:
    if kind == "person":
        return CompanyRef(entity.get("company"), entity.get("company_domain"), None)
    country = entity.get("country")
    return CompanyRef(entity.get("name"), entity.get("domain"), country if isinstance(country, str) else None)


def _as_item(item: WebsetItem, company: Prospect | None) -> Prospect:
    entity = item.entity
    if company is None:
        domain = entity.get("company_domain") if item.target_kind == "person" else entity.get("domain")
        company = Prospect(
            key=domain or item.entity_key,
            kind="company",
            name=str(entity.get("company") if item.target_kind == "person" else entity.get("name") or ""),
            website=f"https://{domain}" if domain else None,
            industry=entity.get("industry"),
            country=entity.get("country"),
            city=entity.get("city"),
            employees=entity.get("employees"),
            founded=entity.get("founded"),
            description=entity.get("description"),
        )
    if item.target_kind != "person":
        return company
    return replace(
        company,
        key=item.entity_key,
        kind="person",
        name=str(entity.get("name") or ""),
        title=entity.get("title"),
        company=entity.get("company"),
        email=entity.get("email"),
        linkedin_url=entity.get("linkedin_url"),
    )


# -- email -------------------------------------------------------------------------------------


async def emails(contacts: ContactsProvider, ask: EnrichmentAsk, prospects: Sequence[Prospect]) -> list[Cell]:
    roles = list(understand(ask.description).roles)
    gate = asyncio.Semaphore(CONTACTS_CONCURRENCY)

    async def one(prospect: Prospect) -> Cell:
        domain = (prospect.website or "").removeprefix("https://").removeprefix("http://").strip("/")
        if not domain:
            return Cell(None, "The item has no domain to ask the contacts source about.", ())
        person = prospect.kind == "person"
        async with gate:
            try:
                found = await contacts.domain_search(
                    domain, limit=25 if person else 10, positions=[] if person else roles, locale="en"
                )
            except ContactsProviderError as exc:
                return Cell(None, f"The contacts source could not answer for {domain} ({exc.code}).", ())
        return email_cell(prospect, found.contacts, domain, roles)

    return list(await asyncio.gather(*(one(p) for p in prospects)))


def email_cell(
    prospect: Prospect, contacts: Sequence[ContactRecord], domain: str, roles: Sequence[str]
) -> Cell:
    """The address of the item's person (matched by address, else by name), or for a company the first
    person of the role asked for, verified addresses first; never a guessed one."""
    with_email = [c for c in contacts if c.email]
    if prospect.kind == "person":
        name = prospect.name.casefold()
        chosen = [
            c
            for c in with_email
            if prospect.email and c.email and c.email.casefold() == prospect.email.casefold()
        ]
        chosen = chosen or [c for c in with_email if (c.full_name or "").casefold() == name]
    else:
        # A source may answer more than the role asked for (or ignore the filter): only the role counts.
        of_role = [c for c in with_email if title_matches(roles, c.position)]
        chosen = sorted(of_role, key=lambda c: (c.status or "").casefold() not in VERIFIED_STATUSES)
    if not chosen:
        wanted = f" for {', '.join(roles)}" if roles and prospect.kind != "person" else ""
        return Cell(None, f"The contacts source has no address at {domain}{wanted}.", ())
    contact = chosen[0]
    who = ", ".join(x for x in (contact.full_name, contact.position) if x) or "a contact"
    status = (contact.status or "unknown").casefold()
    if status in VERIFIED_STATUSES:
        reasoning = f"{who}: the contacts source verified this address (status {status})."
    else:
        reasoning = (
            f"{who}: not verified — the contacts source gives status {status!r}, so the address may not "
            "be deliverable."
        )
    return Cell((str(contact.email),), reasoning, ())


# -- phone -------------------------------------------------------------------------------------


def _written_as_phone(text: str, match: Any) -> bool:
    """A number written as one: in international form, or after a word that announces it, with at
    least `MIN_PHONE_DIGITS` digits."""
    raw = match.raw_string
    if sum(ch.isdigit() for ch in raw) < MIN_PHONE_DIGITS:
        return False
    before = text[max(0, match.start - 24) : match.start]
    return raw.lstrip().startswith("+") or PHONE_CUES.search(before.rstrip(" :.-")) is not None


def phone_on_pages(prospect: Prospect) -> Cell:
    """The first valid number written on the company's pages, contact pages first, in E.164."""
    region = (prospect.country or "").upper() if len(prospect.country or "") == 2 else None
    pages = sorted(
        prospect.evidence,
        key=lambda e: not any(w in f"{e.url} {e.title}".casefold() for w in CONTACT_PAGE_WORDS),
    )
    for page in pages:
        for match in phonenumbers.PhoneNumberMatcher(page.text, region, leniency=phonenumbers.Leniency.VALID):
            if not _written_as_phone(page.text, match):
                continue
            number = phonenumbers.format_number(match.number, phonenumbers.PhoneNumberFormat.E164)
            return Cell(
                (number,), f'Written on the page "{page.title[:120]}": {match.raw_string}.', (page.url,)
            )
    return Cell(None, f"None of the {len(pages)} pages read gives a phone number.", ())
