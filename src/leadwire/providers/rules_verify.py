"""The offline reasoner's judge: one verdict per criterion per prospect, from record and evidence.

Each criterion type reads its own description back through the query understanding (a place, a NAICS
class, a range, products, a role) and checks the prospect's record; where the record is silent it reads
the evidence pages, with less confidence. Every verdict is yes (the evidence shows it), no (the
evidence shows otherwise) or unclear (weak or missing evidence), and its reasoning says which evidence
it rests on. Industries are judged in ``rules_industry``. Business fit is the embedding similarity of
the request and what the prospect's pages say, with the request's own words as support.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from leadwire.providers import rules_industry
from leadwire.providers.reasoner import Criterion, Judged, Prospect, Verdict
from leadwire.search import embed
from leadwire.search.understand import understand
from leadwire.search.understand.attributes import find_company_attributes
from leadwire.search.understand.industry import GENERIC_WORDS, tokens, unexplained
from leadwire.search.understand.people import find_people_terms
from leadwire.search.understand.types import Range
from leadwire.taxonomy.titles import classify_title

_FIT_FLOOR, _FIT_SPAN = 0.25, 0.35  # cosine at which fit starts to count, and the span to full fit
_FIT_YES, _FIT_UNCLEAR = 0.7, 0.4  # fit scores that show a match, and that leave it open

Judge = Callable[[Criterion, Prospect, "Context"], Verdict]


class Context:
    """What is computed once per batch: the request's vector and the prospects' texts and vectors."""

    def __init__(self, query: str, prospects: Sequence[Prospect]) -> None:
        self.query = query
        self.beyond = [t for t in unexplained(understand(query).rest) if len(t) > 3]
        self.texts = [_text_of(p) for p in prospects]
        self._prospects = list(prospects)
        self._vectors: np.ndarray | None = None
        self._query_vector: np.ndarray | None = None

    def cosine(self, prospect: Prospect) -> float:
        if self._vectors is None:
            with embed.single_blas_thread():
                self._vectors = embed.encode([t[:1000] for t in self.texts])
                self._query_vector = embed.encode_query(self.query)
        index = self._prospects.index(prospect)
        assert self._query_vector is not None
        return float(self._vectors[index] @ self._query_vector)

    def text(self, prospect: Prospect) -> str:
        return self.texts[self._prospects.index(prospect)]


def judge_all(query: str, criteria: Sequence[Criterion], prospects: list[Prospect]) -> list[list[Verdict]]:
    context = Context(query, prospects)
    return [[_JUDGES.get(c.type, _business_fit)(c, p, context) for c in criteria] for p in prospects]


def _text_of(prospect: Prospect) -> str:
    parts = [prospect.name, prospect.title or "", prospect.industry or "", prospect.description or ""]
    parts += list(prospect.products) + list(prospect.technologies)
    parts += [f"{e.title}. {e.text}" for e in prospect.evidence]
    return "\n".join(p for p in parts if p)


def _refs_mentioning(prospect: Prospect, words: Sequence[str]) -> tuple[str, ...]:
    lowered = [w.casefold() for w in words if w]
    return tuple(
        e.url for e in prospect.evidence if any(w in f"{e.title} {e.text}".casefold() for w in lowered)
    )


# -- location ------------------------------------------------------------------------------------


def _location(criterion: Criterion, prospect: Prospect, context: Context) -> Verdict:
    places = understand(criterion.description).places
    countries = {code for place in places for code in place.countries}
    cities = [p.text for p in places if p.kind == "city"]
    where = ", ".join(x for x in (prospect.city, prospect.country) if x)
    refs = rules_industry.record_refs(prospect)
    if prospect.country:
        in_country = prospect.country in countries
        in_city = not cities or (prospect.city or "").casefold() in {c.casefold() for c in cities}
        if in_country and in_city:
            return _verdict(
                criterion, "yes", 1.0, f"Its record places it in {where}, as required.", 0.95, refs
            )
        if in_country:
            said = f"Its record places it in the country, in {prospect.city}: not the city asked for."
            return _verdict(criterion, "unclear", 0.5, said, 0.8, refs)
        said = f"Its record places it in {where}, not in the place asked for."
        return _verdict(criterion, "no", 0.0, said, 0.9, refs)
    names = [p.text for p in places]
    cited = _refs_mentioning(prospect, names)
    if cited:
        said = "Its pages name the place; no registered address is known (weak evidence)."
        return _verdict(criterion, "unclear", 0.6, said, 0.5, cited)
    said = "No address is known and its pages do not name the place."
    return _verdict(criterion, "unclear", 0.2, said, 0.3)


# -- industry ------------------------------------------------------------------------------------


def _industry(criterion: Criterion, prospect: Prospect, context: Context) -> Verdict:
    wanted = rules_industry.wanted_codes(criterion.description)
    if not wanted:
        return _business_fit(criterion, prospect, context)
    return rules_industry.judge(criterion, prospect, wanted)


# -- ranges --------------------------------------------------------------------------------------


def _size(criterion: Criterion, prospect: Prospect, context: Context) -> Verdict:
    wanted = find_company_attributes(criterion.description).employees
    return _in_range(criterion, prospect, wanted, prospect.employees, "head count", "employees")


def _founding(criterion: Criterion, prospect: Prospect, context: Context) -> Verdict:
    wanted = find_company_attributes(criterion.description).founded
    return _in_range(criterion, prospect, wanted, prospect.founded, "founding year", "founded in")


def _in_range(
    criterion: Criterion, prospect: Prospect, wanted: Range | None, value: int | None, what: str, unit: str
) -> Verdict:
    if wanted is None:
        return _verdict(
            criterion, "unclear", 0.5, f"The criterion names no {what} this reasoner can read.", 0.2
        )
    if value is None:
        return _verdict(criterion, "unclear", 0.3, f"Its {what} is not known (no evidence).", 0.3)
    shown = f"{value:,} {unit}" if unit == "employees" else f"{unit} {value}"
    refs = rules_industry.record_refs(prospect)
    if wanted.contains(value):
        return _verdict(
            criterion, "yes", 1.0, f"Its record is within the range asked for ({shown}).", 0.9, refs
        )
    return _verdict(criterion, "no", 0.0, f"Its record is outside the range asked for ({shown}).", 0.9, refs)


# -- products and fit ----------------------------------------------------------------------------


def _terms(description: str) -> list[str]:
    body = description.split(":", 1)[-1] if ":" in description else description
    attributes = find_company_attributes(body)
    words = [
        t for t in tokens(" ".join(attributes.products) or body) if t not in GENERIC_WORDS and len(t) > 2
    ]
    skip = {"makes", "sells", "make", "sell", "fits", "request", "the"}
    return [w for w in words if w not in skip]


def _product(criterion: Criterion, prospect: Prospect, context: Context) -> Verdict:
    terms = _terms(criterion.description)
    if not terms:
        return _business_fit(criterion, prospect, context)
    have = set(tokens(context.text(prospect)))
    found = [t for t in terms if t in have]
    share = len(found) / len(terms)
    refs = _refs_mentioning(prospect, found) or rules_industry.record_refs(prospect)
    if share >= 0.99:
        return _verdict(criterion, "yes", 1.0, f"Its record and pages name {', '.join(found)}.", 0.8, refs)
    if share >= 0.5:
        said = f"Its pages name {', '.join(found)} but not every product asked for."
        return _verdict(criterion, "unclear", 0.6, said, 0.6, refs)
    return _business_fit(criterion, prospect, context)


def _business_fit(criterion: Criterion, prospect: Prospect, context: Context) -> Verdict:
    cosine = context.cosine(prospect)
    score = min(1.0, max(0.0, (cosine - _FIT_FLOOR) / _FIT_SPAN))
    # The words no other criterion explains say what this one checks ("radar" of "chipmakers working
    # on radar"); when there are none (a place-only request), every word of the request.
    request_words = context.beyond or [t for t in _terms(context.query) if len(t) > 3]
    have = set(tokens(context.text(prospect)))
    shared = [t for t in request_words if t in have]
    if request_words:
        score = 0.6 * score + 0.4 * (len(shared) / len(request_words))
    refs = tuple(e.url for e in prospect.evidence[:2]) or rules_industry.record_refs(prospect)
    said = f"; its pages use {', '.join(shared[:5])}" if shared else ""
    judged: Judged = "yes" if score >= _FIT_YES else "unclear" if score >= _FIT_UNCLEAR else "no"
    closeness = {"yes": "close to", "unclear": "related to", "no": "far from"}[judged]
    return _verdict(
        criterion, judged, round(score, 3), f"What its pages say is {closeness} the request{said}.", 0.6, refs
    )


# -- people --------------------------------------------------------------------------------------


def _role(criterion: Criterion, prospect: Prospect, context: Context) -> Verdict:
    wanted = find_people_terms(criterion.description)
    title = prospect.title or ""
    if not title:
        return _verdict(criterion, "unclear", 0.3, "The person's title is not known (no evidence).", 0.3)
    found = classify_title(title)
    refs = tuple(u for u in (prospect.linkedin_url,) if u) or rules_industry.record_refs(prospect)
    role_hit = any(_same_role(role, title) for role in wanted.roles)
    dept_hit = found.department in wanted.departments if wanted.departments else True
    level_hit = found.seniority in wanted.seniorities if wanted.seniorities else True
    if role_hit or (wanted.roles and dept_hit and level_hit):
        return _verdict(criterion, "yes", 1.0, f"Title “{title}” is the role asked for.", 0.85, refs)
    if criterion.type == "department" and dept_hit:
        return _verdict(criterion, "yes", 1.0, f"Title “{title}” is in the department asked for.", 0.8, refs)
    if criterion.type == "seniority" and level_hit:
        return _verdict(criterion, "yes", 1.0, f"Title “{title}” is at the level asked for.", 0.8, refs)
    if dept_hit and wanted.departments:
        return _verdict(
            criterion,
            "unclear",
            0.5,
            f"Title “{title}” is in the right department, another level.",
            0.7,
            refs,
        )
    return _verdict(criterion, "no", 0.0, f"Title “{title}” is not the role asked for.", 0.8, refs)


def _same_role(role: str, title: str) -> bool:
    role_class, title_class = classify_title(role), classify_title(title)
    if role.casefold() in title.casefold():
        return True
    return (
        role_class.department is not None
        and role_class.department == title_class.department
        and role_class.seniority == title_class.seniority
        and role_class.rank == title_class.rank
    )


def _verdict(
    criterion: Criterion,
    judged: Judged,
    score: float,
    reasoning: str,
    confidence: float,
    refs: tuple[str, ...] = (),
) -> Verdict:
    return Verdict(
        criterion.id, score, reasoning, round(confidence, 2), tuple(dict.fromkeys(refs))[:3], judged
    )


_JUDGES: dict[str, Judge] = {
    "location": _location,
    "industry": _industry,
    "size": _size,
    "founding": _founding,
    "product": _product,
    "technology": _product,
    "role": _role,
    "department": _role,
    "seniority": _role,
    "business_fit": _business_fit,
}
