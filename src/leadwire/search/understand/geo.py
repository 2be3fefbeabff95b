"""Location intent in search queries: country names found in a query become a country boost.

"Breweries in Mexico" asks for breweries, preferably Mexican ones; matching the word
"Mexico" would instead favour any page that repeats it. So the country words leave the
lexical query and documents whose subject country matches get a boost.
"""

from __future__ import annotations

import re
from functools import cache

from leadwire.search.text import fold

# Everyday names pycountry does not carry.
_ALIASES = {
    "usa": "US",
    "u s a": "US",
    "us": "US",
    "america": "US",
    "united states of america": "US",
    "uk": "GB",
    "u k": "GB",
    "britain": "GB",
    "great britain": "GB",
    "england": "GB",
    "uae": "AE",
    "turkey": "TR",
    "korea": "KR",
    "russia": "RU",
    "czech republic": "CZ",
    "holland": "NL",
    "the netherlands": "NL",
    "mainland china": "CN",
    "prc": "CN",
    "中国": "CN",
    "美国": "US",
    "英国": "GB",
    "德国": "DE",
    "法国": "FR",
    "日本": "JP",
    "韩国": "KR",
    "台湾": "TW",
    "臺灣": "TW",
    "香港": "HK",
    "新加坡": "SG",
    "印度": "IN",
    "越南": "VN",
    "意大利": "IT",
    "西班牙": "ES",
    "荷兰": "NL",
    "澳大利亚": "AU",
    "加拿大": "CA",
    "巴西": "BR",
    "墨西哥": "MX",
}
# Two-letter names that are also English words ("us") only count written in capitals.
_CASE_SENSITIVE = frozenset({"us"})


@cache
def _gazetteer() -> tuple[re.Pattern[str], dict[str, str]]:
    import pycountry

    names: dict[str, str] = {}
    for country in pycountry.countries:
        for attribute in ("name", "common_name", "official_name"):
            value = getattr(country, attribute, None)
            if value:
                names.setdefault(_key(value), country.alpha_2)
                if "," in value:  # "Korea, Republic of" is also written "Republic of Korea"
                    head, tail = (part.strip() for part in value.split(",", 1))
                    names.setdefault(_key(f"{tail} {head}"), country.alpha_2)
    for alias, code in _ALIASES.items():
        names[_key(alias)] = code
    names = {k: v for k, v in names.items() if k}
    # Longest first, so "south africa" wins over "africa" and "united arab emirates" over "arab".
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])")
    return pattern, names


def _key(name: str) -> str:
    return " ".join(re.findall(r"[^\W_]+", fold(name)))


def find_countries(query: str) -> tuple[str, frozenset[str]]:
    """The query without its country names, and the ISO alpha-2 codes they named."""
    pattern, names = _gazetteer()
    folded = " ".join(re.findall(r"[^\W_]+", fold(query)))
    original_words = re.findall(r"[^\W_]+", query)
    codes: set[str] = set()
    kept = folded
    for match in pattern.finditer(folded):
        text = match.group(0)
        if text in _CASE_SENSITIVE and text.upper() not in original_words:
            continue
        codes.add(names[text])
        kept = kept.replace(text, " ", 1)
    if not codes:
        return query, frozenset()
    rest = " ".join(kept.split())
    return rest, frozenset(codes)
