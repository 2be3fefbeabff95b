"""Sandbox contacts adapter over a small hand-built world following the table contract."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from leadwire.providers.contacts import ContactsProvider, ContactsProviderError
from leadwire.providers.sandbox_contacts import SandboxContactsProvider, split_chinese_name

COMPANIES = [
    ("cmp_1", "Acme Robotics", None, "acme-robotics.example", "US"),
    ("cmp_2", "Dragon Trading", "龙贸易", "dragon-trading.example", "CN"),
    ("cmp_3", "Empty Shell", None, "empty-shell.example", "US"),
]
# (id, company, first, last, full, full_zh, title, title_zh, department, seniority, manager, status, language)
PEOPLE = [
    (
        "per_1",
        "cmp_1",
        "Ada",
        "Stone",
        "Ada Stone",
        None,
        "Chief Executive Officer",
        None,
        "executive",
        "c_level",
        None,
        "valid",
        "en",
    ),
    (
        "per_2",
        "cmp_1",
        "Ben",
        "Ortiz",
        "Ben Ortiz",
        None,
        "VP of Sales",
        None,
        "sales",
        "vp",
        "per_1",
        "accept_all",
        "en",
    ),
    (
        "per_3",
        "cmp_1",
        "Cy",
        "Park",
        "Cy Park",
        None,
        "Account Executive",
        None,
        "sales",
        "entry",
        "per_4",
        "unknown",
        "en",
    ),
    (
        "per_4",
        "cmp_1",
        "Di",
        "Ng",
        "Di Ng",
        None,
        "Sales Manager",
        None,
        "sales",
        "manager",
        "per_2",
        "valid",
        "en",
    ),
    (
        "per_5",
        "cmp_1",
        "Ed",
        "Fox",
        "Ed Fox",
        None,
        "Senior Software Engineer",
        None,
        "engineering",
        "senior",
        "per_6",
        "invalid",
        "en",
    ),
    (
        "per_6",
        "cmp_1",
        "Flo",
        "Kim",
        "Flo Kim",
        None,
        "CTO",
        None,
        "engineering",
        "c_level",
        "per_1",
        "valid",
        "en",
    ),
    (
        "per_10",
        "cmp_2",
        "Wei",
        "Zhang",
        "Wei Zhang",
        "张伟",
        "Managing Director",
        "总经理",
        "executive",
        "c_level",
        None,
        "valid",
        "zh",
    ),
    (
        "per_11",
        "cmp_2",
        "Na",
        "Li",
        "Na Li",
        "李娜",
        "Sales Director",
        "销售总监",
        "sales",
        "director",
        "per_10",
        "valid",
        "zh",
    ),
    (
        "per_12",
        "cmp_2",
        "Min",
        "Ouyang",
        "Min Ouyang",
        "欧阳敏",
        "Purchasing Manager",
        "采购经理",
        "procurement",
        "manager",
        "per_10",
        "valid",
        "zh",
    ),
]


def build_world(world_dir: Path) -> None:
    world_dir.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(world_dir / "world.db") as conn:
        conn.execute(
            "CREATE TABLE companies (id TEXT PRIMARY KEY, name TEXT, name_zh TEXT, domain TEXT UNIQUE, "
            "country TEXT)"
        )
        conn.execute(
            "CREATE TABLE people (id TEXT PRIMARY KEY, company_id TEXT, first_name TEXT, last_name TEXT, "
            "full_name TEXT, full_name_zh TEXT, title TEXT, title_zh TEXT, department TEXT, seniority TEXT, "
            "manager_id TEXT, email TEXT, email_status TEXT, linkedin_url TEXT UNIQUE, country TEXT, "
            "city TEXT, language TEXT)"
        )
        conn.executemany("INSERT INTO companies VALUES (?, ?, ?, ?, ?)", COMPANIES)
        domains = {c[0]: c[3] for c in COMPANIES}
        for p in PEOPLE:
            email = f"{p[2].lower()}.{p[3].lower()}@{domains[p[1]]}"
            row = (*p[:11], email, p[11], f"https://www.linkedin.com/in/{p[0]}", "US", "Austin", p[12])
            conn.execute("INSERT INTO people VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)


@pytest.fixture
def provider(tmp_path: Path) -> SandboxContactsProvider:
    build_world(tmp_path / "world")
    return SandboxContactsProvider(tmp_path / "world")


def test_sandbox_provider_satisfies_the_port(provider: SandboxContactsProvider) -> None:
    assert isinstance(provider, ContactsProvider)


async def test_people_of_the_domain_most_senior_first(provider: SandboxContactsProvider) -> None:
    result = await provider.domain_search("acme-robotics.example", limit=50, positions=[], locale="en")
    assert result.company_name == "Acme Robotics"
    assert [c.position for c in result.contacts] == [
        "Chief Executive Officer",
        "CTO",
        "VP of Sales",
        "Sales Manager",
        "Senior Software Engineer",
        "Account Executive",
    ]
    first = result.contacts[0]
    assert (first.email, first.status, first.first_name, first.last_name, first.full_name) == (
        "ada.stone@acme-robotics.example",
        "valid",
        "Ada",
        "Stone",
        "Ada Stone",
    )
    assert first.linkedin_url == "https://www.linkedin.com/in/per_1"
    assert (first.department, first.seniority) == ("executive", "c_level")


async def test_limit_keeps_the_most_senior(provider: SandboxContactsProvider) -> None:
    result = await provider.domain_search("acme-robotics.example", limit=2, positions=[], locale="en")
    assert [c.position for c in result.contacts] == ["Chief Executive Officer", "CTO"]


async def test_positions_filter_titles(provider: SandboxContactsProvider) -> None:
    result = await provider.domain_search("acme-robotics.example", limit=50, positions=["sales"], locale="en")
    assert [c.position for c in result.contacts] == ["VP of Sales", "Sales Manager"]
    engineers = await provider.domain_search(
        "acme-robotics.example", limit=50, positions=["engineer", "ceo"], locale="en"
    )
    assert [c.position for c in engineers.contacts] == ["Chief Executive Officer", "Senior Software Engineer"]


async def test_chinese_keyword_matches_english_only_titles(provider: SandboxContactsProvider) -> None:
    result = await provider.domain_search("acme-robotics.example", limit=50, positions=["销售"], locale="en")
    assert [c.position for c in result.contacts] == ["VP of Sales", "Sales Manager"]


async def test_locale_zh_returns_chinese_names_and_titles(provider: SandboxContactsProvider) -> None:
    result = await provider.domain_search("dragon-trading.example", limit=50, positions=[], locale="zh")
    assert result.company_name == "龙贸易"
    assert [(c.full_name, c.last_name, c.first_name, c.position) for c in result.contacts] == [
        ("张伟", "张", "伟", "总经理"),
        ("李娜", "李", "娜", "销售总监"),
        ("欧阳敏", "欧阳", "敏", "采购经理"),
    ]
    english = await provider.domain_search("dragon-trading.example", limit=50, positions=[], locale="en")
    assert english.company_name == "Dragon Trading"
    assert english.contacts[0].position == "Managing Director"


async def test_keywords_match_chinese_titles(provider: SandboxContactsProvider) -> None:
    result = await provider.domain_search("dragon-trading.example", limit=50, positions=["采购"], locale="zh")
    assert [c.position for c in result.contacts] == ["采购经理"]
    ceo = await provider.domain_search("dragon-trading.example", limit=50, positions=["CEO"], locale="zh")
    assert [c.position for c in ceo.contacts] == ["总经理"]


async def test_locale_zh_falls_back_to_english_where_the_world_has_no_chinese(
    provider: SandboxContactsProvider,
) -> None:
    result = await provider.domain_search("acme-robotics.example", limit=1, positions=[], locale="zh")
    assert result.company_name == "Acme Robotics"
    assert result.contacts[0].position == "Chief Executive Officer"


async def test_unknown_domain_and_company_without_people_are_empty(provider: SandboxContactsProvider) -> None:
    unknown = await provider.domain_search("nobody.example", limit=10, positions=[], locale="en")
    assert (unknown.company_name, unknown.contacts) == (None, [])
    empty = await provider.domain_search("empty-shell.example", limit=10, positions=[], locale="en")
    assert (empty.company_name, empty.contacts) == ("Empty Shell", [])


async def test_missing_world_is_unavailable(tmp_path: Path) -> None:
    provider = SandboxContactsProvider(tmp_path / "nowhere")
    with pytest.raises(ContactsProviderError) as info:
        await provider.domain_search("acme-robotics.example", limit=10, positions=[], locale="en")
    assert info.value.code == "contacts_provider_unavailable"


async def test_the_world_is_opened_read_only(provider: SandboxContactsProvider, tmp_path: Path) -> None:
    db = tmp_path / "world" / "world.db"
    before = db.stat().st_mtime_ns
    await provider.domain_search("acme-robotics.example", limit=10, positions=[], locale="en")
    assert db.stat().st_mtime_ns == before


def test_chinese_names_split_family_name_first() -> None:
    assert split_chinese_name("张伟") == ("张", "伟")
    assert split_chinese_name("司马相如") == ("司马", "相如")
    assert split_chinese_name("欧阳") == ("欧", "阳")
