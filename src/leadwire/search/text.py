"""Text handling shared by the search index builder and the query side.

Splits queries into Latin terms and CJK bigrams, builds safe FTS5 MATCH
expressions, cuts documents into passages and picks the passages to highlight.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

# FTS5's porter/unicode61 pair sees letters and digits as token characters; so do we.
_LATIN_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9\u00c0-\u024f])|(?<=[。！？；])|\n+")

# Words that carry no topic in a search box; dropping them keeps the MATCH cheap.
# fmt: off
STOPWORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "in", "into",
    "is", "it", "its", "of", "on", "or", "that", "the", "their", "this", "to", "was", "were",
    "will", "with", "about", "over", "per", "via", "than", "vs",
))
# fmt: on

MAX_PASSAGE_CHARS = 400
MIN_PASSAGE_CHARS = 60


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query cut into what the two FTS5 tables can match."""

    terms: tuple[str, ...]
    bigrams: tuple[str, ...]

    @property
    def empty(self) -> bool:
        return not self.terms and not self.bigrams


def fold(text: str) -> str:
    """Lower-case and strip diacritics, as ``unicode61 remove_diacritics 2`` does."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def has_cjk(text: str) -> bool:
    return _CJK_RUN.search(text) is not None


def cjk_bigrams(text: str) -> list[str]:
    """Overlapping character bigrams of every CJK run; a one-character run stands alone."""
    grams: list[str] = []
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            grams.append(run)
        grams.extend(run[i : i + 2] for i in range(len(run) - 1))
    return grams


def cjk_index_body(*parts: str) -> str:
    """The text stored in the CJK table: bigrams separated by spaces, so unicode61 sees one token each."""
    return " ".join(gram for part in parts for gram in cjk_bigrams(part))


def parse_query(query: str) -> ParsedQuery:
    """Latin terms (folded, stopwords dropped, order kept, duplicates removed) and CJK bigrams."""
    latin = _CJK_RUN.sub(" ", query)
    terms = _unique(t for t in _LATIN_TOKEN.findall(fold(latin)) if t not in STOPWORDS)
    if not terms:
        # A query made only of stopwords still deserves an answer.
        terms = _unique(_LATIN_TOKEN.findall(fold(latin)))
    return ParsedQuery(terms=tuple(terms), bigrams=tuple(_unique(cjk_bigrams(query))))


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)


def quote(token: str) -> str:
    """An FTS5 string literal; doubling quotes makes any user text a plain token, never syntax."""
    return '"' + token.replace('"', '""') + '"'


def any_of(tokens: Sequence[str]) -> str:
    return " OR ".join(quote(t) for t in tokens)


def column_phrase(column: str, words: Sequence[str]) -> str:
    """``column : "w1 w2"`` — a phrase restricted to one column."""
    return f"{column} : {quote(' '.join(words))}"


def domain_words(domain: str) -> list[str]:
    """The tokens unicode61 makes of a host name, for a phrase pre-filter on the domain column."""
    return _LATIN_TOKEN.findall(fold(domain))


def split_passages(text: str) -> list[str]:
    """Sentences, with very short ones joined to the next and long ones cut at a word boundary."""
    return [text[a:b] for a, b in passage_spans(text)]


def passage_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the passages of ``split_passages``, whitespace trimmed."""
    spans: list[tuple[int, int]] = []
    pending: tuple[int, int] | None = None
    for start, end in _sentence_spans(text):
        pending = (pending[0], end) if pending else (start, end)
        if pending[1] - pending[0] >= MIN_PASSAGE_CHARS:
            spans.extend(_cut_long(text, *pending))
            pending = None
    if pending:
        if spans and pending[1] - spans[-1][0] < MAX_PASSAGE_CHARS:
            spans[-1] = (spans[-1][0], pending[1])
        else:
            spans.append(pending)
    return spans


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    trimmed = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            trimmed.append((a, b))
    return trimmed


def _cut_long(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    while end - start > MAX_PASSAGE_CHARS:
        cut = text.rfind(" ", start + MIN_PASSAGE_CHARS, start + MAX_PASSAGE_CHARS)
        cut = cut if cut > start else start + MAX_PASSAGE_CHARS
        out.append((start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if end > start:
        out.append((start, end))
    return out


def first_passage(text: str, limit: int = 240) -> str:
    """The opening passage of a document, at most ``limit`` characters cut at a word boundary."""
    head = text.strip()[: limit * 2]
    passages = split_passages(head)
    return clip(passages[0] if passages else head, limit)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a word boundary when one is near (CJK has none)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit + 1)
    return text[: cut if cut > limit // 2 else limit]


def pick_highlights(text: str, query: ParsedQuery, count: int = 3) -> list[str]:
    """The ``count`` passages of ``text`` that match the query best, best first.

    A passage scores by the distinct query terms it contains (matched by stem prefix,
    so "companies" finds "company") plus the share of the query's CJK bigrams it holds.
    With no match at all, the opening passage stands in.
    """
    pattern = _terms_pattern(query.terms)
    scored: list[tuple[float, int, str]] = []
    for position, passage in enumerate(split_passages(text)):
        score = _term_score(passage, pattern) + _cjk_score(passage, query)
        if score > 0:
            # Earlier passages win ties: openings tend to say what a page is about.
            scored.append((score, position, passage))
    if not scored:
        return split_passages(text)[:1]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [passage for _, _, passage in scored[:count]]


def light_stem(word: str) -> str:
    """A small suffix stripper, close enough to Porter to line passages up with what the index matched."""
    if word.endswith("ss"):
        return word
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: len(word) - len(suffix)] + replacement
    return word


_SUFFIXES = (
    ("ies", "y"),
    ("sses", "ss"),
    ("ings", ""),
    ("ing", ""),
    ("ers", ""),
    ("er", ""),
    ("ed", ""),
    ("es", ""),
    ("e", ""),
    ("s", ""),
)


@lru_cache(maxsize=1024)
def _terms_pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """One group per term, each matching words that start with the term's stem."""
    if not terms:
        return None
    groups = []
    for term in terms:
        stem = light_stem(term).rstrip("ye") if len(term) > 4 else term
        groups.append(f"({re.escape(stem)})" + (r"[^\W_]*" if stem != term else ""))
    return re.compile(r"(?<![^\W_])(?:" + "|".join(groups) + r")(?![^\W_])", re.IGNORECASE)


def _term_score(passage: str, pattern: re.Pattern[str] | None) -> float:
    if pattern is None:
        return 0.0
    matches = pattern.findall(fold(passage))
    if not matches:
        return 0.0
    if isinstance(matches[0], str):
        matches = [(m,) for m in matches]
    distinct = {i for groups in matches for i, g in enumerate(groups) if g}
    return len(distinct) + 0.1 * len(matches)


def _cjk_score(passage: str, query: ParsedQuery) -> float:
    if not query.bigrams:
        return 0.0
    grams = set(cjk_bigrams(passage))
    matched = sum(1 for g in query.bigrams if g in grams)
    return matched / len(query.bigrams) * max(1, len(query.bigrams) // 2)
