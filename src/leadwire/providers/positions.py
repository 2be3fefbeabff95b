"""Matching of job-title keywords (the ``positions`` filter of a contacts search) against titles.

A keyword matches an English title by tokens (case-insensitive, abbreviations
expanded, light stemming) and a Chinese title by substring; a small bilingual
term table lets an English keyword match a Chinese title and the reverse.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from leadwire.taxonomy.titles import CJK_CHAR, english_tokens, to_simplified

# English concept -> Chinese terms. Keys are phrases after abbreviation expansion.
ZH_TERMS: dict[str, tuple[str, ...]] = {
    "chief executive officer": ("首席执行官", "总经理", "总裁", "行政总裁"),
    "chief technology officer": ("首席技术官", "技术总监"),
    "chief financial officer": ("首席财务官", "财务总监"),
    "chief operating officer": ("首席运营官", "运营总监"),
    "chief marketing officer": ("首席营销官", "首席市场官"),
    "chief information officer": ("首席信息官",),
    "chief human resources officer": ("首席人力资源官", "首席人才官"),
    "general manager": ("总经理",),
    "vice president": ("副总裁", "副总经理"),
    "president": ("总裁",),
    "founder": ("创始人",),
    "chairman": ("董事长",),
    "chief": ("首席",),
    "director": ("总监",),
    "head": ("负责人", "主管"),
    "manager": ("经理",),
    "supervisor": ("主管",),
    "lead": ("组长", "主管"),
    "senior": ("高级", "资深"),
    "junior": ("初级",),
    "assistant": ("助理",),
    "specialist": ("专员",),
    "representative": ("代表",),
    "analyst": ("分析师",),
    "engineer": ("工程师",),
    "developer": ("开发",),
    "designer": ("设计师",),
    "accountant": ("会计",),
    "recruiter": ("招聘",),
    "intern": ("实习",),
    "sales": ("销售",),
    "business development": ("商务拓展", "业务拓展", "商务"),
    "account": ("客户",),
    "marketing": ("市场", "营销"),
    "engineering": ("工程", "技术", "研发"),
    "technology": ("技术",),
    "research development": ("研发",),
    "software": ("软件", "软体"),
    "finance": ("财务", "金融"),
    "financial": ("财务",),
    "accounting": ("会计",),
    "human resources": ("人力资源", "人事"),
    "people": ("人力资源",),
    "operations": ("运营",),
    "procurement": ("采购",),
    "purchasing": ("采购",),
    "supply chain": ("供应链",),
    "logistics": ("物流",),
    "legal": ("法务",),
    "counsel": ("法律顾问", "法务"),
    "compliance": ("合规",),
    "product": ("产品",),
    "customer service": ("客服", "客户服务"),
    "customer success": ("客户成功",),
    "support": ("支持", "客服"),
    "information technology": ("信息技术", "资讯", "IT"),
    "quality assurance": ("质量", "品质"),
    "quality": ("质量", "品质"),
    "data": ("数据",),
    "security": ("安全",),
    "administration": ("行政",),
    "public relations": ("公关",),
}

_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ial", "ers", "er", "es", "s", "e")


@dataclass(frozen=True, slots=True)
class _Keyword:
    english: tuple[str, ...]  # stemmed tokens; empty when the keyword carries none
    chinese: tuple[tuple[str, ...], ...]  # every group needs one of its terms in the Chinese title
    zh_literal: str  # the keyword itself when written in Chinese
    translated: tuple[tuple[str, ...], ...]  # English concepts (stemmed) of a Chinese keyword


def _stem(token: str) -> str:
    # Repeated so that "engineering" and "engineer" meet at the same stem.
    changed = True
    while changed:
        changed = False
        for suffix in _SUFFIXES:
            if token.endswith(suffix) and len(token) - len(suffix) >= 4:
                token, changed = token[: -len(suffix)], True
                break
    return token


def _concepts(tokens: Sequence[str]) -> list[str]:
    """Greedy longest-first split of ``tokens`` into ZH_TERMS keys; unknown tokens are skipped."""
    found: list[str] = []
    i = 0
    while i < len(tokens):
        for span in (3, 2, 1):
            phrase = " ".join(tokens[i : i + span])
            if i + span <= len(tokens) and phrase in ZH_TERMS:
                found.append(phrase)
                i += span
                break
        else:
            i += 1
    return found


@lru_cache(maxsize=1)
def _zh_index() -> list[tuple[str, tuple[str, ...]]]:
    """Chinese term -> English concepts, longest term first for greedy segmentation."""
    reverse: dict[str, list[str]] = {}
    for concept, terms in ZH_TERMS.items():
        for term in terms:
            reverse.setdefault(term, []).append(concept)
    return sorted(((t, tuple(c)) for t, c in reverse.items()), key=lambda kv: -len(kv[0]))


def _segment_chinese(text: str) -> list[tuple[str, ...]]:
    groups: list[tuple[str, ...]] = []
    i = 0
    while i < len(text):
        for term, concepts in _zh_index():
            if text.startswith(term, i):
                groups.append(concepts)
                i += len(term)
                break
        else:
            i += 1
    return groups


@lru_cache(maxsize=1024)
def _compile(keyword: str) -> _Keyword:
    text = to_simplified(keyword.strip().lower())
    if CJK_CHAR.search(text):
        literal = re.sub(r"\s+", "", text)
        translated = tuple(
            tuple(" ".join(_stem(t) for t in c.split()) for c in group) for group in _segment_chinese(literal)
        )
        ascii_part = tuple(_stem(t) for t in english_tokens(CJK_CHAR.sub(" ", text)))
        return _Keyword(ascii_part, (), literal, translated)
    tokens = english_tokens(text)
    chinese = tuple(ZH_TERMS[c] for c in _concepts(tokens))
    return _Keyword(tuple(_stem(t) for t in tokens), chinese, "", ())


def _english_match(wanted: Iterable[str], title_stems: frozenset[str]) -> bool:
    wanted = list(wanted)
    return bool(wanted) and all(w in title_stems for w in wanted)


def _keyword_matches(kw: _Keyword, title_stems: frozenset[str], title_zh: str) -> bool:
    if kw.zh_literal:
        if title_zh and kw.zh_literal in title_zh:
            return True
        # Every segment of the Chinese keyword must be found among the English title's words.
        return bool(kw.translated) and all(
            any(_english_match(c.split(), title_stems) for c in group) for group in kw.translated
        )
    if _english_match(kw.english, title_stems):
        return True
    return (
        bool(kw.chinese)
        and bool(title_zh)
        and all(any(term.lower() in title_zh for term in group) for group in kw.chinese)
    )


def title_matches(positions: Sequence[str], title: str | None, title_zh: str | None = None) -> bool:
    """True when ``positions`` is empty or one of its keywords matches the English or Chinese title."""
    keywords = [p for p in positions if p and p.strip()]
    if not keywords:
        return True
    english = title or ""
    chinese = to_simplified((title_zh or "").lower().replace(" ", ""))
    if CJK_CHAR.search(english):
        # An upstream may put a Chinese title in the only title field it has.
        chinese = chinese or to_simplified(english.lower().replace(" ", ""))
    stems = frozenset(_stem(t) for t in english_tokens(english))
    return any(_keyword_matches(_compile(k), stems, chinese) for k in keywords)
