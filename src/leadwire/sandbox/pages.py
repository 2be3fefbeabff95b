"""Web pages of companies and people in the sandbox world: home, about, products, careers and blog
pages on company domains, team pages listing people, and personal bio sites."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import NamedTuple

from leadwire.sandbox.companies import Company
from leadwire.sandbox.people import Person
from leadwire.sandbox.roles import LABELS, RANK, title_for
from leadwire.sandbox.texts import (
    REGION_WORDS,
    industry_words,
    join_words,
    offer_words,
    size_band,
    size_phrase,
    slots,
    zh_text,
)
from leadwire.sandbox.topics import Topic


class Page(NamedTuple):
    """One generated web document, before it gets its id and subject columns."""

    url: str
    title: str
    text: str
    published_date: str | None
    author: str | None
    image: str | None
    language: str


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _days_before(rnd: random.Random, as_of: date, max_days: int) -> str:
    return (as_of - timedelta(days=rnd.randint(0, max_days))).isoformat()


def home_page(rnd: random.Random, c: Company, ceo: Person | None, zh: bool) -> Page:
    """The company's home page."""
    image = f"https://{c.domain}/assets/hero.jpg" if rnd.random() < 0.6 else None
    if zh:
        text = zh_text(
            c,
            f"欢迎访问{c.name_zh}。{c.description_zh}\n\n我们位于{c.city_zh}，拥有约{c.employees}名员工，"
            f"服务{c.country.name}及海外客户。\n\n联系我们：info@{c.domain}",
        )
        return Page(f"https://{c.domain}/", zh_text(c, f"{c.name_zh} - 首页"), text, None, None, image, "zh")
    offer = offer_words(c)
    tagline = rnd.choice(
        (
            f"{_cap(offer[0])} from {c.city}",
            f"{_cap(c.industry.synonyms[0])} in {c.country.name}",
            f"Trusted {industry_words(c)} since {c.founded_year}",
        )
    )
    why = rnd.choice(
        (
            f"Since {c.founded_year}, customers across {REGION_WORDS[c.country.region]} "
            f"have relied on {c.brand} for {join_words(offer[:2])}.",
            f"Our {size_band(c.employees)} team of {c.employees:,} combines deep "
            f"{industry_words(c)} know-how "
            f"with modern tools such as {join_words(c.technologies[:2])}.",
        )
    )
    lead = f"Led by {ceo.name.full}, {ceo.title}." if ceo else ""
    paragraphs = [
        f"Welcome to {c.name}.",
        c.description,
        why,
        lead,
        f"Contact us at info@{c.domain} or visit our office in {c.city}, {c.country.name}.",
    ]
    return Page(
        f"https://{c.domain}/",
        f"{c.name} | {tagline}",
        "\n\n".join(p for p in paragraphs if p),
        None,
        None,
        image,
        "en",
    )


def about_page(rnd: random.Random, c: Company, ceo: Person | None, zh: bool) -> Page:
    """The company's about page: history, mission, size, leadership."""
    founder = ceo.name.full if ceo else "its founders"
    if zh:
        leader = ceo.name.full_zh or ceo.name.full if ceo else ""
        text = zh_text(
            c,
            f"{c.name_zh}于{c.founded_year}年在{c.city_zh}创立。公司现有员工{c.employees}人，"
            f"专注于{c.industry.zh}领域。\n\n我们的使命是为客户提供可靠的产品与服务。\n\n"
            f"管理团队由{leader}带领。",
        )
        return Page(
            f"https://{c.domain}/about", zh_text(c, f"关于我们 - {c.name_zh}"), text, None, None, None, "zh"
        )
    history = rnd.choice(
        (
            f"{c.brand} was founded in {c.founded_year} in {c.city}, {c.country.name}.",
            f"Our story began in {c.city} in {c.founded_year}, when {founder} saw a gap in "
            f"{industry_words(c)}.",
        )
    )
    mission = rnd.choice(
        (
            f"Our mission is simple: make {join_words(offer_words(c)[:2])} reliable, affordable and "
            "easy to buy.",
            f"We exist to help our customers succeed with {c.specialty}.",
        )
    )
    size = (
        f"Today we are {size_phrase(rnd, c.employees)}, working from {c.city} and serving customers "
        f"across {REGION_WORDS[c.country.region]}."
    )
    sector = f"We are part of the {c.industry.title.lower()} industry (NAICS {c.industry.code})."
    leadership = f"{ceo.name.full} serves as {ceo.title}." if ceo else ""
    values = rnd.choice(
        (
            "We value long-term relationships, straight answers and work done properly the first time.",
            f"Quality, reliability and respect for our customers' time have guided {c.brand} since day one.",
            "Our people are our advantage: most of our managers started with us as trainees.",
        )
    )
    text = "\n\n".join(p for p in (history, mission, size, sector, values, leadership) if p)
    return Page(f"https://{c.domain}/about", f"About {c.brand}", text, None, None, None, "en")


def offer_page(rnd: random.Random, c: Company, zh: bool) -> Page:
    """Products page for goods companies, solutions page for service firms."""
    if c.products:
        lines = [
            f"- {desc}" + (f" (HS {code[:4]}.{code[4:]})" if rnd.random() < 0.5 else "")
            for code, desc in c.products
        ]
        intro = (
            f"{c.brand} manufactures and supplies {join_words(offer_words(c))}."
            if c.industry.sector.key != "wholesale"
            else f"{c.brand} distributes {join_words(offer_words(c))} from leading manufacturers."
        )
        path, title = "products", f"Products - {c.name}"
    else:
        lines = [
            f"- {c.specialty.capitalize()}",
            f"- {_cap(industry_words(c))} advisory",
            f"- Implementation and support with {rnd.choice(c.technologies)}",
        ]
        intro = f"{c.brand} helps organisations with {c.specialty}."
        path, title = "solutions", f"Solutions - {c.name}"
    if zh:
        body = zh_text(c, f"{c.name_zh}的主要产品与服务：\n") + "\n".join(lines)
        return Page(
            f"https://{c.domain}/{path}", zh_text(c, f"产品中心 - {c.name_zh}"), body, None, None, None, "zh"
        )
    outro = f"All {c.brand} {path} are delivered from {c.city} to customers in {c.country.name} and abroad."
    return Page(
        f"https://{c.domain}/{path}",
        title,
        "\n\n".join((intro, "\n".join(lines), outro)),
        None,
        None,
        None,
        "en",
    )


def careers_page(rnd: random.Random, c: Company, people: list[Person], as_of: date) -> Page:
    """Careers page with open roles shaped like the company's own titles."""
    roles = sorted(
        {
            p.title.replace("Senior ", "").replace("Junior ", "")
            for p in people
            if p.seniority in ("senior", "entry", "manager")
        }
    ) or ["Sales Representative"]
    open_roles = rnd.sample(roles, min(len(roles), rnd.randint(1, 4)))
    text = "\n\n".join(
        (
            f"Join {c.brand} and help us build the future of {industry_words(c)}.",
            f"We are {size_phrase(rnd, c.employees)} based in {c.city}, {c.country.name}.",
            "Open positions:\n" + "\n".join(f"- {r} ({c.city})" for r in open_roles),
            f"We work with {join_words(c.technologies[:3])} and offer flexible hours, training and a "
            "friendly team.",
        )
    )
    host = f"careers.{c.domain}" if rnd.random() < 0.3 else c.domain
    url = f"https://{host}/" if host.startswith("careers.") else f"https://{host}/careers"
    return Page(url, f"Careers at {c.brand}", text, _days_before(rnd, as_of, 90), None, None, "en")


def blog_page(
    rnd: random.Random, c: Company, author: Person | None, topic: Topic, n: int, as_of: date
) -> Page:
    """A post on the company blog (blog.<domain>) about one topic."""
    department = author.department if author else "marketing"
    values = slots(rnd, c, department)
    body = [s.format_map(values) for s in rnd.sample(topic.sentences, min(4, len(topic.sentences)))]
    phrase = rnd.choice(topic.phrases)
    title = rnd.choice(
        (
            f"{_cap(phrase)}: what we learned at {c.brand}",
            f"Our take on {phrase}",
            f"{_cap(phrase)} in {industry_words(c)}",
            f"Five notes on {phrase}",
        )
    )
    paragraphs = [
        f"At {c.brand}, {phrase} comes up in almost every customer conversation.",
        " ".join(body[:2]),
        " ".join(body[2:]),
        f"{c.brand} is {size_phrase(rnd, c.employees)} in {c.city} working on {c.specialty}.",
    ]
    slug = "-".join(title.lower().replace(":", "").split()[:8])
    slug = "".join(ch for ch in slug if ch.isalnum() or ch == "-")
    return Page(
        f"https://blog.{c.domain}/{slug}-{n}",
        title,
        "\n\n".join(p for p in paragraphs if p),
        _days_before(rnd, as_of, 700),
        author.name.full if author else None,
        None,
        "en",
    )


def team_page(rnd: random.Random, c: Company, members: list[Person], zh: bool) -> Page:
    """A team / leadership page listing people with their titles."""
    shown = sorted(members, key=lambda p: (RANK[p.seniority], p.index))[:12]
    path = rnd.choice(("team", "about/leadership", "company/management", "about/team"))
    if zh:
        lines = [f"{p.name.full_zh or p.name.full} — {p.title_zh or p.title}" for p in shown]
        text = zh_text(c, f"认识{c.name_zh}的管理团队。\n\n") + "\n".join(lines)
        return Page(
            f"https://{c.domain}/{path}", zh_text(c, f"管理团队 - {c.name_zh}"), text, None, None, None, "zh"
        )
    lines = [f"{p.name.full} — {p.title}" for p in shown]
    bios = [
        f"{p.name.full} leads {LABELS[p.department][0].lower()} at {c.brand}."
        for p in shown[1:3]
        if p.seniority in ("c_level", "vp", "director")
    ]
    intro = rnd.choice(
        (f"Meet the people behind {c.brand}.", f"The {c.brand} leadership team.", f"Our team in {c.city}.")
    )
    text = "\n\n".join([intro, "\n".join(lines), *bios])
    title = rnd.choice((f"Our team | {c.name}", f"Leadership - {c.brand}", f"Management team of {c.brand}"))
    return Page(f"https://{c.domain}/{path}", title, text, None, None, None, "en")


def personal_page(
    rnd: random.Random, person: Person, domain: str, interests: tuple[Topic, ...], zh: bool, as_of: date
) -> Page:
    """A person's bio page on their own domain."""
    c, name = person.company, person.name
    image = f"https://{domain}/me.jpg" if rnd.random() < 0.7 else None
    updated = _days_before(rnd, as_of, 365)
    if zh and name.full_zh:
        topics = "、".join(t.zh_label for t in interests)
        text = (
            zh_text(
                c,
                f"你好，我是{name.full_zh}（{name.full}）。我目前在{c.name_zh}担任{person.title_zh}，"
                f"工作地点在{c.city_zh}。\n\n我关注{topics}等话题。\n\n欢迎通过领英联系我：",
            )
            + person.linkedin_url
        )
        return Page(f"https://{domain}/", f"{name.full_zh} - 个人主页", text, updated, name.full, image, "zh")
    years = rnd.randint(3, 25)
    article = "an" if person.title[0].lower() in "aeiou" else "a"
    paragraphs = [
        rnd.choice((f"Hi, I'm {name.full}.", f"Hello! I'm {name.full}.", f"{name.full} - personal site.")),
        f"I work as {article} {person.title} at {c.name} in {person.city or c.city}, {c.country.name}.",
        f"I have spent {years} years in {industry_words(c)}, mostly in "
        f"{LABELS[person.department][0].lower()}.",
        _previous_role(rnd, person),
        f"I write and speak about {join_words([t.label for t in interests])}.",
        *_musings(rnd, person, interests),
        f"Find me on LinkedIn: {person.linkedin_url}",
    ]
    title = rnd.choice((f"{name.full} — {person.title} at {c.brand}", f"{name.full}", f"About {name.full}"))
    return Page(f"https://{domain}/", title, "\n\n".join(paragraphs), updated, name.full, image, "en")


_EARLIER = {
    "c_level": "vp",
    "vp": "director",
    "director": "manager",
    "manager": "senior",
    "senior": "entry",
    "entry": "entry",
}


def _previous_role(rnd: random.Random, person: Person) -> str:
    """A career line one step below the current role, elsewhere in the same industry."""
    department = "operations" if person.department == "executive" else person.department
    industrial = person.company.industry.sector.profile in ("industrial", "tech_industrial")
    title, _ = title_for(rnd, department, _EARLIER[person.seniority], industrial)
    years = rnd.randint(2, 9)
    return rnd.choice(
        (
            f"Before joining {person.company.brand}, I spent {years} years as {title} at another "
            f"{person.company.industry.synonyms[-1]}.",
            f"Previously: {title} ({years} years). Earlier roles took me through sales, operations and "
            "projects "
            f"across {person.company.country.name}.",
        )
    )


def _musings(rnd: random.Random, person: Person, interests: tuple[Topic, ...]) -> list[str]:
    """A couple of sentences in the person's voice about their favourite topics."""
    values = slots(rnd, person.company, person.department)
    return [rnd.choice(t.sentences).format_map(values) for t in interests[:2]]
