"""The offline reasoner: rules over the shared query understanding, plus multilingual embeddings.

Deterministic and local. Criteria are written as self-contained sentences that the same understanding
reads back when verifying ("Headquartered in Germany", "In the Chemical Manufacturing industry (NAICS
325)"), so it can judge criteria a model wrote as well as its own. A verdict rests on the prospect's
record where it has one and on the text of its evidence otherwise, and says which.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import anyio.to_thread

from leadwire.providers.reasoner import (
    Cell,
    Criterion,
    CriterionDraft,
    EnrichmentAsk,
    PlannedQuery,
    Prospect,
    QueryGroup,
    StrategyPlan,
    TargetKind,
    Verdict,
)
from leadwire.providers.rules_enrich import enrich_all
from leadwire.providers.rules_verify import judge_all
from leadwire.search.understand import understand
from leadwire.search.understand.geo import find_places
from leadwire.search.understand.geo_regions import LARGEST_ECONOMIES
from leadwire.search.understand.industry import GENERIC_WORDS, tokens, unexplained
from leadwire.search.understand.types import IndustryMatch, Range, Understanding

WEIGHTS = {
    "industry": 0.35,
    "location": 0.3,
    "role": 0.35,
    "department": 0.15,
    "seniority": 0.15,
    "size": 0.15,
    "founding": 0.15,
    "product": 0.25,
    "business_fit": 0.15,
}
MAX_REGION_QUERIES = 6


class RulesReasoner:
    name = "rules"

    async def write_criteria(self, query: str, target_kind: TargetKind, locale: str) -> list[CriterionDraft]:
        return write_criteria(query, target_kind, locale)

    async def plan_strategy(
        self, query: str, target_kind: TargetKind, locale: str, criteria: Sequence[Criterion]
    ) -> StrategyPlan:
        return plan_strategy(query, target_kind)

    async def verify(
        self, query: str, criteria: Sequence[Criterion], prospects: Sequence[Prospect]
    ) -> list[list[Verdict]]:
        active = [c for c in criteria if c.active]
        return await anyio.to_thread.run_sync(judge_all, query, active, list(prospects))

    async def enrich(self, ask: EnrichmentAsk, prospects: Sequence[Prospect]) -> list[Cell]:
        return await anyio.to_thread.run_sync(enrich_all, ask, list(prospects))


# -- criteria ----------------------------------------------------------------------------------


def write_criteria(query: str, target_kind: TargetKind, locale: str) -> list[CriterionDraft]:
    understood = understand(query)
    zh = locale == "zh"
    drafts: list[tuple[str, str, bool]] = []  # (type, description, required)
    if target_kind == "person":
        drafts.extend(_people_criteria(understood, zh))
    if understood.places:
        drafts.append(("location", _location_text(understood, target_kind, zh), True))
    known = [m for m in understood.industries if m.score >= 1.0]
    if understood.industries:
        named = known or list(understood.industries[:2])
        text = _industry_text(named)
        # Required even when the industry was only guessed by meaning: the request names an industry,
        # and a company outside it is no answer however sure the place is; the fit criterion (written
        # below, since a guess leaves words unexplained) weighs the request's own words beside it.
        drafts.append(("industry", f"属于以下行业：{text}" if zh else f"In the {text} industry", True))
    if understood.employees is not None:
        drafts.append(("size", _range_text(understood.employees, "employees", zh), True))
    if understood.founded is not None:
        drafts.append(("founding", _range_text(understood.founded, "founded", zh), True))
    if understood.products:
        products = ", ".join(understood.products)
        drafts.append(("product", f"生产或销售{products}" if zh else f"Makes or sells {products}", not known))
    substantive = any(kind in ("industry", "product", "role") for kind, _, _ in drafts)
    # A request the criteria above say in full ("chipmakers in Japan") gets no fit criterion: it
    # would only measure how far a page's wording is from the request's ("Semiconductors").
    if not substantive or _beyond_criteria(understood, target_kind):
        fit = f"符合需求：“{query}”" if zh else f"Fits the request: “{query}”"
        drafts.append(("business_fit", fit, not substantive))
    return _weighted(drafts, boost_fit=not substantive)


# Title words a people request uses that no company criterion explains.
_ROLE_WORDS = frozenset(
    {"manager", "director", "head", "chief", "officer", "executive", "lead", "leader", "vp", "president",
     "founder", "partner", "staff", "employee", "people", "person", "team", "contact", "decision", "maker"}
)  # fmt: skip


def _beyond_criteria(understood: Understanding, target_kind: TargetKind) -> list[str]:
    """The request's words that no industry, place, size or role criterion accounts for."""
    left = unexplained(understood.rest)
    if target_kind == "person":
        said = " ".join((*understood.roles, *understood.departments, *understood.seniorities))
        people = set(tokens(said)) | _ROLE_WORDS
        left = [word for word in left if word not in people]
    return left


def _people_criteria(understood: Understanding, zh: bool) -> list[tuple[str, str, bool]]:
    out = []
    if understood.roles:
        roles = ", ".join(understood.roles)
        out.append(("role", f"职位为{roles}之一" if zh else f"Holds a role such as {roles}", True))
    elif understood.departments:
        departments = ", ".join(understood.departments)
        out.append(("department", f"就职于{departments}部门" if zh else f"Works in {departments}", True))
    if understood.seniorities and not understood.roles:
        levels = ", ".join(s.replace("_", "-") for s in understood.seniorities)
        out.append(("seniority", f"职级为{levels}" if zh else f"Seniority: {levels}", False))
    return out


def _industry_text(named: Sequence[IndustryMatch]) -> str:
    """Every class asked for, cited by code so any reasoner reads the criterion back to the same classes:
    "Semiconductor Manufacturing (NAICS 334413)", or for a word that names several classes the
    word itself: "chemical (NAICS 3251, 3252, 3253, 3255, 3259)"."""
    codes = ", ".join(m.code for m in named)
    if len(named) <= 2:
        return " or ".join(f"{m.title} (NAICS {m.code})" for m in named)
    words = " or ".join(dict.fromkeys(m.phrase or m.title for m in named))
    return f"{words} (NAICS {codes})"


def _location_text(understood: Understanding, target_kind: TargetKind, zh: bool) -> str:
    names = " or ".join(place.text for place in understood.places)
    if zh:
        return f"工作地点位于{names}" if target_kind == "person" else f"总部位于{names}"
    return f"Works in {names}" if target_kind == "person" else f"Headquartered in {names}"


# What a range of each attribute is written as: bounded, open above, open below, and the Chinese label.
_RANGE_WORDS = {
    "employees": (
        "Has between {:,} and {:,} employees",
        "Has more than {:,} employees",
        "Has fewer than {:,} employees",
        "员工规模",
    ),
    "founded": ("Founded between {} and {}", "Founded after {}", "Founded before {}", "成立时间"),
}


def _range_text(value: Range, what: str, zh: bool) -> str:
    """Words the attribute reader reads back to the same range (an open end is written exclusive)."""
    between, above, below, label = _RANGE_WORDS[what]
    low, high = value.low, value.high
    if low is not None and high is not None:
        english = between.format(low, high)
    elif low is not None:
        english = above.format(low - 1)
    else:
        english = below.format((high or 0) + 1)
    return f"{label}（{english}）" if zh else english


def _weighted(drafts: list[tuple[str, str, bool]], *, boost_fit: bool) -> list[CriterionDraft]:
    raw = [WEIGHTS[kind] * (3.0 if kind == "business_fit" and boost_fit else 1.0) for kind, _, _ in drafts]
    total = sum(raw)
    weights = [round(w / total, 3) for w in raw]
    return [
        CriterionDraft(description=text, type=kind, weight=weight, required=required)
        for (kind, text, required), weight in zip(drafts, weights, strict=True)
    ]


# -- strategy ----------------------------------------------------------------------------------


def plan_strategy(query: str, target_kind: TargetKind) -> StrategyPlan:
    understood = understand(query)
    places = list(understood.places)
    countries = by_economy(understood.explicit_countries or understood.countries)
    location = countries[0] if len(countries) == 1 else ""
    where = f" in {' or '.join(p.text for p in places)}" if places else ""
    topic = _topic(understood)
    groups = [
        QueryGroup(
            angle="request",
            rationale="The request as written: pages that use its own words.",
            queries=(PlannedQuery(_company_side(query, understood, target_kind), location),),
        )
    ]
    industries = list(understood.industries[:2])
    if industries:
        groups.append(
            QueryGroup(
                angle="industry",
                rationale="Companies of the industry the request names, whatever words their pages use.",
                queries=tuple(PlannedQuery(f"{m.title} companies{where}", location) for m in industries),
            )
        )
    if understood.products:
        groups.append(
            QueryGroup(
                angle="products",
                rationale="Makers and sellers of the named products.",
                queries=tuple(
                    PlannedQuery(f"{p} manufacturer{where}", location) for p in understood.products
                ),
            )
        )
    if len(countries) > 1:
        groups.append(
            QueryGroup(
                angle="geography",
                rationale="Each country of the region on its own, so no one country crowds out the rest.",
                queries=tuple(
                    PlannedQuery(f"{topic} in {_country_name(code)}", code)
                    for code in countries[:MAX_REGION_QUERIES]
                ),
            )
        )
    additional = tuple(PlannedQuery(f"{m.title}{where}", location) for m in understood.industries[2:4])
    if topic and topic.casefold() != query.casefold():
        additional += (PlannedQuery(f"{topic}{where}", location),)
    return StrategyPlan(query_groups=tuple(groups), additional_queries=additional)


def by_economy(countries: frozenset[str]) -> list[str]:
    """Largest economies first (most companies), the rest by code: the order region queries take."""
    rank = {code: i for i, code in enumerate(LARGEST_ECONOMIES)}
    return sorted(countries, key=lambda code: (rank.get(code, len(rank)), code))


def _topic(understood: Understanding) -> str:
    """What is sought, without place, size or people words: an industry title, products, or the words."""
    if understood.industries:
        return f"{understood.industries[0].title} companies"
    if understood.products:
        return ", ".join(understood.products)
    words = [t for t in tokens(understood.rest) if t not in GENERIC_WORDS and len(t) > 2]
    return " ".join(words) or understood.query


def _company_side(query: str, understood: Understanding, target_kind: TargetKind) -> str:
    """For people, the companies they work at are what a company search can find."""
    if target_kind != "person":
        return query
    cleaned = query
    for role in understood.roles:
        cleaned = re.sub(re.escape(role) + r"s?\b", " ", cleaned, flags=re.IGNORECASE)
    cleaned = re.sub(r"^\s*(?:at|in|of|from)\b", " ", cleaned.strip(), flags=re.IGNORECASE)
    cleaned = " ".join(cleaned.split())
    return cleaned if len(cleaned) >= 3 else query


def _country_name(code: str) -> str:
    import pycountry

    country = pycountry.countries.get(alpha_2=code)
    name = str(getattr(country, "common_name", None) or getattr(country, "name", code))
    _, places = find_places(name)
    return name if places else code
