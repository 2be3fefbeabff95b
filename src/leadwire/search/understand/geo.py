"""Places in search queries and in free-text locations.

"Breweries in Mexico" asks for breweries, preferably Mexican ones; matching the word "Mexico"
would instead favour any page that repeats it. So place words (countries, demonyms, cities,
states, regions; English and Chinese) leave the lexical query and become country intent.

Latin text is matched word by word on folded text, the longest name first ("South Africa" before
"Africa"); Chinese has no spaces, so runs of CJK characters are matched by substring, again the
longest name first at each position. The tables live in :mod:`geo_data`, :mod:`geo_cities`,
:mod:`geo_regions` and :mod:`geo_data_zh`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal, cast

from leadwire.search.text import fold
from leadwire.search.understand import geo_cities, geo_data, geo_data_zh, geo_regions
from leadwire.search.understand.types import Place, PlaceKind

_WORD = re.compile(r"[^\W_]+")
# The script ranges leadwire.search.text treats as CJK. They are matched by substring and never
# folded: NFKD would strip the voicing marks off kana and split Hangul syllables into letters.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
# A word token cut into CJK runs and everything else (matched as words).
_CJK_OR_OTHER = re.compile(rf"[{_CJK}]+|[^{_CJK}]+")
_CJK_RUN = re.compile(rf"[{_CJK}]+")
_APOSTROPHES = frozenset({"'", "\u2019"})

# How much one mention counts towards a location's country: an explicit country outweighs a
# state and a city together ("London, Ontario, Canada"), a state outweighs a city that shares its
# name with a foreign one ("Warsaw, Indiana", "Birmingham, Alabama").
_WEIGHT: dict[PlaceKind, float] = {"country": 4.0, "demonym": 3.0, "state": 2.0, "region": 2.0, "city": 1.0}

_CaseRule = Literal["any", "capitalised", "upper"]


@dataclass(frozen=True, slots=True)
class _Reading:
    kind: PlaceKind
    countries: frozenset[str]


@dataclass(frozen=True, slots=True)
class _Entry:
    """What one name stands for. ``alternatives`` are the readings the rest of the text can pick
    between ("Georgia" after "Atlanta" is the US state); without a decision, ``reading`` holds."""

    reading: _Reading
    alternatives: tuple[_Reading, ...] = ()
    case: _CaseRule = "any"

    @property
    def takes_plural(self) -> bool:
        # "Nordics", "Germans"; never for names, where a final "s" is another word ("Chiles").
        return self.reading.kind in ("demonym", "region")


@dataclass(frozen=True, slots=True)
class _Gazetteer:
    latin: dict[str, _Entry]  # folded words joined by one space
    longest_from: dict[str, int]  # first word -> most words a name starting with it has
    cjk: dict[str, _Entry]
    longest_cjk: int


@dataclass(frozen=True, slots=True)
class _Token:
    word: str  # folded; CJK as written
    start: int  # span in the original text
    end: int
    cjk: bool
    capitalised: bool
    upper: bool


@dataclass(frozen=True, slots=True)
class _Found:
    text: str
    entry: _Entry


# Puts a name into the Latin or the CJK table.
_AddName = Callable[[dict[str, _Entry], str, _Entry], None]


def _key(name: str) -> str:
    return " ".join(_WORD.findall(fold(name)))


def _codes(codes: str) -> frozenset[str]:
    return frozenset(codes.split())


def _names(names: str) -> list[str]:
    return [name for name in names.split("|") if name]


def _saint_variants(key: str) -> Iterable[str]:
    """Both ways of writing a saint's town: "St. Louis" and "Saint Louis"."""
    yield key
    for short, long in (("st ", "saint "), ("saint ", "st ")):
        if key.startswith(short):
            yield long + key[len(short) :]


@cache
def _gazetteer() -> _Gazetteer:
    latin: dict[str, _Entry] = {}
    cjk: dict[str, _Entry] = {}

    def add(table: dict[str, _Entry], name: str, entry: _Entry, *, override: bool = True) -> None:
        base = name if table is cjk else _key(name)
        for key in _saint_variants(base) if table is latin else (base,):
            if key and (override or key not in table):
                table[key] = entry

    def single(kind: PlaceKind, code: str) -> _Entry:
        return _Entry(_Reading(kind, frozenset({code})))

    _add_pycountry(latin, cjk, lambda table, name, entry: add(table, name, entry, override=False))
    for code, names in geo_data.COUNTRY_ALIASES.items():
        for name in _names(names):
            add(latin, name, single("country", code))
    for code, names in geo_data_zh.CHINESE_COUNTRIES.items():
        for name in _names(names):
            add(cjk, name, single("country", code))
    for english, chinese, codes in geo_regions.REGIONS:
        region = _Entry(_Reading("region", _codes(codes)))
        for name in _names(english):
            add(latin, name, region)
        for name in _names(chinese):
            add(cjk, name, region)
    for table, demonyms in ((latin, geo_data.DEMONYMS), (cjk, geo_data_zh.CHINESE_DEMONYMS)):
        for code, names in demonyms.items():
            for name in _names(names):
                add(table, name, single("demonym", code))
    for name, codes in geo_data.SHARED_DEMONYMS.items():
        add(latin, name, _Entry(_Reading("demonym", _codes(codes))))
    for kind, tables in (
        ("state", ((latin, geo_data.STATES), (cjk, geo_data_zh.CHINESE_STATES))),
        ("city", ((latin, geo_cities.CITIES), (cjk, geo_data_zh.CHINESE_CITIES))),
    ):
        for table, places in tables:
            for code, names in places.items():
                for name in _names(names):
                    add(table, name, single(cast(PlaceKind, kind), code))
    for name, readings in geo_data.AMBIGUOUS.items():
        default, *alternatives = (_Reading(cast(PlaceKind, kind), _codes(codes)) for kind, codes in readings)
        add(latin, name, _Entry(default, tuple(alternatives)))

    for key, entry in list(latin.items()):
        case: _CaseRule = (
            "upper"
            if key in geo_data.UPPERCASE_ONLY
            else "capitalised"
            if key in geo_data.CAPITALISED_ONLY
            else "any"
        )
        if case != "any":
            latin[key] = _Entry(entry.reading, entry.alternatives, case)

    longest_from: dict[str, int] = {}
    for key in latin:
        words = key.split(" ")
        longest_from[words[0]] = max(longest_from.get(words[0], 0), len(words))
    return _Gazetteer(latin, longest_from, cjk, max(map(len, cjk)))


def _add_pycountry(latin: dict[str, _Entry], cjk: dict[str, _Entry], add: _AddName) -> None:
    """Every country's English names, with "Korea, Republic of" also as "Republic of Korea", and
    its Chinese name from pycountry's zh_CN translation."""
    import gettext

    import pycountry

    chinese = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["zh_CN"], fallback=True)
    for country in pycountry.countries:
        entry = _Entry(_Reading("country", frozenset({country.alpha_2})))
        for attribute in ("name", "common_name", "official_name"):
            value = getattr(country, attribute, None)
            if not value:
                continue
            add(latin, value, entry)
            if "," in value:
                head, tail = (part.strip() for part in value.split(",", 1))
                add(latin, f"{tail} {head}", entry)
        name_in_chinese = chinese.gettext(country.name)
        if name_in_chinese != country.name and name_in_chinese not in geo_data_zh.CHINESE_EXCLUDED:
            add(cjk, name_in_chinese, entry)


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    for word in _WORD.finditer(text):
        for part in _CJK_OR_OTHER.finditer(word.group()):
            start, end = word.start() + part.start(), word.start() + part.end()
            raw = part.group()
            if _CJK_RUN.fullmatch(raw):
                tokens.append(_Token(raw, start, end, cjk=True, capitalised=False, upper=False))
                continue
            capitalised, upper = raw[0].isupper(), raw.isupper()
            # Folding may split a word ("½" becomes "1⁄2"); each piece keeps the word's span.
            for piece in _WORD.findall(fold(raw)):
                tokens.append(_Token(piece, start, end, cjk=False, capitalised=capitalised, upper=upper))
    return tokens


def _case_allows(entry: _Entry, first: _Token) -> bool:
    if entry.case == "upper":
        return first.upper
    if entry.case == "capitalised":
        return first.capitalised
    return True


def _scan(text: str) -> tuple[list[str], list[_Found]]:
    """The words no place claimed (folded, in order) and the places found, in order."""
    gazetteer = _gazetteer()
    tokens = _tokens(text)
    rest: list[str] = []
    found: list[_Found] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.cjk:
            _scan_cjk(token.word, gazetteer, rest, found)
            i += 1
            continue
        matched = _match_words(tokens, i, gazetteer)
        if matched is None:
            rest.append(token.word)
            i += 1
            continue
        end, entry = matched
        found.append(_Found(text[token.start : tokens[end - 1].end], entry))
        # "Germany's": the possessive "s" goes with the name.
        if (
            end < len(tokens)
            and tokens[end].word == "s"
            and text[tokens[end - 1].end : tokens[end].start] in _APOSTROPHES
        ):
            end += 1
        i = end
    return rest, found


def _match_words(tokens: list[_Token], i: int, gazetteer: _Gazetteer) -> tuple[int, _Entry] | None:
    """The longest name starting at token ``i``: the index after it and what it stands for."""
    first = tokens[i]
    span = 0
    while i + span < len(tokens) and not tokens[i + span].cjk:
        span += 1
    longest = min(span, max(gazetteer.longest_from.get(first.word, 0), 1))
    for length in range(longest, 0, -1):
        key = " ".join(token.word for token in tokens[i : i + length])
        entry = gazetteer.latin.get(key)
        if entry is None and key.endswith("s") and len(key) > 3:
            plural_of = gazetteer.latin.get(key[:-1])
            if plural_of is not None and plural_of.takes_plural:
                entry = plural_of
        if entry is not None and _case_allows(entry, first):
            return i + length, entry
    return None


def _scan_cjk(run: str, gazetteer: _Gazetteer, rest: list[str], found: list[_Found]) -> None:
    """Longest name first at each position; the characters between names stay as rest words."""
    kept_from = 0
    position = 0
    while position < len(run):
        for length in range(min(gazetteer.longest_cjk, len(run) - position), 1, -1):
            name = run[position : position + length]
            entry = gazetteer.cjk.get(name)
            if entry is not None:
                if position > kept_from:
                    rest.append(run[kept_from:position])
                found.append(_Found(name, entry))
                position += length
                kept_from = position
                break
        else:
            position += 1
    if kept_from < len(run):
        rest.append(run[kept_from:])


def _resolve(entry: _Entry, support: dict[str, float], fallback: _Reading | None = None) -> _Reading:
    """The reading of an ambiguous name that the rest of the text supports best, else ``fallback``
    (by default the name's own default reading)."""
    best, best_support = fallback or entry.reading, 0.0
    for reading in entry.alternatives:
        strength = max((support.get(code, 0.0) for code in reading.countries), default=0.0)
        if strength > best_support:
            best, best_support = reading, strength
    return best


def _support(found: list[_Found]) -> dict[str, float]:
    """Weighted mentions per country from the names that mean one thing only."""
    scores: dict[str, float] = {}
    for item in found:
        if not item.entry.alternatives:
            _add_weight(scores, item.entry.reading)
    return scores


def _add_weight(scores: dict[str, float], reading: _Reading) -> None:
    # A name that stands for several countries spreads its weight, so it rarely decides alone.
    share = _WEIGHT[reading.kind] / len(reading.countries)
    for code in reading.countries:
        scores[code] = scores.get(code, 0.0) + share


@lru_cache(maxsize=4096)
def find_places(query: str) -> tuple[str, tuple[Place, ...]]:
    """The query without its place names (folded, one space between words), and the places it names
    in query order. An ambiguous name ("Georgia") takes the reading the other places support, else
    stands for all its countries."""
    rest, found = _scan(query)
    support = _support(found)
    places = []
    for item in found:
        reading = _resolve(item.entry, support) if item.entry.alternatives else item.entry.reading
        places.append(Place(text=item.text, kind=reading.kind, countries=reading.countries))
    return " ".join(rest), tuple(places)


def find_countries(query: str) -> tuple[str, frozenset[str]]:
    """The query without its place names, and every ISO alpha-2 code they stand for."""
    rest, places = find_places(query)
    return rest, frozenset(code for place in places for code in place.countries)


@lru_cache(maxsize=65536)
def place_country(text: str) -> str | None:
    """The one country a free-text location ("Milwaukee, Wisconsin, US", "Zug, Switzerland",
    "Tokyo") names, or None when it names none or several with nothing to choose between them.

    Every mention votes for its countries, an explicit country most, then a state, then a city;
    an ambiguous name votes for the reading the others support ("Atlanta, Georgia")."""
    _, found = _scan(text)
    scores = _support(found)
    supported_by_unambiguous = dict(scores)
    for item in found:
        if item.entry.alternatives:
            # An address must name one country: with nothing else to go by, the likelier reading
            # ("Kennesaw, Georgia" is in the US) rather than all of them.
            likelier = item.entry.alternatives[0]
            _add_weight(scores, _resolve(item.entry, supported_by_unambiguous, likelier))
    if not scores:
        return None
    ranked = sorted(scores.items(), key=lambda pair: pair[1], reverse=True)
    if len(ranked) > 1 and ranked[1][1] >= ranked[0][1] - 1e-9:
        return None
    return ranked[0][0]
