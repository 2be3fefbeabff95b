"""Web documents of the sandbox world in the five categories (company, news, financial report,
people, personal site): how many each company or person gets, and the rows in id order."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date

import numpy as np

from leadwire.sandbox.companies import Company
from leadwire.sandbox.config import SizeConfig, stage_random, stage_rng
from leadwire.sandbox.names import claim_label, slugify
from leadwire.sandbox.pages import (
    Page,
    about_page,
    blog_page,
    careers_page,
    home_page,
    offer_page,
    personal_page,
    team_page,
)
from leadwire.sandbox.people import Person
from leadwire.sandbox.press import event_for, financial_page, news_page, report_periods
from leadwire.sandbox.topics import Topic, topics_for

DocumentRow = tuple[
    str, str, str, str, str, str | None, str | None, str | None, str, str, str, str | None, str | None
]
_ZH_PAGE_SHARE = {"CN": 0.6, "TW": 0.6, "HK": 0.3, "SG": 0.3}


def document_id(index: int) -> str:
    """Public id of the document at `index`."""
    return f"doc_{index + 1:07d}"


def spread(rng: np.random.Generator, weights: np.ndarray, total: int, cap: int) -> np.ndarray:
    """Counts per item, proportional to weights, at most `cap` each, summing to `total` if capacity allows."""
    counts = np.zeros(len(weights), dtype=np.int64)
    w = weights.astype(float).copy()
    remaining = total
    while remaining > 0 and w.sum() > 0:
        counts += rng.multinomial(remaining, w / w.sum())
        over = np.maximum(counts - cap, 0)
        counts -= over
        remaining = int(over.sum())
        w[counts >= cap] = 0
    return counts


class _Plan:
    """Per-company and per-person document counts for one world."""

    def __init__(
        self,
        cfg: SizeConfig,
        rng: np.random.Generator,
        companies: list[Company],
        staff: list[list[Person]],
        people: list[Person],
    ) -> None:
        want = cfg.document_counts()
        n = len(companies)
        size = np.array([c.employees for c in companies], dtype=float)
        team_ok = np.array([len(s) >= 3 for s in staff])
        team_total = min(want["people"], int(team_ok.sum()))
        self.team = np.zeros(n, dtype=bool)
        if team_total:
            p = team_ok * np.sqrt(size)
            self.team[rng.choice(n, size=team_total, replace=False, p=p / p.sum())] = True
        self.news = spread(rng, np.sqrt(size), want["news"], 15)
        self.reports = spread(rng, size**0.8, want["financial report"], 10)
        personal_total = min(want["personal site"], len(people))
        self.personal = np.zeros(len(people), dtype=bool)
        if personal_total:
            self.personal[rng.choice(len(people), size=personal_total, replace=False)] = True
        company_total = (
            cfg.documents - team_total - int(self.news.sum()) - int(self.reports.sum()) - personal_total
        )
        self.home = np.zeros(n, dtype=bool)
        self.home[rng.permutation(n)[: min(n, company_total)]] = True
        self.extra = spread(rng, np.sqrt(size), company_total - int(self.home.sum()), 10_000)


def generate_documents(
    cfg: SizeConfig,
    seed: int,
    as_of: date,
    companies: list[Company],
    people: list[Person],
    interests: list[tuple[Topic, ...]],
    taken_domains: set[str],
) -> Iterator[DocumentRow]:
    """Document rows in id order: each company's pages, then personal sites."""
    rng = stage_rng(seed, "documents")
    rnd = stage_random(seed, "documents")
    staff: list[list[Person]] = [[] for _ in companies]
    for p in people:
        staff[p.company.index].append(p)
    plan = _Plan(cfg, rng, companies, staff, people)
    periods = report_periods(as_of)
    counter = 0
    for c in companies:
        for page, tag in _company_pages(rnd, c, staff[c.index], plan, companies, periods, as_of, counter):
            yield _row(counter, page, "company" if tag is None else tag[0], c, tag[1] if tag else None)
            counter += 1
    used = set(taken_domains)
    for person in people:
        if plan.personal[person.index]:
            zh = person.name.language == "zh" and rnd.random() < 0.5
            page = personal_page(
                rnd, person, _personal_domain(person, used), interests[person.index], zh, as_of
            )
            yield _row(counter, page, "personal site", person.company, person)
            counter += 1


def _row(index: int, page: Page, category: str, c: Company, person: Person | None) -> DocumentRow:
    host = page.url.split("/")[2]
    country = person.country if person is not None and category == "personal site" else c.country.alpha2
    return (
        document_id(index),
        page.url,
        host,
        category,
        page.title,
        page.author,
        page.published_date,
        page.image,
        page.text,
        country,
        page.language,
        c.id,
        person.id if person else None,
    )


_Tagged = tuple[Page, tuple[str, Person | None] | None]


def _company_pages(
    rnd: random.Random,
    c: Company,
    members: list[Person],
    plan: _Plan,
    companies: list[Company],
    periods: list,
    as_of: date,
    start: int,
) -> Iterator[_Tagged]:
    """A company's documents; the tag names the category when it is not "company"."""
    ceo = members[0] if members else None
    zh_share = _ZH_PAGE_SHARE.get(c.country.alpha2, 0.0)
    if plan.home[c.index]:
        yield home_page(rnd, c, ceo, rnd.random() < zh_share), None
    extra = int(plan.extra[c.index])
    fixed = (
        lambda: about_page(rnd, c, ceo, rnd.random() < zh_share),
        lambda: offer_page(rnd, c, rnd.random() < zh_share),
        lambda: careers_page(rnd, c, members, as_of),
    )
    for k in range(extra):
        if k < len(fixed):
            yield fixed[k](), None
        else:
            author = rnd.choice(members) if members and rnd.random() < 0.7 else None
            pool = topics_for(author.department if author else "marketing", c.industry.sector.key)
            yield blog_page(rnd, c, author, rnd.choice(pool), start + k, as_of), None
    for k in range(int(plan.news[c.index])):
        yield _news(rnd, c, members, companies, as_of, start + extra + k, zh_share), ("news", None)
    cfo = next((p for p in members if p.department == "finance" and p.seniority == "c_level"), ceo)
    for period in rnd.sample(periods, min(len(periods), int(plan.reports[c.index]))):
        yield financial_page(rnd, c, period, cfo, rnd.random() < zh_share * 0.8), ("financial report", None)
    if plan.team[c.index]:
        yield team_page(rnd, c, members, rnd.random() < zh_share), ("people", None)


def _news(
    rnd: random.Random,
    c: Company,
    members: list[Person],
    companies: list[Company],
    as_of: date,
    n: int,
    zh_share: float,
) -> Page:
    event = event_for(rnd, c)
    other = companies[rnd.randrange(len(companies))]
    if other.index == c.index and len(companies) > 1:
        other = companies[(c.index + 1) % len(companies)]
    leaders = [
        p for p in members if p.seniority in ("c_level", "vp", "director") and p.department != "executive"
    ]
    person = rnd.choice(leaders) if leaders else None
    if event == "appointment" and person is None:
        event = "expansion"
    ceo = members[0] if members else None
    return news_page(rnd, c, event, other, person, ceo, as_of, n, rnd.random() < zh_share)


def _personal_domain(person: Person, used: set[str]) -> str:
    first = slugify(person.name.first, "")
    last = slugify(person.name.last, "")
    labels = (f"{first}{last}", f"{first}-{last}", f"{first[:1]}{last}")
    return claim_label(used, labels, f"{first}{last}", suffix=".example") + ".example"
