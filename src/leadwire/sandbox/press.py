"""Dated documents of the sandbox world: news articles about company events (funding, expansion,
partnerships, launches, appointments, trade fairs, contracts) and financial reports with figures."""

from __future__ import annotations

import random
from datetime import date, timedelta

from leadwire.sandbox.companies import Company
from leadwire.sandbox.pages import Page
from leadwire.sandbox.people import Person
from leadwire.sandbox.texts import REGION_WORDS, fair_for, industry_words, join_words, offer_words, zh_text

OUTLETS = (
    "tradewire.example",
    "bizdaily.example",
    "techherald.example",
    "industryweekly.example",
    "supplychaindigest.example",
    "eurobusinessnews.example",
    "asiabizreview.example",
    "americasbusinessjournal.example",
    "startupwire.example",
    "manufacturingtoday.example",
)
ZH_OUTLETS = ("caijingribao.example", "kejixinwen.example", "huashangbao.example")
REPORTERS = (
    "Emma Hartley",
    "Daniel Brooks",
    "Sofia Marino",
    "Lukas Becker",
    "Priya Raman",
    "James Okafor",
    "Claire Dubois",
    "Kenji Mori",
    "Ana Lima",
    "Tom Fischer",
    "Grace Liu",
    "Marek Nowak",
)
INVESTORS = (
    "Northwind Ventures",
    "Blue Harbor Capital",
    "Summit Peak Partners",
    "Meridian Growth",
    "Granite Street Capital",
    "Lighthouse Ventures",
    "Red Oak Equity",
    "Atlas Seed Fund",
)
FX_PER_USD = {
    "USD": 1,
    "EUR": 0.92,
    "GBP": 0.79,
    "CHF": 0.88,
    "SEK": 10.5,
    "DKK": 6.9,
    "NOK": 10.6,
    "PLN": 4.0,
    "CZK": 23,
    "HUF": 360,
    "RON": 4.6,
    "TRY": 32,
    "CAD": 1.36,
    "MXN": 17,
    "BRL": 5.0,
    "ARS": 900,
    "CLP": 930,
    "COP": 3900,
    "AED": 3.67,
    "ZAR": 18.5,
    "NGN": 1500,
    "KES": 130,
    "INR": 83,
    "PKR": 280,
    "THB": 36,
    "VND": 25000,
    "IDR": 16000,
    "PHP": 57,
    "JPY": 150,
    "KRW": 1350,
    "CNY": 7.2,
    "TWD": 32,
    "HKD": 7.8,
    "SGD": 1.35,
    "AUD": 1.52,
    "NZD": 1.65,
}
# event -> weight for tech-like sectors, weight for goods sectors, weight for other services
EVENTS = {
    "funding": (5, 1, 2),
    "expansion": (3, 3, 3),
    "partnership": (3, 2, 3),
    "launch": (3, 3, 2),
    "appointment": (2, 2, 2),
    "trade fair": (1, 4, 1),
    "contract": (2, 3, 3),
    "award": (1, 1, 1),
}
_TECHY = frozenset({"software", "it_services", "electronics", "medical", "telecom"})


def event_for(rnd: random.Random, c: Company) -> str:
    """The kind of news event, weighted by what the company's sector typically announces."""
    col = 0 if c.industry.sector.key in _TECHY else 1 if c.products else 2
    return rnd.choices(list(EVENTS), [w[col] for w in EVENTS.values()])[0]


def news_page(
    rnd: random.Random,
    c: Company,
    event: str,
    other: Company,
    person: Person | None,
    ceo: Person | None,
    as_of: date,
    n: int,
    zh: bool,
) -> Page:
    """One news article about `c`; `other` is a second company the event may involve."""
    published = as_of - timedelta(days=rnd.randint(0, 729))
    title, body = (_zh_event if zh else _event)(rnd, c, event, other, person)
    if zh:
        title, body = zh_text(c, title), zh_text(c, body)
    elif ceo is not None and event != "appointment":
        body += f'\n\n"{_quote(rnd, c)}," said {ceo.name.full}, {ceo.title} of {c.brand}.'
    slug = "".join(ch if ch.isalnum() else "-" for ch in title.lower() if ch.isascii())
    slug = "-".join(w for w in slug.split("-") if w)[:70] or f"{c.slug}-{event.replace(' ', '-')}"
    on_outlet = rnd.random() < 0.6
    if on_outlet:
        host = rnd.choice(ZH_OUTLETS if zh else OUTLETS)
        url = f"https://{host}/{published:%Y/%m}/{slug}-{n}"
        author = rnd.choice(REPORTERS)
    else:
        url = rnd.choice((f"https://{c.domain}/press/{slug}-{n}", f"https://news.{c.domain}/{slug}-{n}"))
        author = None
    image = f"https://{url.split('/')[2]}/img/{n}.jpg" if rnd.random() < 0.5 else None
    dateline = f"{c.city.upper()}, {published:%B} {published.day}, {published.year} — " if not zh else ""
    return Page(url, title, dateline + body, published.isoformat(), author, image, "zh" if zh else "en")


def _event(
    rnd: random.Random, c: Company, event: str, other: Company, person: Person | None
) -> tuple[str, str]:
    offer = join_words(offer_words(c)[:2])
    about = (
        f"{c.brand} is {_a(c.industry.synonyms[0])} based in {c.city}, {c.country.name}, with "
        f"{c.employees:,} employees. It was founded in {c.founded_year}."
    )
    if event == "funding":
        amount, series = _funding(rnd, c)
        investor = rnd.choice(INVESTORS)
        title = f"{c.name} raises ${amount}M Series {series} to grow {c.specialty}"
        body = (
            f"{c.brand} has raised ${amount} million in a Series {series} round led by {investor}. "
            f"The funding will be used to expand {c.specialty}, hire across sales and engineering and enter "
            f"new markets in {REGION_WORDS[c.country.region]}."
        )
    elif event == "expansion":
        city = rnd.choice([x for x in c.country.cities if x != c.city] or [other.city])
        title = f"{c.name} opens new site in {city}"
        body = (
            f"{c.brand}, the {c.city}-based {c.industry.synonyms[0]}, is opening a new site in {city} "
            f"to serve growing demand for {offer}. The expansion adds around "
            f"{max(5, c.employees // 10)} jobs."
        )
    elif event == "partnership":
        title = f"{c.brand} and {other.brand} announce strategic partnership"
        body = (
            f"{c.name} ({c.country.name}) and {other.name} ({other.country.name}) have agreed a partnership "
            f"combining {offer} with {other.brand}'s expertise in {other.specialty}."
        )
    elif event == "launch":
        title = f"{c.brand} launches new {offer_words(c)[0]} line"
        body = (
            f"{c.brand} today introduced a new generation of {offer}. The launch targets customers in "
            f"{industry_words(other)} and {industry_words(c)}, and is available from {c.city}."
        )
    elif event == "appointment" and person is not None:
        title = f"{c.name} appoints {person.name.full} as {person.title}"
        body = (
            f"{c.brand} has appointed {person.name.full} as {person.title}, effective immediately. "
            f"{person.name.full} joins the {c.city} team to lead {person.department} as the "
            f"{c.industry.synonyms[0]} continues to grow."
        )
    elif event == "trade fair":
        fair = fair_for(rnd, c)
        title = f"{c.brand} to showcase {offer_words(c)[0]} at {fair}"
        body = (
            f"{c.name} will exhibit at {fair}, presenting its {offer} to buyers and distributors. "
            f"The company expects strong interest from {REGION_WORDS[other.country.region]}."
        )
    elif event == "contract":
        title = f"{c.brand} wins multi-year contract with {other.brand}"
        body = (
            f"{other.name} has selected {c.brand} as a supplier of {offer}. The multi-year agreement covers "
            f"sites in {other.country.name} and is one of the largest in {c.brand}'s history."
        )
    else:
        title = f"{c.brand} named {industry_words(c)} company of the year in {c.country.name}"
        body = (
            f"{c.name} received this year's industry award for excellence in {c.specialty}, "
            f"recognising growth, customer satisfaction and innovation."
        )
    context = rnd.choice(
        (
            f"The announcement comes as demand for {offer} in {REGION_WORDS[c.country.region]} keeps "
            "growing and "
            f"buyers consolidate their supplier base.",
            f"Industry observers see {industry_words(c)} as one of the more resilient segments in "
            f"{c.country.name} "
            f"this year, with investment in {rnd.choice(c.technologies)} and automation on the rise.",
            f"{c.brand} has expanded steadily since {c.founded_year} and now counts customers in more than "
            f"{rnd.randint(3, 40)} countries.",
        )
    )
    other_about = (
        f"\n\nAbout {other.brand}: {other.name} is {_a(other.industry.synonyms[0])} based in "
        f"{other.city}, {other.country.name}."
        if event in ("partnership", "contract")
        else ""
    )
    return title, f"{body}\n\n{context}\n\n{about}{other_about}"


def _a(noun: str) -> str:
    return f"{'an' if noun[0].lower() in 'aeiou' else 'a'} {noun}"


def _funding(rnd: random.Random, c: Company) -> tuple[int, str]:
    series = "A" if c.employees < 50 else "B" if c.employees < 250 else "C"
    base = {"A": 8, "B": 30, "C": 90}[series]
    return max(1, int(base * rnd.uniform(0.4, 2.5))), series


def _quote(rnd: random.Random, c: Company) -> str:
    return rnd.choice(
        (
            f"This is an important step for {c.brand} and for our customers",
            f"Demand for {offer_words(c)[0]} keeps growing, and we are ready for it",
            "Our team has worked hard for this moment",
            f"We see a big opportunity in {REGION_WORDS[c.country.region]}",
        )
    )


_ZH_EVENTS = {
    "funding": (
        "{zh}完成新一轮融资",
        "{zh}宣布完成新一轮融资，资金将用于扩大{ind}业务、招聘人才并开拓海外市场。",
    ),
    "expansion": ("{zh}在{city}设立新基地", "{zh}宣布扩建产能，以满足市场对{ind}产品日益增长的需求。"),
    "partnership": (
        "{zh}与{other}达成战略合作",
        "{zh}与{other}签署战略合作协议，双方将在{ind}领域展开深度合作。",
    ),
    "launch": ("{zh}发布新一代产品", "{zh}正式发布新一代{ind}产品，面向国内外客户。"),
    "appointment": ("{zh}任命新高管", "{zh}宣布任命{person}为{title}。"),
    "trade fair": ("{zh}亮相{fair}", "{zh}参加{fair}，展示最新{ind}产品与解决方案。"),
    "contract": ("{zh}签下长期供货合同", "{zh}与{other}签署多年供货合同。"),
    "award": ("{zh}荣获年度行业大奖", "{zh}凭借在{ind}领域的创新获得年度行业奖项。"),
}


def _zh_event(
    rnd: random.Random, c: Company, event: str, other: Company, person: Person | None
) -> tuple[str, str]:
    title, body = _ZH_EVENTS[event]
    values = {
        "zh": c.name_zh or c.name,
        "ind": c.industry.zh,
        "city": c.city_zh or c.city,
        "other": other.name_zh or other.name,
        "fair": fair_for(rnd, c),
        "person": (person.name.full_zh or person.name.full) if person else "新任高管",
        "title": (person.title_zh or person.title) if person else "",
    }
    about = f"{values['zh']}成立于{c.founded_year}年，总部位于{values['city']}，员工约{c.employees}人。"
    return title.format_map(values), body.format_map(values) + "\n\n" + about


def report_periods(as_of: date) -> list[tuple[str, date, date]]:
    """(label, period end, publication date) of the last eight quarters and two fiscal years."""
    out = []
    year, quarter = as_of.year, (as_of.month - 1) // 3  # the quarter before the current one
    for _ in range(8):
        if quarter == 0:
            year, quarter = year - 1, 4
        end = date(year, quarter * 3, 30 if quarter in (2, 3) else 31)
        out.append((f"Q{quarter} {year}", end, end + timedelta(days=35)))
        quarter -= 1
    for fy in (as_of.year - 1, as_of.year - 2):
        out.append((f"FY {fy}", date(fy, 12, 31), date(fy + 1, 3, 20)))
    return [p for p in out if p[2] <= as_of] or out[-1:]


def financial_page(
    rnd: random.Random, c: Company, period: tuple[str, date, date], cfo: Person | None, zh: bool
) -> Page:
    """A results release with revenue, growth, margin and headcount figures."""
    label, _end, published = period
    annual = label.startswith("FY")
    cur = c.country.currency
    revenue = c.revenue_usd * FX_PER_USD.get(cur, 1) * (1 if annual else 0.25) * rnd.uniform(0.9, 1.1) / 1e6
    growth = round(rnd.gauss(6, 12), 1)
    margin = round(rnd.uniform(18, 65), 1)
    ebitda = revenue * rnd.uniform(0.04, 0.25)
    if zh:
        title = zh_text(c, f"{c.name_zh}发布{label}业绩")
        body = zh_text(
            c,
            f"{c.name_zh}公布{label}业绩：营业收入{revenue:,.1f}百万{cur}，同比"
            f"{'增长' if growth >= 0 else '下降'}{abs(growth)}%；毛利率{margin}%；"
            f"息税折旧摊销前利润{ebitda:,.1f}百万{cur}。截至期末，公司员工{c.employees}人。",
        )
    else:
        title = f"{c.name} reports {label} results"
        direction = "up" if growth >= 0 else "down"
        body = "\n\n".join(
            (
                f"{c.name} today reported results for {label}.",
                f"Revenue reached {cur} {revenue:,.1f} million, {direction} {abs(growth)}% year on year. "
                "Gross margin "
                f"was {margin}% and EBITDA came in at {cur} {ebitda:,.1f} million.",
                f"Sales of {join_words(offer_words(c)[:2])} led the period, with "
                f"{rnd.randint(35, 80)}% of revenue from {c.country.name}.",
                f"The company ended the period with {c.employees:,} employees.",
                f'"{rnd.choice(_OUTLOOK)}," said {cfo.name.full}, {cfo.title}.'
                if cfo
                else rnd.choice(_OUTLOOK) + ".",
            )
        )
    slug = label.lower().replace(" ", "-")
    url = (
        f"https://investors.{c.domain}/reports/{slug}"
        if rnd.random() < 0.6
        else f"https://{c.domain}/investors/{'annual-report' if annual else 'results'}-{slug}"
    )
    return Page(url, title, body, published.isoformat(), None, None, "zh" if zh else "en")


_OUTLOOK = (
    "We remain confident in our full-year outlook",
    "Order intake gives us good visibility for the coming quarters",
    "We continue to invest in capacity and people",
    "Margins improved on better pricing and lower input costs",
)
