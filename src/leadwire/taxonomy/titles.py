"""Seniority band, department and rank of a job title, English (via humanmint) or Chinese.

Rules only, no model: the English rules run on humanmint's normalised title with
abbreviations expanded; Chinese titles (simplified or traditional) use the project's own terms.
They live here, below every layer, because the hierarchy inference (research), the contacts
title filter (providers) and query understanding (search) all read titles the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

ABBREVIATIONS: dict[str, str] = {
    "vp": "vice president",
    "svp": "senior vice president",
    "evp": "executive vice president",
    "avp": "assistant vice president",
    "ceo": "chief executive officer",
    "cto": "chief technology officer",
    "cfo": "chief financial officer",
    "coo": "chief operating officer",
    "cmo": "chief marketing officer",
    "cio": "chief information officer",
    "cro": "chief revenue officer",
    "cso": "chief sales officer",
    "chro": "chief human resources officer",
    "cpo": "chief product officer",
    "clo": "chief legal officer",
    "hr": "human resources",
    "it": "information technology",
    "mgr": "manager",
    "dir": "director",
    "sr": "senior",
    "jr": "junior",
    "qa": "quality assurance",
    "pr": "public relations",
    "bd": "business development",
    "sdr": "sales development representative",
    "ae": "account executive",
    "gm": "general manager",
    "ops": "operations",
    "eng": "engineering",
    "r&d": "research development",
}

# Traditional -> simplified for the characters of job titles, so that Taiwan and Hong Kong titles
# meet the same term tables (the vocabulary that differs, e.g. 資訊 for 信息, is in the tables).
_TRADITIONAL = (
    "專業習書產會關內劃創辦務協發後員場實審尋師應開總戶執據數術機氣測電監級納組經絡統維網聯"
    "藝營規計設試調負財責質購資軟運採鏈銷長問顧訊體誠導際戰號層廠庫檢驗價們個為與華區國東灣"
)
_SIMPLIFIED = (
    "专业习书产会关内划创办务协发后员场实审寻师应开总户执据数术机气测电监级纳组经络统维网联"
    "艺营规计设试调负财责质购资软运采链销长问顾讯体诚导际战号层厂库检验价们个为与华区国东湾"
)
_TO_SIMPLIFIED = str.maketrans(_TRADITIONAL, _SIMPLIFIED)

_STOPWORDS = frozenset({"of", "the", "and", "for", "in", "at", "to", "a", "an", "de", "&"})
CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_TOKEN = re.compile(r"[a-z0-9&]+")


def contains_cjk(text: str) -> bool:
    """True when ``text`` has a Chinese character."""
    return CJK_CHAR.search(text) is not None


def to_simplified(text: str) -> str:
    """``text`` with the traditional characters of job-title vocabulary in their simplified form."""
    return text.translate(_TO_SIMPLIFIED)


def english_tokens(text: str) -> list[str]:
    """Lower-case tokens of ``text`` with abbreviations expanded and stopwords dropped (not stemmed)."""
    out: list[str] = []
    for raw in _TOKEN.findall(text.lower()):
        expanded = ABBREVIATIONS.get(raw, raw)
        out.extend(t for t in expanded.split() if t not in _STOPWORDS)
    return out


# Reporting levels: 0 is the top executive; senior and entry share the individual-contributor level.
_LEVEL = {"c_level": 1, "vp": 2, "director": 3, "manager": 4, "senior": 5, "entry": 5}
TOP_LEVEL = 0
UNKNOWN_RANK = 99


@dataclass(frozen=True, slots=True)
class TitleClass:
    """What a title says: seniority band, department and rank (lower is more senior, 0 the top executive)."""

    seniority: str | None
    department: str | None
    rank: int

    @property
    def level(self) -> int | None:
        if self.seniority is None:
            return None
        return TOP_LEVEL if self.rank == 0 else _LEVEL[self.seniority]


# ---------------------------------------------------------------- English titles

# (phrase, seniority, rank), first match wins; phrases are matched on whole expanded tokens.
_EN_LEVELS: tuple[tuple[str, str, int], ...] = (
    ("assistant to", "entry", 62),
    ("executive assistant", "entry", 62),
    ("assistant vice president", "director", 27),
    ("executive vice president", "vp", 15),
    ("senior vice president", "vp", 17),
    ("vice president", "vp", 20),
    ("chief executive officer", "c_level", 0),
    ("president", "c_level", 0),
    ("co founder", "c_level", 0),
    ("founder", "c_level", 0),
    ("managing director", "c_level", 0),
    ("general manager", "c_level", 0),
    ("chairman", "c_level", 0),
    ("chief of staff", "manager", 40),
    ("chief", "c_level", 10),
    ("general counsel", "c_level", 12),
    ("senior director", "director", 28),
    ("executive director", "director", 28),
    ("director", "director", 30),
    ("head", "director", 30),
    ("senior manager", "manager", 38),
    ("manager", "manager", 40),
    ("supervisor", "manager", 42),
    ("team lead", "manager", 42),
    ("principal", "senior", 46),
    ("staff", "senior", 47),
    ("lead", "senior", 48),
    ("senior", "senior", 50),
    ("junior", "entry", 64),
    ("intern", "entry", 66),
    ("trainee", "entry", 66),
)

_HUMANMINT_LEVELS = {
    "vice president": ("vp", 20),
    "director": ("director", 30),
    "head": ("director", 30),
    "manager": ("manager", 40),
    "senior": ("senior", 50),
    "lead": ("senior", 48),
    "principal": ("senior", 46),
    "staff": ("senior", 47),
    "junior": ("entry", 64),
    "assistant": ("entry", 62),
    "associate": ("entry", 60),
}

# (phrase, department), first match wins: specific functions before generic words like "engineer".
_EN_DEPARTMENTS: tuple[tuple[str, str], ...] = (
    ("chief of staff", "executive"),
    ("executive assistant", "executive"),
    ("chief technology officer", "engineering"),
    ("chief financial officer", "finance"),
    ("chief operating officer", "operations"),
    ("chief marketing officer", "marketing"),
    ("chief information officer", "it"),
    ("chief information security officer", "it"),
    ("chief human resources officer", "hr"),
    ("chief people officer", "hr"),
    ("chief product officer", "product"),
    ("chief legal officer", "legal"),
    ("chief revenue officer", "sales"),
    ("chief sales officer", "sales"),
    ("chief commercial officer", "sales"),
    ("chief procurement officer", "procurement"),
    ("chief customer officer", "support"),
    ("information technology", "it"),
    ("systems administrator", "it"),
    ("network", "it"),
    ("helpdesk", "it"),
    ("help desk", "it"),
    ("security", "it"),
    ("procurement", "procurement"),
    ("purchasing", "procurement"),
    ("sourcing", "procurement"),
    ("buyer", "procurement"),
    ("legal", "legal"),
    ("counsel", "legal"),
    ("attorney", "legal"),
    ("lawyer", "legal"),
    ("paralegal", "legal"),
    ("compliance", "legal"),
    ("human resources", "hr"),
    ("people", "hr"),
    ("recruiter", "hr"),
    ("recruiting", "hr"),
    ("talent", "hr"),
    ("payroll", "hr"),
    ("customer success", "support"),
    ("customer service", "support"),
    ("customer support", "support"),
    ("support", "support"),
    ("finance", "finance"),
    ("financial", "finance"),
    ("accounting", "finance"),
    ("accountant", "finance"),
    ("controller", "finance"),
    ("fp&a", "finance"),
    ("treasury", "finance"),
    ("tax", "finance"),
    ("audit", "finance"),
    ("marketing", "marketing"),
    ("marketer", "marketing"),
    ("brand", "marketing"),
    ("content", "marketing"),
    ("communications", "marketing"),
    ("public relations", "marketing"),
    ("growth", "marketing"),
    ("sales", "sales"),
    ("account executive", "sales"),
    ("business development", "sales"),
    ("account manager", "sales"),
    ("product", "product"),
    ("ux", "product"),
    ("user research", "product"),
    ("operations", "operations"),
    ("supply chain", "operations"),
    ("logistics", "operations"),
    ("warehouse", "operations"),
    ("facilities", "operations"),
    ("production", "operations"),
    ("manufacturing", "operations"),
    ("plant", "operations"),
    ("engineering", "engineering"),
    ("engineer", "engineering"),
    ("developer", "engineering"),
    ("software", "engineering"),
    ("devops", "engineering"),
    ("architect", "engineering"),
    ("technology", "engineering"),
    ("data", "engineering"),
    ("research development", "engineering"),
)


def _phrase_in(phrase: str, padded: str) -> bool:
    return f" {phrase} " in padded or f" {phrase}s " in padded


def _cleaned(title: str) -> str:
    """humanmint's normalised title (abbreviations expanded, noise removed), without its fuzzy matching."""
    try:
        from humanmint.titles import normalize_title  # ~120 MB and 0.7 s: only when a title is classified

        return normalize_title(title) or title
    except ValueError:
        return title


def _english_level(padded: str, cleaned: str) -> tuple[str, int]:
    for phrase, seniority, rank in _EN_LEVELS:
        if _phrase_in(phrase, padded):
            return seniority, rank
    from humanmint.titles import extract_seniority

    hint = (extract_seniority(cleaned) or "").lower()
    for word, (seniority, rank) in _HUMANMINT_LEVELS.items():
        if hint.startswith(word):
            return seniority, rank
    return "entry", 60  # a role with no level word: an individual contributor


def _classify_english(title: str) -> TitleClass:
    cleaned = _cleaned(title)
    # Our own expansion of the raw title too: humanmint mangles some terms ("FP&A" -> "FP & a").
    words = english_tokens(f"{cleaned} {title}" if cleaned != title else title)
    if not words:
        return TitleClass(None, None, UNKNOWN_RANK)
    padded = f" {' '.join(words)} "
    seniority, rank = _english_level(padded, cleaned)
    # The top executive runs the whole company whatever else the title names.
    if rank == 0:
        return TitleClass(seniority, "executive", rank)
    department = next((d for p, d in _EN_DEPARTMENTS if _phrase_in(p, padded)), None)
    return TitleClass(seniority, department, rank)


# ---------------------------------------------------------------- Chinese titles

# (term, seniority, rank), first match wins; an assistant to anyone is entry level.
_ZH_LEVELS: tuple[tuple[str, str, int], ...] = (
    ("经理助理", "entry", 62),
    ("总监助理", "entry", 62),
    ("总裁助理", "entry", 62),
    ("秘书", "entry", 62),
    ("副总裁", "vp", 20),
    ("副总经理", "vp", 20),
    ("副总", "vp", 20),
    ("首席执行官", "c_level", 0),
    ("行政总裁", "c_level", 0),
    ("总裁", "c_level", 0),
    ("总经理", "c_level", 0),
    ("董事长", "c_level", 0),
    ("创始人", "c_level", 0),
    ("首席", "c_level", 10),
    ("总法律顾问", "c_level", 12),
    ("高级总监", "director", 28),
    ("总监", "director", 30),
    ("负责人", "director", 30),
    ("部长", "director", 30),
    ("高级经理", "manager", 38),
    ("经理", "manager", 40),
    ("主管", "manager", 42),
    ("主任", "manager", 42),
    ("组长", "manager", 42),
    ("资深", "senior", 50),
    ("高级", "senior", 50),
    ("专家", "senior", 50),
    ("初级", "entry", 64),
    ("实习", "entry", 66),
    ("助理", "entry", 62),
    ("专员", "entry", 60),
)

_ZH_DEPARTMENTS: tuple[tuple[str, str], ...] = (
    ("首席技术官", "engineering"),
    ("首席财务官", "finance"),
    ("首席运营官", "operations"),
    ("首席营销官", "marketing"),
    ("首席市场官", "marketing"),
    ("首席信息官", "it"),
    ("首席人力资源官", "hr"),
    ("首席人才官", "hr"),
    ("首席产品官", "product"),
    ("首席法务官", "legal"),
    ("首席采购官", "procurement"),
    ("首席营收官", "sales"),
    ("首席销售官", "sales"),
    ("首席客户官", "support"),
    ("总法律顾问", "legal"),
    ("信息", "it"),
    ("资讯", "it"),
    ("IT", "it"),
    ("网络", "it"),
    ("系统", "it"),
    ("安全", "it"),
    ("寻源", "procurement"),
    ("采购", "procurement"),
    ("法务", "legal"),
    ("法律", "legal"),
    ("律师", "legal"),
    ("合规", "legal"),
    ("人力", "hr"),
    ("人事", "hr"),
    ("招聘", "hr"),
    ("客服", "support"),
    ("客户服务", "support"),
    ("客户成功", "support"),
    ("支持", "support"),
    ("财务", "finance"),
    ("会计", "finance"),
    ("审计", "finance"),
    ("出纳", "finance"),
    ("市场", "marketing"),
    ("营销", "marketing"),
    ("品牌", "marketing"),
    ("销售", "sales"),
    ("商务", "sales"),
    ("业务拓展", "sales"),
    ("产品", "product"),
    ("用户研究", "product"),
    ("运营", "operations"),
    ("供应链", "operations"),
    ("物流", "operations"),
    ("生产", "operations"),
    ("技术", "engineering"),
    ("工程", "engineering"),
    ("研发", "engineering"),
    ("开发", "engineering"),
    ("软件", "engineering"),
    ("软体", "engineering"),
    ("总经理", "executive"),
    ("总裁", "executive"),
    ("董事长", "executive"),
    ("总裁办", "executive"),
)


def _classify_chinese(title: str) -> TitleClass:
    text = to_simplified(re.sub(r"\s+", "", title))
    seniority, rank = next(((s, r) for t, s, r in _ZH_LEVELS if t in text), ("entry", 60))
    department = "executive" if rank == 0 else next((d for t, d in _ZH_DEPARTMENTS if t in text), None)
    return TitleClass(seniority, department, rank)


@lru_cache(maxsize=8192)
def classify_title(title: str) -> TitleClass:
    """Seniority band (``SENIORITIES``), department (``DEPARTMENTS``) and rank of a job title.

    English titles go through humanmint's normalisation and our phrase rules;
    titles with Chinese characters through our Chinese rules.
    """
    if not title or not title.strip():
        return TitleClass(None, None, UNKNOWN_RANK)
    if contains_cjk(title):
        return _classify_chinese(title)
    return _classify_english(title)


@lru_cache(maxsize=1)
def department_words() -> frozenset[str]:
    """Every word the English department rules look for."""
    return frozenset(w for phrase, _ in _EN_DEPARTMENTS for w in phrase.split())


# Phrases of the department table that already carry a level word; a query reader wants bare functions.
_LEVELLED = ("chief", "executive assistant")


@lru_cache(maxsize=1)
def department_phrases() -> tuple[str, ...]:
    """The English department phrases (no level words), longest first, for spotting titles in text."""
    return _longest_first({p for p, _ in _EN_DEPARTMENTS if not p.startswith(_LEVELLED)})


@lru_cache(maxsize=1)
def zh_role_terms() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Chinese department terms and the level terms of manager rank or above, longest first.

    Entry and senior terms (专员, 高级...) are left out: on their own they are not a role a query asks for.
    """
    departments = {t for t, d in _ZH_DEPARTMENTS if d != "executive"}
    levels = {t for t, s, _ in _ZH_LEVELS if s not in ("entry", "senior") and t != "首席"}
    return _longest_first(departments), _longest_first(levels)


def _longest_first(terms: set[str]) -> tuple[str, ...]:
    # Longest first so that a regex alternation prefers 副总经理 over 副总 and 总经理 over 经理.
    return tuple(sorted(terms, key=lambda t: (-len(t), t)))
