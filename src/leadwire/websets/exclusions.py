"""What a list's runs leave out: the prospects of the sources its creation and Find More named.

A company is excluded by its normalised domain or, when a source row has none, by its normalised name
and country; a person by the profile that identifies them in a list. Excluded domains go to the
prospects port with the list's own, so an excluded company is never fetched, verified or charged; names
and people are dropped from each batch before verification.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.domains import normalise_domain
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.providers.reasoner import Prospect
from leadwire.websets.models import Import, ImportRow, Webset, WebsetItem
from leadwire.websets.schemas import MAX_EXCLUSIONS, Exclusion

# Legal forms a company name carries in one register and not in another ("Acme GmbH" is "Acme"): the
# common ones of the markets the sandbox and the customs data cover, not a list fitted to any row.
_LEGAL_FORM_WORDS = (
    "ab ag as asa bv bvba co company corp corporation gmbh inc incorporated kg kk limited "
    "llc llp ltd nv oy oyj plc pty pvt sa sarl sas se spa srl sro"
)
LEGAL_FORMS = frozenset(_LEGAL_FORM_WORDS.split())
QUALIFIED = ("full", "partial")


@dataclass(frozen=True)
class Excluded:
    domains: frozenset[str] = frozenset()
    names: frozenset[tuple[str, str]] = frozenset()
    people: frozenset[str] = frozenset()

    def keeps(self, prospect: Prospect) -> bool:
        """False for a prospect a source holds (a person also when their company is excluded)."""
        if prospect.kind == "person" and prospect.key in self.people:
            return False
        domain = domain_key(prospect.website or ("" if prospect.kind == "person" else prospect.key))
        if domain and domain in self.domains:
            return False
        name, country = name_key(
            (prospect.company if prospect.kind == "person" else prospect.name) or "", prospect.country
        )
        # A source row without a country excludes the name in every country.
        return not name or ((name, country) not in self.names and (name, "") not in self.names)


def domain_key(raw: str | None) -> str | None:
    if not raw:
        return None
    try:
        return normalise_domain(raw)
    except ValueError:
        return None


def name_key(name: str, country: str | None) -> tuple[str, str]:
    """A company name without case, accents, punctuation or legal form, beside its country code."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    words = re.findall(r"\w+", plain)
    while len(words) > 1 and words[-1] in LEGAL_FORMS:
        words.pop()
    return " ".join(words), (country or "").strip().upper()[:2]


async def merged_sources(
    session: AsyncSession, caller: Caller, given: Sequence[Exclusion], current: Iterable[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """`current` with the `given` sources added once each; 404 `exclusion_not_found` naming the first
    source the caller does not hold, 400 `invalid_exclusion` past the limit."""
    owned = await _owned(session, caller, given)
    for index, exclusion in enumerate(given):
        if (exclusion.source, exclusion.id) not in owned:
            raise ApiError("exclusion_not_found", param=f"exclude.{index}.id")
    merged = {(e["source"], e["id"]): e for e in current}
    for exclusion in given:
        merged.setdefault((exclusion.source, exclusion.id), {"source": exclusion.source, "id": exclusion.id})
    if len(merged) > MAX_EXCLUSIONS:
        raise ApiError(
            "invalid_exclusion", param="exclude", detail=f"a list excludes at most {MAX_EXCLUSIONS}"
        )
    return list(merged.values())


async def _owned(session: AsyncSession, caller: Caller, given: Sequence[Exclusion]) -> set[tuple[str, str]]:
    """The (source, id) pairs of `given` the caller holds."""
    tables = {"webset": (Webset.id, Webset.user_id), "import": (Import.id, Import.user_id)}
    owned: set[tuple[str, str]] = set()
    for source, (id_column, user_column) in tables.items():
        wanted = list(dict.fromkeys(e.id for e in given if e.source == source))
        if wanted:
            statement = select(id_column).where(id_column.in_(wanted), user_column == caller.user_id)
            if source == "import":  # one still being written holds nothing yet
                statement = statement.where(Import.status == "completed")
            found = await session.execute(statement)
            owned.update((source, found_id) for found_id in found.scalars())
    return owned


async def load(session: AsyncSession, sources: Iterable[dict[str, Any]]) -> Excluded:
    """What `sources` hold now: each named list's qualified items (what its owner was shown), each
    named import's accepted rows (an import deleted since holds nothing)."""
    named = list(sources)
    domains: set[str] = set()
    names: set[tuple[str, str]] = set()
    people: set[str] = set()
    if lists := [s["id"] for s in named if s["source"] == "webset"]:
        items = await session.execute(
            select(WebsetItem.target_kind, WebsetItem.entity_key, WebsetItem.entity).where(
                WebsetItem.webset_id.in_(lists),
                WebsetItem.released.is_(True),
                WebsetItem.match_status.in_(QUALIFIED),
            )
        )
        for kind, key, entity in items:
            if kind == "person":
                people.add(key)
            elif domain := domain_key(entity.get("domain") or entity.get("website")):
                domains.add(domain)
            elif (company := name_key(entity.get("name") or "", entity.get("country")))[0]:
                names.add(company)
    if brought := [s["id"] for s in named if s["source"] == "import"]:
        rows = await session.execute(
            select(ImportRow.name, ImportRow.domain, ImportRow.country).where(
                ImportRow.import_id.in_(brought)
            )
        )
        for name, domain, country in rows:
            if domain:
                domains.add(domain)
            elif (company := name_key(name or "", country))[0]:
                names.add(company)
    return Excluded(frozenset(domains), frozenset(names), frozenset(people))
