"""The reasoner port: what turns a prospect-list request into criteria and a search strategy, and
judges each found prospect against each criterion from its evidence.

Adapters: the offline rules-and-embeddings reasoner (``providers.rules_reasoner``, the default) and
any OpenAI-compatible chat endpoint (``providers.openai_reasoner``). ``FallbackReasoner`` wraps a
model: a step whose answer fails or does not fit the shape is answered by the offline reasoner and
counted, so a flaky model never fails a run.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from prometheus_client import Counter

log = logging.getLogger("leadwire.reasoner")
REASONER_FALLBACKS = Counter(
    "leadwire_reasoner_fallbacks_total", "Reasoner steps answered offline after the model failed", ["step"]
)

TargetKind = Literal["company", "person"]
Judged = Literal["yes", "no", "unclear"]
JUDGEMENTS: tuple[Judged, ...] = ("yes", "no", "unclear")
CRITERION_TYPES = (
    "location",
    "industry",
    "size",
    "founding",
    "product",
    "technology",
    "revenue",
    "role",
    "department",
    "seniority",
    "business_fit",
)


@dataclass(frozen=True, slots=True)
class CriterionDraft:
    """A criterion as a reasoner writes it; the service gives it an id. ``description`` is self-contained
    ("Headquartered in Germany"): any reasoner can judge a criterion another one wrote."""

    description: str
    type: str
    weight: float
    required: bool


@dataclass(frozen=True, slots=True)
class Criterion:
    id: str
    description: str
    type: str
    weight: float
    required: bool
    active: bool = True


@dataclass(frozen=True, slots=True)
class PlannedQuery:
    text: str
    user_location: str = ""  # ISO 3166-1 alpha-2, or "" for none


@dataclass(frozen=True, slots=True)
class QueryGroup:
    angle: str
    rationale: str
    queries: tuple[PlannedQuery, ...]


@dataclass(frozen=True, slots=True)
class StrategyPlan:
    query_groups: tuple[QueryGroup, ...]
    additional_queries: tuple[PlannedQuery, ...] = ()

    def all_queries(self) -> list[PlannedQuery]:
        """Every planned query once, groups first, in plan order."""
        seen: set[tuple[str, str]] = set()
        ordered = []
        for query in [q for g in self.query_groups for q in g.queries] + list(self.additional_queries):
            key = (query.text.casefold(), query.user_location)
            if key not in seen:
                seen.add(key)
                ordered.append(query)
        return ordered


@dataclass(frozen=True, slots=True)
class Evidence:
    """A document about a prospect: what a verdict can cite."""

    url: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Prospect:
    """A candidate company or person, with what is known of it and the documents found about it.

    ``key`` identifies it across runs (a company's domain, a person's profile URL). Unknown facts are
    None: a reasoner judges from the record where it has one and from the evidence otherwise.
    """

    key: str
    kind: TargetKind
    name: str
    website: str | None = None
    industry: str | None = None
    industry_code: str | None = None
    country: str | None = None
    city: str | None = None
    employees: int | None = None
    founded: int | None = None
    description: str | None = None
    technologies: tuple[str, ...] = ()
    products: tuple[str, ...] = ()
    linkedin_url: str | None = None
    # A person's own facts; the company facts above are then their employer's.
    title: str | None = None
    company: str | None = None
    email: str | None = None
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    """How one prospect fares on one criterion: ``verdict`` yes (the evidence shows it), no (the
    evidence shows otherwise) or unclear (evidence weak or missing); ``score`` 0..1 places it for
    ranking; the reasoning names the evidence and its strength; how sure the reasoner is (0..1); the
    URLs the judgement rests on."""

    criterion_id: str
    score: float
    reasoning: str
    confidence: float
    references: tuple[str, ...] = ()
    verdict: Judged | None = None  # None: read from the score (``judged_from_score``)

    @property
    def judged(self) -> Judged:
        return self.verdict if self.verdict is not None else judged_from_score(self.score)


def judged_from_score(score: float) -> Judged:
    """The verdict a bare score stands for: what an answer without one (an older stored evaluation)
    is read as."""
    return "yes" if score >= 0.75 else "unclear" if score >= 0.4 else "no"


EnrichmentFormat = Literal["text", "number", "date", "options", "email", "phone", "url"]
ENRICHMENT_FORMATS: tuple[EnrichmentFormat, ...] = (
    "text",
    "number",
    "date",
    "options",
    "email",
    "phone",
    "url",
)
# The formats a reasoner answers from a prospect's record and pages; email and phone come from the
# contacts path and the pages' own numbers (`websets/cells.py`).
REASONED_FORMATS: tuple[EnrichmentFormat, ...] = ("text", "number", "date", "options", "url")


@dataclass(frozen=True, slots=True)
class EnrichmentAsk:
    """A column asked of every prospect: what it holds, its format, and for `options` the labels."""

    description: str
    format: EnrichmentFormat
    options: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Cell:
    """One prospect's answer to an `EnrichmentAsk`. ``result`` is None when the record and pages do not
    give it (never a guess); values are text (a number's digits, an ISO date or year, an option's label,
    a URL). The reasoning says where it came from, or why nothing was found; the references are the URLs
    it rests on."""

    result: tuple[str, ...] | None
    reasoning: str
    references: tuple[str, ...] = ()


class ReasonerError(Exception):
    """A step the reasoner could not answer (unreachable model, malformed answer)."""


@runtime_checkable
class Reasoner(Protocol):
    name: str

    async def write_criteria(self, query: str, target_kind: TargetKind, locale: str) -> list[CriterionDraft]:
        """The criteria a prospect must meet, weights summing to 1."""
        ...

    async def plan_strategy(
        self, query: str, target_kind: TargetKind, locale: str, criteria: Sequence[Criterion]
    ) -> StrategyPlan:
        """The searches that find candidates, grouped by angle."""
        ...

    async def verify(
        self, query: str, criteria: Sequence[Criterion], prospects: Sequence[Prospect]
    ) -> list[list[Verdict]]:
        """One verdict per active criterion for each prospect, in the order given."""
        ...

    async def enrich(self, ask: EnrichmentAsk, prospects: Sequence[Prospect]) -> list[Cell]:
        """One cell per prospect, in the order given, for a format of `REASONED_FORMATS`."""
        ...


@dataclass
class FallbackReasoner:
    """A model reasoner whose failed steps are answered by the offline one, and counted."""

    primary: Reasoner
    fallback: Reasoner
    fallbacks: dict[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.primary.name

    def _fell_back(self, step: str, exc: Exception) -> None:
        self.fallbacks[step] = self.fallbacks.get(step, 0) + 1
        REASONER_FALLBACKS.labels(step=step).inc()
        log.warning("reasoner %s failed at %s, answered offline: %s", self.primary.name, step, exc)

    async def write_criteria(self, query: str, target_kind: TargetKind, locale: str) -> list[CriterionDraft]:
        try:
            drafts = await self.primary.write_criteria(query, target_kind, locale)
            if not drafts:
                raise ReasonerError("no criteria")
            return drafts
        except Exception as exc:  # any failure of the model degrades, never fails the run
            self._fell_back("criteria", exc)
            return await self.fallback.write_criteria(query, target_kind, locale)

    async def plan_strategy(
        self, query: str, target_kind: TargetKind, locale: str, criteria: Sequence[Criterion]
    ) -> StrategyPlan:
        try:
            plan = await self.primary.plan_strategy(query, target_kind, locale, criteria)
            if not plan.all_queries():
                raise ReasonerError("no queries")
            return plan
        except Exception as exc:
            self._fell_back("strategy", exc)
            return await self.fallback.plan_strategy(query, target_kind, locale, criteria)

    async def verify(
        self, query: str, criteria: Sequence[Criterion], prospects: Sequence[Prospect]
    ) -> list[list[Verdict]]:
        try:
            verdicts = await self.primary.verify(query, criteria, prospects)
            _check_verdicts(verdicts, criteria, prospects)
            return verdicts
        except Exception as exc:
            self._fell_back("verify", exc)
            return await self.fallback.verify(query, criteria, prospects)

    async def enrich(self, ask: EnrichmentAsk, prospects: Sequence[Prospect]) -> list[Cell]:
        try:
            cells = await self.primary.enrich(ask, prospects)
            _check_cells(cells, ask, prospects)
            return cells
        except Exception as exc:
            self._fell_back("enrich", exc)
            return await self.fallback.enrich(ask, prospects)


def _check_cells(cells: list[Cell], ask: EnrichmentAsk, prospects: Sequence[Prospect]) -> None:
    if len(cells) != len(prospects):
        raise ReasonerError(f"{len(cells)} cells for {len(prospects)} prospects")
    for cell in cells:
        if cell.result is not None and not cell.result:
            raise ReasonerError("a cell's result is empty rather than null")
        if ask.format == "options" and cell.result and not set(cell.result) <= set(ask.options):
            raise ReasonerError("a cell's option is not one of those asked")


def _check_verdicts(
    verdicts: list[list[Verdict]], criteria: Sequence[Criterion], prospects: Sequence[Prospect]
) -> None:
    active = {c.id for c in criteria if c.active}
    if len(verdicts) != len(prospects):
        raise ReasonerError(f"{len(verdicts)} verdict lists for {len(prospects)} prospects")
    for one in verdicts:
        if {v.criterion_id for v in one} != active:
            raise ReasonerError("verdicts do not cover exactly the active criteria")
        if any(not 0.0 <= v.score <= 1.0 or not 0.0 <= v.confidence <= 1.0 for v in one):
            raise ReasonerError("a verdict's score or confidence is outside 0..1")
