"""Shared wording of the sandbox world: size phrases, company descriptions (English and Chinese)
and the text of topic-driven posts, all built from varied templates."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from leadwire.sandbox.chinese import to_traditional
from leadwire.sandbox.companies import Company
from leadwire.sandbox.geo import TRADE_FAIRS
from leadwire.sandbox.industries import Industry
from leadwire.sandbox.roles import LABELS
from leadwire.sandbox.topics import Topic

REGION_WORDS = {
    "europe": "Europe",
    "north_america": "North America",
    "latin_america": "Latin America",
    "asia": "Asia-Pacific",
    "middle_east": "the Middle East",
    "africa": "Africa",
    "oceania": "Australia and New Zealand",
}


def join_words(items: Sequence[str], conj: str = "and") -> str:
    """ "a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conj} {items[-1]}"


def size_band(employees: int) -> str:
    """A size adjective people use for companies of this headcount."""
    for limit, word in ((10, "micro"), (50, "small"), (250, "mid-sized"), (1000, "large")):
        if employees < limit:
            return word
    return "enterprise-scale"


def size_phrase(rnd: random.Random, employees: int) -> str:
    """Headcount in words, exact most of the time so size filters can be checked against text."""
    forms = (
        f"{employees:,} employees",
        f"{employees:,} people",
        f"a team of {employees:,}",
        f"around {_round_nicely(employees):,} staff",
    )
    return forms[0] if rnd.random() < 0.4 else rnd.choice(forms)


def _round_nicely(n: int) -> int:
    step = 10 if n < 1000 else 100 if n < 10_000 else 1000
    return max(step, round(n / step) * step)


def offer_words(company: Company) -> list[str]:
    """Everyday names of what the company sells."""
    return company.offer


def industry_words(company: Company) -> str:
    """The industry as people say it: the NAICS title when short, else the company's name noun."""
    return _industry_words(company.industry)


@cache
def _industry_words(industry: Industry) -> str:
    title = industry.title.lower()
    return title if len(title.split()) <= 5 else industry.noun.lower()


def fair_for(rnd: random.Random, company: Company) -> str:
    """A trade fair the company's sector would attend."""
    key = company.industry.sector.key
    return rnd.choice(TRADE_FAIRS.get(key, TRADE_FAIRS["default"]))


def zh_text(company: Company, text: str) -> str:
    """Chinese text in the script of the company's region."""
    return to_traditional(text) if company.country.alpha2 in ("TW", "HK") else text


def describe_company(rnd: random.Random, c: Company) -> tuple[str, str | None]:
    """English description and, for Chinese-speaking regions, a Chinese one."""
    industry, country = c.industry, c.country
    synonym = rnd.choice(industry.synonyms)
    article = "an" if synonym[0].lower() in "aeiou" else "a"
    offer = join_words(offer_words(c)[:3])
    first = rnd.choice(
        (
            f"{c.name} is {article} {synonym} based in {c.city}, {country.name}.",
            f"Headquartered in {c.city}, {country.name}, {c.name} is {article} {synonym}.",
            f"{c.name} is {article} {size_band(c.employees)} {synonym} from {c.city}, {country.name}.",
        )
    )
    second = rnd.choice(
        (
            f"Founded in {c.founded_year}, the company employs {c.employees:,} people.",
            f"The company was established in {c.founded_year} and today has {size_phrase(rnd, c.employees)}.",
            f"Since {c.founded_year} it has grown to {size_phrase(rnd, c.employees)}.",
        )
    )
    if c.products:
        third = rnd.choice(
            (
                f"Its products include {offer}.",
                f"It makes and sells {offer}.",
                f"The product range covers {offer} for customers in {REGION_WORDS[country.region]}"
                " and beyond.",
            )
        )
    else:
        third = rnd.choice(
            (
                f"It specialises in {c.specialty} for clients in {REGION_WORDS[country.region]}.",
                f"{c.brand} focuses on {c.specialty}.",
                f"Its core business is {c.specialty}.",
            )
        )
    sentences = [
        first,
        second,
        third,
        f"It operates in {industry.title.lower()} (NAICS {industry.code}).",
        rnd.choice(
            (
                f"The team works with {join_words(c.technologies[:4])}.",
                f"Its technology stack includes {join_words(c.technologies[:4])}.",
            )
        ),
    ]
    english = " ".join(sentences)
    if not country.zh:
        return english, None
    zh = (
        f"{c.name_zh}成立于{c.founded_year}年，总部位于{c.city_zh}，是一家{industry.zh}企业，"
        f"现有员工约{c.employees}人。"
    )
    zh += (
        f"公司主要产品包括{offer}等。"
        if c.products
        else f"公司专注于{industry.zh}相关服务（{c.specialty}）。"
    )
    zh += f"公司使用{'、'.join(c.technologies[:3])}等技术与系统。"
    return english, zh_text(c, zh)


def slots(rnd: random.Random, company: Company, department: str, n: int | None = None) -> dict[str, str]:
    """Values for the placeholders of topic sentences."""
    return {
        "company": company.brand,
        "product": rnd.choice(offer_words(company)),
        "industry": industry_words(company),
        "city": company.city,
        "country": company.country.name,
        "fair": fair_for(rnd, company),
        "tech": rnd.choice(company.technologies),
        "n": str(n if n is not None else rnd.randint(3, 40)),
        "team": LABELS.get(department, LABELS["operations"])[0].lower(),
    }


_OPENERS = (
    "",
    "",
    "Quick thought on {phrase}.",
    "Something I keep coming back to: {phrase}.",
    "A few lessons on {phrase} from this quarter.",
    "Let's talk about {phrase}.",
    "Honest reflection on {phrase}:",
    "Small win this week.",
    "Sharing a lesson learned.",
)
_CLOSERS = (
    "",
    "",
    "What's your take?",
    "Curious how others handle this.",
    "Happy to compare notes.",
    "Would love to hear your experience.",
    "Agree or disagree?",
    "More soon.",
)
_ZH_OPENERS = ("", "", "聊聊{phrase}。", "关于{phrase}的一点思考：", "分享一个小收获。")
_ZH_CLOSERS = ("", "", "大家怎么看？", "欢迎交流。", "期待听到你的经验。")


def post_text(rnd: random.Random, topic: Topic, values: dict[str, str], zh: bool) -> str:
    """The text of one post about `topic`, worded differently each time."""
    if zh:
        opener = rnd.choice(_ZH_OPENERS).replace("{phrase}", topic.zh_label)
        body = rnd.sample(topic.zh_sentences, min(len(topic.zh_sentences), rnd.randint(1, 3)))
        parts = [opener, *body, rnd.choice(_ZH_CLOSERS)]
        text = "".join(p for p in parts if p)
    else:
        opener = rnd.choice(_OPENERS).replace("{phrase}", rnd.choice(topic.phrases))
        body = rnd.sample(topic.sentences, min(len(topic.sentences), rnd.randint(2, 4)))
        parts = [opener, *body, rnd.choice(_CLOSERS)]
        text = " ".join(p for p in parts if p)
    text = text.format_map(values)
    if rnd.random() < 0.6:
        text += "\n\n" + " ".join(rnd.sample(topic.hashtags, min(len(topic.hashtags), rnd.randint(1, 3))))
    return text
