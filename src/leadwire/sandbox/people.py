"""People of the sandbox world: per-company org charts (the true reporting lines), titles consistent
with department and seniority, locale-appropriate names, e-mail addresses and LinkedIn profiles."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from leadwire.sandbox.chinese import to_traditional
from leadwire.sandbox.companies import Company
from leadwire.sandbox.config import SizeConfig, stage_random, stage_rng
from leadwire.sandbox.geo import countries
from leadwire.sandbox.names import PersonName, draw_names, slugify
from leadwire.sandbox.roles import CHIEF_DEPARTMENTS, DEPARTMENT_PROFILES, title_for

_TECH_SECTORS = frozenset({"software", "it_services", "electronics", "telecom"})
_INDUSTRIAL_PROFILES = frozenset({"industrial", "tech_industrial"})
# management level -> smallest team below it that justifies the level
_LEVEL_MIN_TEAM = {"vp": 6, "director": 3, "manager": 2}
_LEVELS_BELOW = {
    "c_level": ("vp", "director", "manager"),
    "vp": ("director", "manager"),
    "director": ("manager",),
    "manager": (),
}


@dataclass(slots=True)
class Person:
    """One generated person; `index` is its position (and id number - 1)."""

    index: int
    company: Company
    name: PersonName
    department: str
    seniority: str
    title: str
    title_zh: str | None
    manager_index: int | None
    email: str = ""
    email_status: str = ""
    slug: str = ""
    country: str = ""
    city: str = ""

    @property
    def id(self) -> str:
        return person_id(self.index)

    @property
    def manager_id(self) -> str | None:
        return None if self.manager_index is None else person_id(self.manager_index)

    @property
    def linkedin_url(self) -> str:
        return f"https://www.linkedin.com/in/{self.slug}"


def person_id(index: int) -> str:
    """Public id of the person at `index`."""
    return f"per_{index + 1:07d}"


def people_per_company(companies: list[Company], total: int, cap: int) -> np.ndarray:
    """How many people each company gets: grows with headcount, 2 to `cap`, summing to `total`."""
    employees = np.array([c.employees for c in companies], dtype=float)
    upper = np.minimum(cap, np.maximum(2, employees)).astype(np.int64)

    def counts(k: float) -> np.ndarray:
        return np.clip(np.round(k * employees**0.42), 2, upper).astype(np.int64)

    lo, hi = 0.01, 100.0
    for _ in range(60):  # bisection on the scale so the sum lands on the target
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if counts(mid).sum() < total else (lo, mid)
    out = counts(hi)
    _nudge(out, upper, total)
    return out


def _nudge(counts: np.ndarray, upper: np.ndarray, total: int) -> None:
    # rounding leaves a small gap; close it one person at a time, biggest companies first
    order = np.argsort(-counts, kind="stable")
    i = 0
    while counts.sum() != total and i < 10 * len(counts):
        j = order[i % len(order)]
        if counts.sum() < total and counts[j] < upper[j]:
            counts[j] += 1
        elif counts.sum() > total and counts[j] > 2:
            counts[j] -= 1
        i += 1


def generate_people(cfg: SizeConfig, seed: int, companies: list[Company]) -> list[Person]:
    """Everyone in the world, company by company, each company's CEO first."""
    rng = stage_rng(seed, "people")
    rnd = stage_random(seed, "people")
    sizes = people_per_company(companies, cfg.people, cfg.max_people_per_company)
    charts = [_org_chart(rnd, int(size), company) for company, size in zip(companies, sizes, strict=True)]
    names = _names_for(rng, companies, sizes)
    people: list[Person] = []
    used_slugs: set[str] = set()
    for company, chart in zip(companies, charts, strict=True):
        base = len(people)
        used_emails: set[str] = set()
        industrial = company.industry.sector.profile in _INDUSTRIAL_PROFILES
        for dept, seniority, parent in chart:
            name = names[len(people)]
            title, title_zh = title_for(rnd, dept, seniority, industrial)
            person = Person(
                index=len(people),
                company=company,
                name=name,
                department=dept,
                seniority=seniority,
                title=title,
                title_zh=_zh_title(company, title_zh),
                manager_index=None if parent is None else base + parent,
            )
            _contact_details(rnd, person, used_emails, used_slugs)
            people.append(person)
    return people


def _names_for(rng: np.random.Generator, companies: list[Company], sizes: np.ndarray) -> list[PersonName]:
    # names are drawn per country in one vectorised batch, then dealt out in company order
    country_of = np.repeat([c.country.alpha2 for c in companies], sizes)
    out: list[PersonName | None] = [None] * int(sizes.sum())
    for country in countries():
        idx = np.flatnonzero(country_of == country.alpha2)
        for i, name in zip(idx, draw_names(rng, country, len(idx)), strict=True):
            out[i] = name
    return [n for n in out if n is not None]


def _zh_title(company: Company, title_zh: str) -> str | None:
    if not company.country.zh:
        return None
    return to_traditional(title_zh) if company.country.alpha2 in ("TW", "HK") else title_zh


def _org_chart(rnd: random.Random, n: int, company: Company) -> list[tuple[str, str, int | None]]:
    """(department, seniority, parent position) for n people; position 0 is the CEO."""
    chart: list[tuple[str, str, int | None]] = [("executive", "c_level", None)]
    profile = DEPARTMENT_PROFILES[company.industry.sector.profile]
    techy = company.industry.sector.key in _TECH_SECTORS
    k = max(1, min(n - 1, 11, round(1 + (n - 1) / 4.5)))
    depts = _weighted_sample(rnd, profile, k)
    sizes = dict.fromkeys(depts, 1)
    for d in rnd.choices(depts, [profile[d] for d in depts], k=n - 1 - k):
        sizes[d] += 1
    for dept in sorted(depts, key=lambda d: -sizes[d]):
        level = _head_level(rnd, n, sizes[dept], dept, techy)
        chart.append((dept, level, 0))
        _fill(rnd, chart, len(chart) - 1, dept, level, sizes[dept] - 1)
    return chart


def _weighted_sample(rnd: random.Random, weights: dict[str, float], k: int) -> list[str]:
    pool = dict(weights)
    out = []
    for _ in range(min(k, len(pool))):
        pick = rnd.choices(list(pool), list(pool.values()))[0]
        out.append(pick)
        del pool[pick]
    return out


def _head_level(rnd: random.Random, n: int, size: int, dept: str, techy: bool) -> str:
    if n >= 25:
        if dept in CHIEF_DEPARTMENTS and size >= 3:
            return "c_level"
        return "vp" if size >= 4 else "director"
    if n >= 12:
        if dept in ("finance", "engineering") and size >= 3 and rnd.random() < 0.5:
            return "c_level"
        if size >= 5:
            return "vp"
        return "director" if size >= 2 or rnd.random() < 0.5 else "manager"
    if dept == "engineering" and techy and rnd.random() < 0.6:
        return "c_level"
    if size >= 3:
        return "director"
    return "manager" if size == 2 or rnd.random() < 0.5 else "senior"


def _fill(
    rnd: random.Random,
    chart: list[tuple[str, str, int | None]],
    node: int,
    dept: str,
    level: str,
    budget: int,
) -> None:
    """Adds `budget` people below chart[node], managers first, then individual contributors."""
    if budget <= 0:
        return
    below = [lvl for lvl in _LEVELS_BELOW.get(level, ()) if budget >= _LEVEL_MIN_TEAM[lvl]]
    if not below:
        for _ in range(budget):
            chart.append((dept, "senior" if rnd.random() < 0.4 else "entry", node))
        return
    child_level = below[0]
    managers = max(1, min(budget, round(budget / 6)))
    rest = budget - managers
    shares = [rest // managers + (1 if i < rest % managers else 0) for i in range(managers)]
    for share in shares:
        chart.append((dept, child_level, node))
        _fill(rnd, chart, len(chart) - 1, dept, child_level, share)


def _contact_details(rnd: random.Random, person: Person, used_emails: set[str], used_slugs: set[str]) -> None:
    company, name = person.company, person.name
    first = slugify(name.first.split()[0] if name.first.split() else name.first, "")
    last = slugify(name.last, "")
    local = company.email_pattern.format(first=first, last=last, f=first[:1], l=last[:1]) or "info"
    candidate, n = local, 2
    while candidate in used_emails:
        candidate, n = f"{local}{n}", n + 1
    used_emails.add(candidate)
    person.email = f"{candidate}@{company.domain}"
    person.email_status = _email_status(rnd, company.catch_all)
    person.slug = _unique_slug(rnd, f"{slugify(name.first)}-{slugify(name.last)}".strip("-"), used_slugs)
    person.country, person.city = _location(rnd, company)


def _email_status(rnd: random.Random, catch_all: bool) -> str:
    u = rnd.random()
    if catch_all:
        return "accept_all" if u < 0.85 else "unknown"
    return "valid" if u < 0.72 else "unknown" if u < 0.86 else "invalid"


def _unique_slug(rnd: random.Random, base: str, used: set[str]) -> str:
    base = base or "member"
    if base not in used and rnd.random() < 0.3:
        used.add(base)
        return base
    while True:
        slug = f"{base}-{rnd.getrandbits(32):08x}"
        if slug not in used:
            used.add(slug)
            return slug


def _location(rnd: random.Random, company: Company) -> tuple[str, str]:
    u = rnd.random()
    if u < 0.9:
        return company.country.alpha2, company.city
    if u < 0.98:
        return company.country.alpha2, rnd.choice(company.country.cities)
    other = rnd.choice(countries())
    return other.alpha2, other.cities[0]
