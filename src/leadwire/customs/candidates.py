"""Company-name candidates: which names in the customs records a user's company name may be.

Names are matched as written in the records — the same company is often declared as "ACME IMPORTS
GMBH", "Acme Imports GmbH." or "Acme Imports" — so the user picks the exact name to query the
sections with. Matching is fuzzy (rapidfuzz WRatio) over names with their legal form removed, so
"Acme Imports" finds "ACME IMPORTS GMBH" and the legal form alone never makes two names alike.
"""

from __future__ import annotations

import asyncio
import re
import threading
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process, utils

from leadwire.customs.schemas import CandidatesRequest
from leadwire.providers.trade import Catalog, NameCount, Role, TradeScope, TradeStore

IDENTITY_NOTICE = (
    "Candidates are names as declared in customs records. identity_status 'unverified' means the "
    "exact name is queryable in the catalog shown, not that it is a verified legal entity; "
    "different companies can share a name and one company can appear under several."
)
MAX_MATCHES = 60  # names whose records are counted; more would only add weak matches
MIN_SCORE = 72.0
# Legal forms and filler words that say nothing about which company a name is.
_LEGAL_FORM_WORDS = """
    ab ag as asa bv bhd co company corp corporation cv gmbh inc incorporated jsc kg kft kk llc llp
    ltd limited lp nv oy oyj plc pte pty sa sab sae sal sarl sas spa srl sro the tbk ltda zrt and &
"""
_LEGAL_FORMS = frozenset(_LEGAL_FORM_WORDS.split())
_TOKEN = re.compile(r"\w+|&", re.UNICODE)


def name_key(name: str) -> str:
    """A name reduced to what identifies the company: lower case, no punctuation, no legal form."""
    tokens = _joined_initials(_TOKEN.findall(utils.default_process(name)))
    kept = [t for t in tokens if t not in _LEGAL_FORMS]
    return " ".join(kept or tokens)


def _joined_initials(tokens: list[str]) -> list[str]:
    """`g m b h` -> `gmbh`, `s a` -> `sa`: a dotted abbreviation becomes the word it stands for."""
    joined: list[str] = []
    run = ""
    for token in tokens:
        if len(token) == 1 and token.isalpha():
            run += token
            continue
        if run:
            joined.append(run)
            run = ""
        joined.append(token)
    return [*joined, run] if run else joined


@dataclass(frozen=True)
class Match:
    name: str
    score: float


# The keys of the name lists a store hands out: a store returns the same list until its data changes,
# so the keys of ~20,000 names are computed once per change, not once per request.
_KEYS: dict[int, tuple[list[str], list[str]]] = {}


_KEYS_LOCK = threading.Lock()  # matching runs in worker threads


def _keys_of(names: list[str]) -> list[str]:
    with _KEYS_LOCK:
        cached = _KEYS.get(id(names))
    if cached is not None and cached[0] is names:
        return cached[1]
    keys = [name_key(n) for n in names]
    with _KEYS_LOCK:
        if len(_KEYS) > 8:
            _KEYS.clear()
        _KEYS[id(names)] = (names, keys)
    return keys


def match_names(query: str, names: list[str]) -> list[Match]:
    """The names most like `query`, best first (ties: the name), at most MAX_MATCHES."""
    keys = _keys_of(names)
    found = process.extract(
        name_key(query), keys, scorer=fuzz.WRatio, processor=None, limit=MAX_MATCHES, score_cutoff=MIN_SCORE
    )
    matches = [Match(names[index], float(score)) for _, score, index in found]
    return sorted(matches, key=lambda m: (-m.score, m.name))


async def find_candidates(store: TradeStore, body: CandidatesRequest) -> dict[str, Any]:
    pairs = body.pairs()
    candidates: list[dict[str, Any]] = []
    for role in dict.fromkeys(role for role, _ in pairs):
        catalogs = [catalog for pair_role, catalog in pairs if pair_role == role]
        names = await store.company_names(role)
        # ~20,000 fuzzy comparisons: off the event loop, which serves other requests meanwhile.
        matches = await asyncio.to_thread(match_names, body.company_name, names)
        counts = {
            catalog: await store.name_counts(
                role,
                TradeScope(catalog, body.start_date, body.end_date),
                [m.name for m in matches],
                body.country_list,
            )
            for catalog in catalogs
        }
        candidates.extend(_candidates_of_role(role, catalogs, matches, counts, body))
    candidates.sort(key=lambda c: (-c["match_score"], -c["trade_counts"]["total"], c["name"]))
    first = (body.page - 1) * body.page_size
    return {
        "query": body.company_name,
        "date_range": {"start": body.start_date.isoformat(), "end": body.end_date.isoformat()},
        "routing_evidence": _routing(body, pairs),
        "identity_notice": IDENTITY_NOTICE,
        "total": len(candidates),
        "page": body.page,
        "page_size": body.page_size,
        "candidates": candidates[first : first + body.page_size],
    }


def _candidates_of_role(
    role: Role,
    catalogs: list[Catalog],
    matches: list[Match],
    counts: dict[Catalog, list[NameCount]],
    body: CandidatesRequest,
) -> list[dict[str, Any]]:
    """One candidate per matched name with records in a checked catalog; its catalog is the first
    checked (the given or common pairing), the others' counts show whether another would do better."""
    found = []
    for match in matches:
        rows = {catalog: [c for c in counts[catalog] if c.name == match.name] for catalog in catalogs}
        per_catalog = {catalog: sum(c.trade_count for c in rows[catalog]) for catalog in catalogs}
        total = sum(per_catalog.values())
        if total == 0:
            continue  # no record in this range (or these countries): nothing to query
        every = [c for catalog in catalogs for c in rows[catalog]]
        found.append(
            {
                "name": match.name,
                "source": "customs_records",
                "countries": sorted({c.country3 for c in every}),
                "company_ids": sorted({c.company_id for c in every if c.company_id}),
                "trade_counts": {
                    "start_date": body.start_date.isoformat(),
                    "end_date": body.end_date.isoformat(),
                    "company_role": role,
                    "catalog": catalogs[0],
                    **{f"{catalog}_as_{role}": per_catalog[catalog] for catalog in catalogs},
                    "total": total,
                    "queryable": per_catalog[catalogs[0]] > 0,
                },
                "identity_status": "unverified",
                "match_score": round(match.score, 1),
            }
        )
    return found


def _routing(body: CandidatesRequest, pairs: list[tuple[Role, Catalog]]) -> dict[str, Any]:
    if body.company_role is None:
        mode = "both_common_pairs"
    elif len(pairs) > 1:
        mode = "compare_catalogs"
    else:
        mode = (
            "common_pair" if pairs[0] in (("importer", "imports"), ("exporter", "exports")) else "cross_pair"
        )
    return {
        "mode": mode,
        "company_role": body.company_role,
        "catalogs_checked": list(dict.fromkeys(catalog for _, catalog in pairs)),
    }
