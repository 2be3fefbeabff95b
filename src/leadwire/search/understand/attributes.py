"""Company attributes a query asks for: head count, founding year, HS codes and traded products.

"Software companies with more than 500 employees founded after 2010" asks for software companies;
the size and the founding year are filters, not words to match, so those phrases leave ``rest``.
Products named as "exporters of X" stay in ``rest`` (X is the topic) and are also reported.

Size words stand for these ranges of employees (EU SME definition where there is one, so that
"SME" means what it means in the EU's statistics and most company registries):

    micro (enterprises/businesses)            1-9
    small (companies, firms, ...)              1-49
    SME / SMB / small and medium-sized         1-249
    mid-sized / medium-sized / midsize         50-249
    mid-market                                 100-999  (the usual sales segmentation, not the EU's)
    large / big (companies, firms, ...)        250+
    enterprise (companies, customers, ...)     1000+    ("enterprise software" is a topic, not a size)
    startup(s)                                 1-200, founded in the last 10 years

"500 Startups" (a number before "startups") reads as a name, not a size, and is left alone. A number
needs an employee word ("people", "staff", 员工/人) to be a size, except "5k+"; a year needs a founding
word ("founded", "since", 成立) to be a founding constraint ("2010 annual report" is neither).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from leadwire.search.understand.types import Range


@dataclass(frozen=True, slots=True)
class CompanyAttributes:
    """What a query says about the companies themselves; ``rest`` is the query without those phrases."""

    rest: str
    employees: Range | None = None
    founded: Range | None = None
    hs_codes: tuple[str, ...] = ()
    products: tuple[str, ...] = ()


STARTUP_EMPLOYEES = Range(None, 200)
STARTUP_MAX_AGE = 10  # years: a startup is a company founded in the last ten years
_CUT = "\x00"  # marks where a phrase was taken out, so connectors left next to it can go too

# ---------------------------------------------------------------- numbers

_NUM = r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?"
_SCALE = r"\s?(?:k|m|thousand|million)\b"
NUM = rf"(?:{_NUM})(?:{_SCALE})?"
_ZH_NUM = rf"(?:{_NUM})\s?(?:万|千)?"
_SCALES = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "million": 1_000_000, "千": 1_000, "万": 10_000}


def _number(text: str) -> int:
    """ "1,000" -> 1000, "10k" -> 10000, "1.5 thousand" -> 1500, "2万" -> 20000."""
    match = re.fullmatch(r"([\d.,]+)\s?(\D*)", text.strip().lower())
    assert match is not None  # only ever called on what NUM / _ZH_NUM matched
    digits, unit = match.groups()
    return round(float(digits.replace(",", "")) * _SCALES.get(unit, 1))


# ---------------------------------------------------------------- head count

_EMP = (
    r"(?:full[- ]time\s+)?(?:employees?|staff(?:\s+members)?|people|persons|workers|headcount"
    r"|team\s+members|ftes?)\b"
)
_WITH = r"(?:(?:with|having|employing|that\s+have|which\s+have|who\s+have)\s+)?"
_MORE_EXCL = r"more\s+than|over|above|greater\s+than|in\s+excess\s+of|upwards\s+of|>"
_MORE_INCL = r"at\s+least|no\s+(?:fewer|less)\s+than|min(?:imum)?(?:\s+of)?|>=|≥"
_LESS_EXCL = r"fewer\s+than|less\s+than|under|below|<"
_LESS_INCL = r"up\s+to|at\s+most|no\s+more\s+than|max(?:imum)?(?:\s+of)?|<=|≤"
_HEAD = (
    r"(?:headcount|employee\s+count|number\s+of\s+employees|staff\s+size|company\s+size)\s*(?:of|:|is)?\s*"
)
_ZH_STAFF = r"(?:员工|雇员|职工)(?:人数|数量|规模)?|人员规模|规模"
_ZH_PEOPLE = r"(?:名|人|位)(?:员工|雇员|职工)?"


def _more(number: str, inclusive: bool) -> Range:
    return Range(_number(number) + (0 if inclusive else 1), None)


def _less(number: str, inclusive: bool) -> Range:
    return Range(None, _number(number) - (0 if inclusive else 1))


def _between(low: str, high: str) -> Range:
    ends = sorted((_number(low), _number(high)))  # "between 500 and 50" means the same range
    return Range(ends[0], ends[1])


# (pattern, range from the named groups), first match at a position wins.
_SIZE_NUMBERS: tuple[tuple[str, Callable[[re.Match[str]], Range]], ...] = (
    (
        rf"{_WITH}(?:{_HEAD})?(?P<op>{_MORE_EXCL}|{_MORE_INCL})\s*(?P<n>{NUM})\s*\+?\s*{_EMP}",
        lambda m: _more(m["n"], re.fullmatch(_MORE_INCL, m["op"], re.I) is not None),
    ),
    (
        rf"{_WITH}(?:{_HEAD})?(?P<op>{_LESS_EXCL}|{_LESS_INCL})\s*(?P<n>{NUM})\s*{_EMP}",
        lambda m: _less(m["n"], re.fullmatch(_LESS_INCL, m["op"], re.I) is not None),
    ),
    (
        rf"{_WITH}(?:{_HEAD})?(?:between\s+)?(?P<a>{NUM})\s*(?:-|–|—|to|and)\s*(?P<b>{NUM})\s*{_EMP}",
        lambda m: _between(m["a"], m["b"]),
    ),
    (rf"{_WITH}(?P<n>{NUM})\s*(?:\+|plus|or\s+more)\s*{_EMP}", lambda m: _more(m["n"], True)),
    # "5k+" needs no employee word: a thousands figure with a plus is a head count in a company query.
    (
        rf"{_WITH}(?P<n>\d+(?:\.\d+)?k)\+(?!\s*(?:usd|eur|revenue|sales|turnover))",
        lambda m: _more(m["n"], True),
    ),
    (rf"{_HEAD}(?P<a>{NUM})\s*(?:-|–|to)\s*(?P<b>{NUM})\b", lambda m: _between(m["a"], m["b"])),
    (rf"{_HEAD}(?P<n>{NUM})\s*\+", lambda m: _more(m["n"], True)),
    # Chinese: 员工超过500人, 员工少于50人, 500人以上, 员工50-200人. 以上/以下 include the number.
    (
        rf"(?:{_ZH_STAFF})\s*(?P<op>超过|多于|大于|高于|逾|不少于|至少|达)\s*(?P<n>{_ZH_NUM})\s*(?:{_ZH_PEOPLE})?(?:以上)?",
        lambda m: _more(m["n"], m["op"] in ("不少于", "至少", "达")),
    ),
    (
        rf"(?:{_ZH_STAFF})\s*(?P<op>少于|小于|低于|不足|不到|不超过|最多)\s*(?P<n>{_ZH_NUM})\s*(?:{_ZH_PEOPLE})?",
        lambda m: _less(m["n"], m["op"] in ("不超过", "最多")),
    ),
    (
        rf"(?:超过|多于|逾)\s*(?P<n>{_ZH_NUM})\s*(?:名|人|位)(?:员工|雇员|职工)",
        lambda m: _more(m["n"], False),
    ),
    (
        rf"(?:{_ZH_STAFF})?\s*(?P<a>{_ZH_NUM})\s*(?:-|–|~|到|至)\s*(?P<b>{_ZH_NUM})\s*(?:{_ZH_PEOPLE})",
        lambda m: _between(m["a"], m["b"]),
    ),
    (
        rf"(?:{_ZH_STAFF})?\s*(?P<n>{_ZH_NUM})\s*(?:{_ZH_PEOPLE})\s*(?P<op>及?以上|及?以下)",
        lambda m: _more(m["n"], True) if m["op"].endswith("以上") else _less(m["n"], True),
    ),
)

_COMPANY = (
    r"(?=\s*(?:companies|company|businesses|business|firms?|enterprises?|organi[sz]ations?|corporations?"
    r"|players|vendors|suppliers|manufacturers|exporters|importers|producers|distributors|agencies"
    r"|clients|customers|accounts|brands|retailers|wholesalers)\b)"
)
# (pattern, range), size words; the noun after an adjective stays in rest ("small companies" -> "companies").
_SIZE_WORDS: tuple[tuple[str, Range], ...] = (
    (r"\b(?:SMEs?|SMBs?)\b", Range(None, 249)),
    (r"\bsmall\s+(?:and|&|or|to)\s+(?:medium|mid)[- ]?(?:sized?)?" + _COMPANY, Range(None, 249)),
    (r"\bmicro[- ]?(?=(?:enterprises?|businesses|companies)\b)", Range(None, 9)),
    (r"\bmid[- ]?market\b", Range(100, 999)),
    (r"\b(?:mid|medium)[- ]?(?:sized?)?" + _COMPANY, Range(50, 249)),
    (r"\bsmall(?:[- ]sized?)?" + _COMPANY, Range(None, 49)),
    (r"\b(?:large|big)(?:[- ]sized?)?" + _COMPANY, Range(250, None)),
    (r"\benterprise(?:[- ](?:level|sized?|scale|grade))?" + _COMPANY, Range(1000, None)),
    (r"中小(?=企业|公司)", Range(None, 249)),
    (r"小型(?=企业|公司)", Range(None, 49)),
    (r"中型(?=企业|公司)", Range(50, 249)),
    (r"大型(?=企业|公司)", Range(250, None)),
)
# A number right before "startups" makes a name ("500 Startups"), not a size.
_STARTUP = r"(?<!\d\s)(?<!\d)(?<!\d-)\bstart[- ]?ups?\b|初创(?=企业|公司)|创业(?=公司)"

# ---------------------------------------------------------------- founding year

_YEAR = r"(?P<y>1[6-9]\d\d|20\d\d)"
_YEAR2 = r"(?P<y2>1[6-9]\d\d|20\d\d)"
_FOUNDED = (
    r"(?:(?:that|which|who)\s+(?:was|were)\s+)?(?:founded|established|incorporated|started|formed|launched"
    r"|set\s+up|est\.?|estd\.?|in\s+business|operating)"
)
_DECADE = r"(?:the\s+)?(?:(?P<dec>1[6-9]\d0|20\d0)|'?(?P<dec2>\d0))'?s\b"
_AGE_NOUN = r"years?\s+old|years?\s+in\s+business|years?\s+of\s+history"


def _decade(m: re.Match[str]) -> Range:
    if m["dec"]:
        start = int(m["dec"])
    else:
        two = int(m["dec2"])
        start = 2000 + two if two <= 20 else 1900 + two  # "the 20s" is the 2020s, "the 90s" the 1990s
    return Range(start, start + 9)


def _founding_patterns(year: int) -> tuple[tuple[str, Callable[[re.Match[str]], Range]], ...]:
    """(pattern, founding-year range), first match at a position wins; ages count back from ``year``."""
    y, n = _year_of, _count_of
    return (
        (
            rf"{_FOUNDED}\s+(?:between|from)\s+{_YEAR}\s*(?:and|to|-|–)\s*{_YEAR2}\b",
            lambda m: Range(y(m), int(m["y2"])),
        ),
        (rf"{_FOUNDED}\s+(?:after|post|later\s+than)\s+{_YEAR}\b", lambda m: Range(y(m) + 1, None)),
        (
            rf"{_FOUNDED}\s+(?:before|prior\s+to|earlier\s+than|pre)\s+{_YEAR}\b",
            lambda m: Range(None, y(m) - 1),
        ),
        (
            rf"{_FOUNDED}\s+(?:since|from|in\s+or\s+after|on\s+or\s+after)\s+{_YEAR}\b",
            lambda m: Range(y(m), None),
        ),
        (rf"{_FOUNDED}\s+(?:in\s+)?{_DECADE}", _decade),
        (rf"{_FOUNDED}\s+(?:in\s+)?{_YEAR}\b", lambda m: Range(y(m), y(m))),
        (
            rf"{_FOUNDED}\s+(?:in|within|during|over)\s+the\s+(?:last|past)\s+(?P<n>\d+)\s+years?",
            lambda m: Range(year - n(m), None),
        ),
        (rf"\bsince\s+{_YEAR}\b", lambda m: Range(y(m), None)),
        # Ages: "less than 5 years old" is founded after year-5; "older than 100 years" before year-100.
        (
            rf"(?:(?:less|fewer|younger)\s+than|under|not\s+more\s+than)\s+(?P<n>\d+)\s+(?:{_AGE_NOUN})",
            lambda m: Range(year - n(m) + 1, None),
        ),
        (r"younger\s+than\s+(?P<n>\d+)\s+years?", lambda m: Range(year - n(m) + 1, None)),
        (
            rf"(?:older\s+than|more\s+than|over)\s+(?P<n>\d+)\s+(?:{_AGE_NOUN}|years?\b)",
            lambda m: Range(None, year - n(m) - 1),
        ),
        (rf"(?:at\s+least\s+(?P<n>\d+)\s+(?:{_AGE_NOUN}))", lambda m: Range(None, year - n(m))),
        (rf"(?P<n>\d+)\+\s+(?:{_AGE_NOUN})", lambda m: Range(None, year - n(m))),
        (r"century[- ]old", lambda m: Range(None, year - 100)),
        # Chinese: 成立于2010年以后. 以后/以前 include the year (as 以上/以下 do), 之后/之前 do not.
        (rf"(?:成立于?|创立于?|创办于?)\s*{_YEAR}\s*年?\s*(?P<op>以后|之后|后|以来)", _zh_after),
        (rf"{_YEAR}\s*年?\s*(?P<op>以后|之后|后|以来)\s*(?:成立|创立|创办)", _zh_after),
        (rf"(?:成立于?|创立于?|创办于?)\s*{_YEAR}\s*年?\s*(?P<op>以前|之前|前)", _zh_before),
        (rf"{_YEAR}\s*年?\s*(?P<op>以前|之前|前)\s*(?:成立|创立|创办)", _zh_before),
        (r"(?:成立于?|创立于?)\s*(?P<dec>1[6-9]\d0|20\d0)\s*年代", _decade),
        (rf"(?:成立于?|创立于?|创办于?)\s*{_YEAR}\s*年?", lambda m: Range(y(m), y(m))),
        (r"成立(?:时间)?(?:不到|不足|少于|未满)\s*(?P<n>\d+)\s*年", lambda m: Range(year - n(m) + 1, None)),
        (
            r"成立(?:时间)?(?:超过|逾|已有|已经|满)\s*(?P<n>\d+)\s*年(?:以上)?",
            lambda m: Range(None, year - n(m)),
        ),
    )


def _year_of(m: re.Match[str]) -> int:
    return int(m["y"])


def _count_of(m: re.Match[str]) -> int:
    return _number(m["n"])


def _zh_after(m: re.Match[str]) -> Range:
    inclusive = m["op"] in ("以后", "以来")
    return Range(int(m["y"]) + (0 if inclusive else 1), None)


def _zh_before(m: re.Match[str]) -> Range:
    inclusive = m["op"] == "以前"
    return Range(None, int(m["y"]) - (0 if inclusive else 1))


# ---------------------------------------------------------------- HS codes and products

_HS_CODE = r"\d{2,10}(?:\.\d{2}){0,4}"
_HS = re.compile(
    rf"(?:\b(?:hs|hts|hsn)(?:[\s-]*codes?)?|海关编码|海关编号|HS编码|商品编码|税则号列?|税号)\s*(?:no\.?|number|[:：#])?\s*"
    rf"(?P<codes>{_HS_CODE}(?:\s*(?:,|/|&|and|or|、)\s*{_HS_CODE})*)(?![\d.])",
    re.IGNORECASE,
)
_TRADERS = (
    r"exporters?|importers?|suppliers?|manufacturers?|producers?|makers?|distributors?|wholesalers?"
    r"|vendors?|sellers?|traders?"
)
# The product phrase ends before a place, a clause or punctuation ("exporters of coffee in Brazil").
_PRODUCT_STOP = (
    r"in|from|to|into|with|that|which|who|whose|where|based|located|headquartered|founded|established"
    r"|since|near|for|across|within|having|employing|hs|and\s+(?:other|similar)|or\s+(?:other|similar)"
)
_PRODUCT = re.compile(
    rf"\b(?:{_TRADERS})\s+of\s+(?:the\s+)?(?P<x>(?:(?!(?:{_PRODUCT_STOP})\b)[^\s,;.!?()]+\s*){{1,6}})",
    re.IGNORECASE,
)


def _hs_codes(text: str) -> tuple[str, list[str]]:
    """Text without the HS phrases it understood, and the codes (2, 4, 6, 8 or 10 digits)."""
    codes: list[str] = []

    def take(m: re.Match[str]) -> str:
        found = [re.sub(r"\D", "", c) for c in re.findall(_HS_CODE, m["codes"])]
        valid = [c for c in found if len(c) in (2, 4, 6, 8, 10) and c[:2] != "00"]
        if len(valid) != len(found):
            return m.group()  # an odd-length "code" is something else: leave the phrase as written
        codes.extend(valid)
        return _CUT

    return _HS.sub(take, text), codes


def _products(text: str) -> list[str]:
    return [m["x"].strip() for m in _PRODUCT.finditer(text)]


# ---------------------------------------------------------------- taking phrases out


def _take_first(
    text: str, patterns: tuple[tuple[str, Callable[[re.Match[str]], Range]], ...]
) -> tuple[str, Range | None]:
    """Cut every phrase that matches one of ``patterns``; the first one found gives the range."""
    found: list[Range] = []
    for pattern, to_range in patterns:

        def take(m: re.Match[str], to_range: Callable[[re.Match[str]], Range] = to_range) -> str:
            found.append(to_range(m))
            return _CUT

        text = re.sub(pattern, take, text, flags=re.IGNORECASE)
    return text, found[0] if found else None


def _take_words(text: str) -> tuple[str, Range | None]:
    found: list[Range] = []
    for pattern, size in _SIZE_WORDS:
        text, count = re.subn(pattern, _CUT, text, flags=re.IGNORECASE)
        found.extend([size] * count)
    return text, found[0] if found else None


def _take_startups(text: str) -> tuple[str, bool]:
    text, count = re.subn(_STARTUP, _CUT, text, flags=re.IGNORECASE)
    return text, count > 0


# Connectors left stranded next to a cut phrase ("companies that were <cut>", "<cut> and in Germany").
_STRANDED_BEFORE = re.compile(r"(?:\s*\b(?:and|or|with|having|that|which|who|were|was|are|is)\b)*\s*" + _CUT)
_STRANDED_AFTER = re.compile(
    _CUT + r"(?:\s*(?:\band\b|\bor\b|,|、))+\s*"
    r"(?=$|[,;.\x00]|\b(?:in|from|at|based|located|headquartered|near|across|and|or)\b)"
)


def _tidy(text: str) -> str:
    text = re.sub(_CUT + r"\s*的", _CUT, text)  # 成立于2010年以后的公司: the 的 belonged to the cut phrase
    text = _STRANDED_AFTER.sub(_CUT, text)
    text = _STRANDED_BEFORE.sub(" ", text)
    text = re.sub(r"\s*,(?:\s*,)+", ",", text.replace(_CUT, " "))
    return " ".join(text.split()).strip(" ,;")


def find_company_attributes(query: str, *, today: date | None = None) -> CompanyAttributes:
    """Size, founding year, HS codes and products of a query; ``today`` anchors ages ("5 years old")."""
    year = (today or date.today()).year
    text = " ".join(query.split())
    text, hs_codes = _hs_codes(text)
    text, founded = _take_first(text, _founding_patterns(year))
    text, employees = _take_first(text, _SIZE_NUMBERS)
    text, size_word = _take_words(text)
    text, startup = _take_startups(text)
    # Explicit figures win over size words, size words over "startup"'s defaults.
    employees = employees or size_word or (STARTUP_EMPLOYEES if startup else None)
    if founded is None and startup:
        founded = Range(year - STARTUP_MAX_AGE, None)
    rest = _tidy(text)
    return CompanyAttributes(
        rest=rest,
        employees=employees,
        founded=founded,
        hs_codes=tuple(dict.fromkeys(hs_codes)),
        products=tuple(dict.fromkeys(_products(rest))),
    )
