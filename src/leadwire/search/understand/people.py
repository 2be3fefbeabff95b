"""People a query asks for: job titles ("CTOs", "head of sales", 采购经理) and the seniority and
department they stand for.

Only the spotting is done here. What a title means (seniority band, department) comes from
``leadwire.taxonomy.titles.classify_title``, the same rules the hierarchy inference and the contacts
title filter use, so "VP engineering" means the same thing in a query as in a contact's title.

Title words stay in the lexical query: a company page naming its CTO is a good match for "CTOs".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from leadwire.taxonomy.titles import (
    ABBREVIATIONS,
    classify_title,
    department_phrases,
    to_simplified,
    zh_role_terms,
)


@dataclass(frozen=True, slots=True)
class PeopleTerms:
    """Roles named in a query (singular, as titles), their departments and seniority bands.

    ``rest`` is the whole query (whitespace collapsed): people words stay useful lexical terms.
    """

    roles: tuple[str, ...]
    departments: tuple[str, ...]
    seniorities: tuple[str, ...]
    rest: str


# Words that head a title; a plural query ("CTOs", "vice presidents") names the same title.
_HEADS = frozenset(
    {"vp", "svp", "evp", "avp", "gm", "head", "director", "manager", "lead", "supervisor", "chief", "officer"}
    | {"founder", "co-founder", "cofounder", "president", "executive", "chairman"}
    | {abbr for abbr, full in ABBREVIATIONS.items() if full.startswith("chief ")}
)
_CHIEF_ABBRS = sorted(abbr for abbr, full in ABBREVIATIONS.items() if full.startswith("chief "))
_DEPT_ABBRS = sorted(abbr for abbr, full in ABBREVIATIONS.items() if full in department_phrases())
# Abbreviations written in capitals in a normalised role ("VP engineering", "HR manager").
_UPPER = frozenset(ABBREVIATIONS) | {"ux", "fp&a", "ciso"}
# A level word on its own ("directors") is a role only after one of these or at the start of the query:
# after any other word it is usually part of a name or an industry ("film directors", "asset managers").
_BARE_OK_AFTER = frozenset(
    {"find", "list", "get", "show", "contact", "contacts", "email", "emails", "reach", "me", "all", "any"}
    | {"and", "or", "with", "the", "their", "of", "for", "at", "to", "in", "from", "as", "like", "including"}
    | {"who", "whose", "are", "is"}
)
_SEPARATOR_BEFORE = re.compile(r"(?:^|[,;:(/])\s*$")


def _alternation(words: list[str] | tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)


@lru_cache(maxsize=1)
def _english() -> re.Pattern[str]:
    """One pattern, alternatives most specific first; each named group is a kind of title phrase."""
    dept = rf"(?:{_alternation(department_phrases())}|{_alternation(_DEPT_ABBRS)})"
    depts = rf"{dept}(?:\s+(?:and|&)\s+{dept})?"
    mod = r"(?:(?:senior|junior|executive|regional|global|national|group|area|deputy|assistant)\s+)?"
    vp = r"(?:vice\s+presidents?|[se]?vps?)"
    # "lead" before "gen(eration)" is the sales term, not a title ("sales lead generation").
    level = rf"(?:{vp}|heads?|directors?|managers?|team\s+leads?|leads?(?!\s+gen)|supervisors?)"
    patterns = {
        "clevel": r"c[-\s]?(?:level|suite)|cxos?",
        "chief": r"chief\s+(?:[a-z&]+\s+){1,3}officers?",
        "of": rf"{mod}(?:{vp}|heads?|directors?|managers?|leads?|chiefs?)\s+(?:of|for)\s+(?:the\s+)?{depts}",
        "vp": rf"{mod}{vp}\s+{depts}",
        "dept": rf"{mod}{depts}\s+{mod}{level}",
        "standalone": r"co-?\s?founders?|founders?|chairm[ae]n|presidents?|managing\s+directors?"
        r"|general\s+managers?|account\s+(?:managers?|executives?)",
        "abbr": rf"(?:{_alternation(_CHIEF_ABBRS)})(?:'?s)?",
        "bare": rf"{vp}|directors|managers|heads",
    }
    body = "|".join(f"(?P<{name}>{p})" for name, p in patterns.items())
    return re.compile(rf"(?<![\w&-])(?:{body})(?![\w&])", re.IGNORECASE)


@lru_cache(maxsize=1)
def _chinese() -> re.Pattern[str]:
    departments, levels = zh_role_terms()
    chiefs = [t for t in departments if t.startswith("首席")]
    depts = [t for t in departments if not t.startswith("首席")]
    # Up to two more characters may follow a department term (人力资源经理, 市场部经理), not a particle.
    dept = rf"(?:{_alternation(depts)})(?:(?![的和与及或])[\u4e00-\u9fff]){{0,2}}?"
    return re.compile(rf"{_alternation(chiefs)}|(?:{dept})*(?:{_alternation(levels)})")


def _normalised_role(phrase: str) -> str:
    """Lower case, singular head words, "the" dropped, abbreviations in capitals."""
    words: list[str] = []
    for word in phrase.lower().replace("'s", "s").split():
        if word == "the":
            continue
        if word.endswith("s") and word[:-1] in _HEADS:
            word = word[:-1]
        word = {"chairmen": "chairman", "cofounder": "co-founder"}.get(word, word)
        words.append(word.upper() if word in _UPPER else word)
    return " ".join(words).replace("co founder", "co-founder")


def _bare_allowed(text: str, start: int) -> bool:
    before = text[:start]
    if _SEPARATOR_BEFORE.search(before):
        return True
    return before.split()[-1].lower() in _BARE_OK_AFTER


def _english_roles(text: str) -> tuple[list[tuple[int, str]], bool]:
    """(position, role) of each English title, and whether the query asks for the C-suite as such."""
    roles: list[tuple[int, str]] = []
    c_level = False
    for match in _english().finditer(text):
        kind = match.lastgroup
        if kind == "clevel":
            c_level = True
        elif kind != "bare" or _bare_allowed(text, match.start()):
            roles.append((match.start(), _normalised_role(match.group())))
    return roles, c_level


def _chinese_roles(text: str) -> list[tuple[int, str]]:
    simplified = to_simplified(text)  # one character for one, so positions still line up
    return [(m.start(), m.group()) for m in _chinese().finditer(simplified)]


def _unique(values: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


def find_people_terms(query: str) -> PeopleTerms:
    """The roles a query names, with the departments and seniority bands ``classify_title`` gives them."""
    text = " ".join(query.split())
    english, c_level = _english_roles(text)
    roles = _unique([role for _, role in sorted(english + _chinese_roles(text))])
    classes = [classify_title(role) for role in roles]
    seniorities = (["c_level"] if c_level else []) + [c.seniority for c in classes if c.seniority]
    departments = [c.department for c in classes if c.department]
    return PeopleTerms(
        roles=roles,
        departments=_unique(departments),
        seniorities=_unique(seniorities),
        rest=text,
    )
