"""A likely reporting tree of a company's contacts, inferred from their job titles only.

The tree is an inference, not a verified reporting structure: each edge carries
the estimated chance that it is right, and people with no plausible manager stay unattached.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from leadwire.providers.contacts import ContactRecord
from leadwire.taxonomy import DEPARTMENTS, SENIORITIES
from leadwire.taxonomy.titles import (
    TOP_LEVEL,
    TitleClass,
    classify_title,
    contains_cjk,
    department_words,
    english_tokens,
)

__all__ = [
    "CONFIDENCE",
    "DEPARTMENTS",
    "NOTE",
    "SENIORITIES",
    "Edge",
    "Hierarchy",
    "HierarchyNode",
    "TitleClass",
    "classify_title",
    "infer_hierarchy",
]

NOTE = (
    "Reporting lines are inferred from job titles only (seniority and department) and are not a verified "
    "reporting structure; an edge's confidence is the estimated chance that it is right, and people with "
    "no plausible manager among the returned contacts are left unattached."
)

# Chance that each kind of single-candidate evidence is right. On the sandbox world every one of them
# measures 1.00 (bench/hierarchy_quality.py); real companies are messier and a contacts search returns
# a partial list, so these are capped below 1 and lowered where a manager may simply be missing.
CONFIDENCE = {
    "top_of_company": 0.95,  # nobody more senior was returned: the person belongs to the company
    "chief_to_top": 0.95,  # a chief officer reports to the chief executive
    "same_department_adjacent": 0.95,  # the next level up in the same department
    "head_to_top": 0.9,  # a VP or director with nobody above in the department reports to the CEO
    "same_department_skip": 0.85,  # the nearest level up in the department is further away
    "department_chief": 0.85,  # the department's chief officer, levels missing in between
    "lone_manager_to_top": 0.8,  # a manager with nobody above in the department
    "lone_contributor_to_top": 0.6,  # an individual contributor likewise: a manager may be unlisted
}
TIE_BREAK_WEIGHT = 0.5  # a title-word tie-break is weak evidence: it only halves a rival's weight
MIN_CONFIDENCE = 0.3  # below this an edge is a guess: leave the person unattached instead


@dataclass(frozen=True, slots=True)
class HierarchyNode:
    """A node of the inferred tree: the company (node `n0`, kind `company`) or one contact (kind `person`)."""

    # Also the wire shape of `research.contacts`' `nodes`: the fields are the wire names.

    id: str
    kind: str
    title: str | None
    name: str | None
    email: str | None
    status: str | None
    linkedin_url: str | None
    department: str | None
    seniority: str | None
    sort_order: int

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class Edge:
    """``source`` reports to (or, for the top person, belongs to) ``target``."""

    source: str
    target: str
    relation: str
    confidence: float
    sort_order: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "from": self.source,
            "to": self.target,
            "relation": self.relation,
            "confidence": self.confidence,
            "sort_order": self.sort_order,
        }


@dataclass(frozen=True, slots=True)
class Hierarchy:
    nodes: list[HierarchyNode]
    edges: list[Edge]
    note: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "nodes": [n.as_dict() for n in self.nodes],
            "edges": [e.as_dict() for e in self.edges],
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class _Person:
    node_id: str
    order: int
    contact: ContactRecord
    cls: TitleClass
    words: frozenset[str]

    @property
    def level(self) -> int | None:
        return self.cls.level


def infer_hierarchy(company_name: str | None, domain: str, contacts: Sequence[ContactRecord]) -> Hierarchy:
    """Build the company node, one node per contact (most senior first) and the likely reporting edges."""
    people = _people(contacts)
    company = HierarchyNode("n0", "company", None, company_name or domain, None, None, None, None, None, 0)
    nodes = [company] + [_node(p) for p in people]
    edges: list[Edge] = []
    for person in people:
        link = _manager_of(person, people)
        if link is None:
            continue
        target, relation, confidence = link
        edges.append(Edge(person.node_id, target, relation, round(confidence, 2), len(edges) + 1))
    return Hierarchy(nodes=nodes, edges=edges, note=NOTE)


def _people(contacts: Sequence[ContactRecord]) -> list[_Person]:
    classes = [classify_title(c.position or "") for c in contacts]
    order = sorted(range(len(contacts)), key=lambda i: (classes[i].rank, _dept_order(classes[i]), i))
    return [
        _Person(f"n{pos}", pos, contacts[i], classes[i], _title_words(contacts[i].position))
        for pos, i in enumerate(order, start=1)
    ]


def _dept_order(cls: TitleClass) -> int:
    return DEPARTMENTS.index(cls.department) if cls.department in DEPARTMENTS else len(DEPARTMENTS)


def _node(p: _Person) -> HierarchyNode:
    c = p.contact
    name = c.full_name or " ".join(x for x in (c.first_name, c.last_name) if x) or None
    return HierarchyNode(
        id=p.node_id,
        kind="person",
        title=c.position,
        name=name,
        email=c.email,
        status=c.status,
        linkedin_url=c.linkedin_url,
        department=p.cls.department,
        seniority=p.cls.seniority,
        sort_order=p.order,
    )


_LEVEL_WORDS = frozenset(
    [
        "senior",
        "junior",
        "lead",
        "principal",
        "staff",
        "head",
        "director",
        "manager",
        "vice",
        "president",
        "chief",
        "officer",
        "executive",
        "associate",
        "assistant",
        "specialist",
        "team",
        "supervisor",
        "intern",
    ]
)


def _title_words(title: str | None) -> frozenset[str]:
    """Words naming a team or speciality (not a level or the department) to break ties between managers.

    Chinese titles are not segmented into words, so they give none.
    """
    if not title or contains_cjk(title):
        return frozenset()
    ignored = _LEVEL_WORDS | department_words()
    return frozenset(w for w in english_tokens(title) if w not in ignored and w.rstrip("s") not in ignored)


def _manager_of(p: _Person, people: Sequence[_Person]) -> tuple[str, str, float] | None:
    level = p.level
    if level is None:
        return None
    above = [q for q in people if q.level is not None and q.level < level]
    if not above:
        return "n0", "belongs_to", CONFIDENCE["top_of_company"]
    top = [q for q in above if q.level == TOP_LEVEL]
    if level == 1:
        return _pick(p, top, "chief_to_top")
    same = [q for q in above if q.level != TOP_LEVEL and q.cls.department == p.cls.department]
    if p.cls.department is not None and same:
        nearest = max(q.level or 0 for q in same)
        kind = "same_department_adjacent" if nearest == level - 1 else "same_department_skip"
        if nearest == 1 and level > 2:
            kind = "department_chief"
        return _pick(p, [q for q in same if q.level == nearest], kind)
    if p.cls.department is None and level > 3:
        return None  # neither a department nor a senior title: any manager would be a guess
    # Nobody above in the department: its most senior person answers to the chief executive.
    kind = "head_to_top" if level <= 3 else "lone_manager_to_top" if level == 4 else "lone_contributor_to_top"
    return _pick(p, top, kind)


def _pick(p: _Person, candidates: list[_Person], kind: str) -> tuple[str, str, float] | None:
    if not candidates:
        return None
    overlap = {q.node_id: len(p.words & q.words) for q in candidates}
    best = max(overlap.values())
    tied = [q for q in candidates if overlap[q.node_id] == best]
    # Equal candidates split the confidence; one a shared title word ruled out still counts for half.
    confidence = CONFIDENCE[kind] / (len(tied) + TIE_BREAK_WEIGHT * (len(candidates) - len(tied)))
    if confidence < MIN_CONFIDENCE:
        return None
    return min(tied, key=lambda q: q.order).node_id, "reports_to", confidence
