"""The offline reasoner's enrichment cells: a column's answer from a prospect's record, else its pages.

A description is read for the record fields it names (everyday words, not rows: "employees", "founded",
"headquarters"); a field the record holds answers it and cites the company's website. Otherwise the
pages are read: the passage that shares most of the description's content words, the number or date
in it, or the page whose address or title names what is asked. An `options` column is settled by
meaning: each label against the record's industry and description and the pages' passages, with the
multilingual sentence encoder; a label only wins by a margin, else the cell stays empty and says which
labels it could not tell apart. Nothing found is `result: None` with the reason, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from leadwire.providers.reasoner import Cell, EnrichmentAsk, Prospect
from leadwire.search.text import fold, light_stem, split_passages

# Chosen on the tuning fold of the real dev split (bench/enrichment_quality.py), reported on the other.
OPTION_FLOOR = 0.1  # the best label's similarity must reach this
OPTION_MARGIN = 0.02  # and beat the runner-up by this much
MAX_PASSAGES = 24
PASSAGE_CHARS = 300

# The record fields a description may name, by the everyday words that name them.
FIELD_WORDS: dict[str, tuple[str, ...]] = {
    "employees": ("employee", "staff", "headcount", "workforce", "people", "size"),
    "founded": ("founded", "founding", "established", "incorporated", "inception", "since"),
    "industry": ("industry", "sector", "vertical"),
    "country": ("country", "nation"),
    "city": ("city", "town", "headquarters", "hq", "based", "located", "location"),
    "description": ("description", "summary", "about", "overview"),
    "products": ("product", "offering", "sell", "make", "manufacture", "service"),
    "technologies": ("technology", "stack", "software", "tool", "platform"),
    "website": ("website", "homepage", "site", "domain"),
    "linkedin_url": ("linkedin",),
    "title": ("title", "role", "position", "job"),
}
FIELDS_BY_FORMAT: dict[str, tuple[str, ...]] = {
    "number": ("employees", "founded"),
    "date": ("founded",),
    "text": ("industry", "country", "city", "description", "products", "technologies", "title"),
    "url": ("linkedin_url", "website"),
}
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "by",
        "with",
        "from",
        "its",
        "it",
        "this",
        "that",
        "what",
        "which",
        "who",
        "how",
        "does",
        "do",
        "did",
        "company",
        "company's",
        "their",
        "they",
        "has",
        "have",
        "many",
        "much",
        "number",
        "date",
        "when",
        "where",
        "year",
        "page",
        "url",
        "link",
    ]
)
_NUMBER = re.compile(
    r"(?<![\w.])(\d{1,3}(?:[,.\u202f ]\d{3})+|\d+(?:\.\d+)?)\s*(k|m|million|thousand)?\b", re.I
)
_ISO_DATE = re.compile(r"\b(1[89]\d\d|20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b")
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")


def content_words(description: str) -> list[str]:
    """The stems of a description's words that say what is asked (no function words)."""
    words = re.findall(r"\w+", fold(description))
    return [light_stem(w) for w in words if w not in STOP_WORDS and len(w) > 1]


def enrich_all(ask: EnrichmentAsk, prospects: Sequence[Prospect]) -> list[Cell]:
    if ask.format == "options":
        return [
            _option(ask, p, strengths)
            for p, strengths in zip(prospects, all_strengths(ask, prospects), strict=True)
        ]
    return [_answer(ask, p) for p in prospects]


def _answer(ask: EnrichmentAsk, prospect: Prospect) -> Cell:
    words = content_words(ask.description)
    field = _named_field(words, FIELDS_BY_FORMAT.get(ask.format, ()))
    if field is not None:
        value = _field_value(prospect, field)
        if value:
            return Cell((value,), f"From the company's record ({field}).", _site(prospect))
    if ask.format == "url":
        return _page_url(words, prospect)
    return _from_passages(ask.format, words, prospect)


def _named_field(words: Sequence[str], fields: Sequence[str]) -> str | None:
    stems = set(words)
    for field in fields:
        if stems & {light_stem(w) for w in FIELD_WORDS[field]}:
            return field
    return None


def _field_value(prospect: Prospect, field: str) -> str | None:
    value = getattr(prospect, field)
    if isinstance(value, tuple):
        return ", ".join(value) or None
    if field == "website" and value and "://" not in value:
        return f"https://{value}"
    return None if value is None else str(value)


def _site(prospect: Prospect) -> tuple[str, ...]:
    return (prospect.website,) if prospect.website else ()


@dataclass(frozen=True, slots=True)
class _Passage:
    text: str
    url: str


def _passages(prospect: Prospect) -> list[_Passage]:
    found = [_Passage(p, e.url) for e in prospect.evidence for p in split_passages(e.text) if p.strip()]
    return found[: MAX_PASSAGES * 4]


def _overlap(words: Sequence[str], passage: str) -> int:
    stems = {light_stem(w) for w in re.findall(r"\w+", fold(passage))}
    return sum(1 for w in set(words) if w in stems)


def _from_passages(format: str, words: Sequence[str], prospect: Prospect) -> Cell:
    read = len(prospect.evidence)
    ranked = sorted(
        ((_overlap(words, p.text), i, p) for i, p in enumerate(_passages(prospect))),
        key=lambda t: (-t[0], t[1]),
    )
    for hits, _, passage in ranked:
        if hits == 0:
            break
        value = _value_in(format, passage.text, words)
        if value is not None:
            quoted = passage.text[:PASSAGE_CHARS]
            return Cell((value,), f'From the page: "{quoted}"', (passage.url,))
    return Cell(None, f"None of the {read} pages read says it.", ())


def _value_in(format: str, passage: str, words: Sequence[str]) -> str | None:
    """The value of `format` in the passage nearest to the description's words (a passage may hold
    several numbers or dates)."""
    if format == "text":
        sentences = [x.strip() for x in re.split(r"(?<=[.!?。])\s+", passage) if x.strip()]
        best = max(sentences, key=lambda x: _overlap(words, x), default=passage.strip())
        return best[:PASSAGE_CHARS]
    if format == "number":
        match = _nearest(_NUMBER.finditer(passage), passage, words)
        if match is None:
            return None
        digits = re.sub(r"[,.\u202f ](?=\d{3}\b)", "", match.group(1))
        scale = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}.get((match.group(2) or "").lower(), 1)
        number = float(digits) * scale
        return str(int(number)) if number.is_integer() else str(number)
    if format == "date":
        match = _nearest(_ISO_DATE.finditer(passage), passage, words) or _nearest(
            _YEAR.finditer(passage), passage, words
        )
        return match.group(0) if match else None
    return None


def _nearest(matches: Iterable[re.Match[str]], passage: str, words: Sequence[str]) -> re.Match[str] | None:
    wanted = set(words)
    anchors = [m.start() for m in re.finditer(r"\w+", fold(passage)) if light_stem(m.group(0)) in wanted]
    found = list(matches)
    if not found:
        return None
    if not anchors:
        return found[0]
    return min(found, key=lambda m: min(abs(m.start() - a) for a in anchors))


def _page_url(words: Sequence[str], prospect: Prospect) -> Cell:
    best = max(
        prospect.evidence,
        key=lambda e: _overlap(words, f"{e.title} {re.sub(r'[/_.-]', ' ', e.url)}"),
        default=None,
    )
    if best is not None and _overlap(words, f"{best.title} {re.sub(r'[/_.-]', ' ', best.url)}") > 0:
        return Cell((best.url,), f'The page titled "{best.title[:120]}".', (best.url,))
    return Cell(None, f"None of the {len(prospect.evidence)} pages read is the page asked for.", ())


# -- options -----------------------------------------------------------------------------------


def option_strengths(ask: EnrichmentAsk, prospect: Prospect) -> np.ndarray | None:
    """How close in meaning each label is to the prospect: the mean of its two best passages' cosine
    (its record's industry, description and products count as passages); None with nothing to read."""
    return all_strengths(ask, [prospect])[0]


def all_strengths(ask: EnrichmentAsk, prospects: Sequence[Prospect]) -> list[np.ndarray | None]:
    """`option_strengths` of each prospect, their passages encoded in one call."""
    from leadwire.search.embed import encode, encode_query

    texts_of = [_option_texts(p) for p in prospects]
    flat = [text for texts in texts_of for text in texts]
    if not flat:
        return [None for _ in prospects]
    # The same labels for every item of a column: each encoded once per process (a cached query).
    labels = np.stack([encode_query(f"{ask.description}: {label}") for label in ask.options])
    similarity = encode(flat) @ labels.T
    found: list[np.ndarray | None] = []
    start = 0
    for texts in texts_of:
        if not texts:
            found.append(None)
            continue
        scores = np.sort(similarity[start : start + len(texts)], axis=0)[::-1]  # per label, best first
        found.append(scores[: min(2, len(texts))].mean(axis=0))
        start += len(texts)
    return found


def _option_texts(prospect: Prospect) -> list[str]:
    texts = [t for t in (prospect.industry, prospect.description, ", ".join(prospect.products)) if t]
    return texts + [p.text[:PASSAGE_CHARS] for p in _passages(prospect)[:MAX_PASSAGES]]


def choose_option(strengths: np.ndarray, floor: float, margin: float) -> tuple[int, float, float, bool]:
    """The best label's index, its strength, the runner-up's, and whether it wins (floor and margin)."""
    order = np.argsort(-strengths)
    best = int(order[0])
    second = float(strengths[order[1]]) if len(order) > 1 else -1.0
    top = float(strengths[best])
    return best, top, second, top >= floor and top - second >= margin


def _option(ask: EnrichmentAsk, prospect: Prospect, strengths: np.ndarray | None) -> Cell:
    if strengths is None:
        return Cell(None, "The company's record and pages say nothing to choose from.", ())
    best, top, second, wins = choose_option(strengths, OPTION_FLOOR, OPTION_MARGIN)
    if not wins:
        runner = ask.options[int(np.argsort(-strengths)[1])] if len(ask.options) > 1 else ""
        reason = f"The record and pages do not settle it between {ask.options[best]!r} and {runner!r}."
        return Cell(None, reason, ())
    refs = tuple(dict.fromkeys(e.url for e in prospect.evidence[:2])) or _site(prospect)
    return Cell(
        (ask.options[best],),
        f"Closest in meaning to the company's industry, description and pages "
        f"({top:.2f} against {second:.2f} for the next label).",
        refs,
    )
