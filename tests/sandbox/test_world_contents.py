"""Shape and internal consistency of a small world: counts, org trees, e-mails, Chinese paths,
documents, posts and shipments."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import duckdb
import pytest

from leadwire.sandbox.config import SIZES
from leadwire.sandbox.roles import RANK
from leadwire.sandbox.store import open_world, world_is_built
from leadwire.sandbox.world import WorldStats

from .conftest import AS_OF


@pytest.fixture
def db(small_world: Path) -> Iterator[sqlite3.Connection]:
    con = open_world(small_world)
    yield con
    con.close()


def test_counts_match_the_small_preset(small_stats: tuple[Path, WorldStats]) -> None:
    world_dir, stats = small_stats
    cfg = SIZES["small"]
    assert stats.counts == {
        "companies": cfg.companies,
        "people": cfg.people,
        "documents": cfg.documents,
        "posts": cfg.posts,
        "shipments": cfg.shipments,
    }
    assert world_is_built(world_dir)
    assert set(stats.bytes) == {"world.db", "trade.duckdb"} and all(v > 0 for v in stats.bytes.values())
    assert not [p for p in world_dir.parent.iterdir() if p.name.startswith(".")]  # no leftover build dirs


def test_companies_look_real(db: sqlite3.Connection) -> None:
    rows = db.execute("SELECT * FROM companies").fetchall()
    assert all(r["domain"].endswith(".example") for r in rows)
    assert len({r["domain"] for r in rows}) == len(rows)
    assert len({r["country"] for r in rows}) >= 40
    assert len({r["industry_code"] for r in rows}) >= 60
    for r in rows:
        assert r["industry"] and r["country3"] and len(r["country3"]) == 3
        assert r["employees"] >= 2 and 1800 < r["founded_year"] <= AS_OF.year
        assert r["industry"].lower() in r["description"].lower() or r["industry_code"] in r["description"]
        assert r["city"] in r["description"]
        assert isinstance(json.loads(r["technologies"]), list) and json.loads(r["technologies"])
        for product in json.loads(r["products"]):
            assert len(product["hs_code"]) == 6 and product["description"]


def test_every_company_has_exactly_one_root_and_no_cycles(db: sqlite3.Connection) -> None:
    people = db.execute("SELECT id, company_id, manager_id, seniority, department FROM people").fetchall()
    by_id = {p["id"]: p for p in people}
    roots = Counter(p["company_id"] for p in people if p["manager_id"] is None)
    assert set(roots.values()) == {1}
    assert set(roots) == {p["company_id"] for p in people}
    for p in people:
        seen, node = set(), p
        while node["manager_id"] is not None:
            assert node["id"] not in seen, "cycle"
            seen.add(node["id"])
            boss = by_id[node["manager_id"]]
            assert boss["company_id"] == node["company_id"]
            chief_to_ceo = node["seniority"] == "c_level" and boss["manager_id"] is None
            assert chief_to_ceo or RANK[boss["seniority"]] < RANK[node["seniority"]]
            node = boss
        assert node["seniority"] == "c_level" and node["department"] == "executive"


def test_titles_follow_seniority_and_department(db: sqlite3.Connection) -> None:
    rows = db.execute("SELECT title, seniority, department FROM people").fetchall()
    for r in rows:
        if r["seniority"] == "vp":
            assert "VP" in r["title"] or "Vice President" in r["title"]
        if r["seniority"] == "director":
            assert "Director" in r["title"] or "Head of" in r["title"]
        if r["seniority"] == "manager":
            assert "Manager" in r["title"] or "Lead" in r["title"]
        if r["seniority"] == "senior":
            assert r["title"].startswith("Senior ")


def test_people_per_company_follows_size(db: sqlite3.Connection) -> None:
    rows = db.execute(
        "SELECT c.employees, count(*) AS n FROM people p JOIN companies c ON c.id = p.company_id "
        "GROUP BY c.id"
    ).fetchall()
    assert all(2 <= r["n"] <= 40 for r in rows)
    small = [r["n"] for r in rows if r["employees"] < 15]
    large = [r["n"] for r in rows if r["employees"] > 2000]
    assert small and max(small) <= 6
    assert large and min(large) > max(small) / 2


def test_all_email_statuses_and_unique_profiles(db: sqlite3.Connection) -> None:
    statuses = {r[0] for r in db.execute("SELECT DISTINCT email_status FROM people")}
    assert statuses == {"valid", "accept_all", "unknown", "invalid"}
    mismatched = db.execute(
        "SELECT count(*) FROM people p JOIN companies c ON c.id = p.company_id "
        "WHERE p.email NOT LIKE '%@' || c.domain"
    ).fetchone()[0]
    assert mismatched == 0
    assert (
        db.execute(
            "SELECT count(*) FROM people WHERE linkedin_url NOT LIKE 'https://www.linkedin.com/in/%'"
        ).fetchone()[0]
        == 0
    )


def test_chinese_names_and_titles_in_chinese_regions(db: sqlite3.Connection) -> None:
    cn = db.execute("SELECT name_zh, description_zh FROM companies WHERE country = 'CN'").fetchall()
    assert cn and all(r["name_zh"] and r["name_zh"].endswith("有限公司") and r["description_zh"] for r in cn)
    people = db.execute(
        "SELECT p.* FROM people p JOIN companies c ON c.id = p.company_id WHERE c.country = 'CN'"
    ).fetchall()
    assert people and all(p["title_zh"] for p in people)
    assert all(p["full_name_zh"] and p["language"] == "zh" for p in people)
    assert any(p["title_zh"] == "首席执行官" for p in people)
    tw = db.execute(
        "SELECT p.title_zh FROM people p JOIN companies c ON c.id = p.company_id "
        "WHERE c.country = 'TW' AND p.seniority = 'director'"
    ).fetchall()
    assert all("总" not in r[0] for r in tw)  # Taiwan uses traditional characters
    assert (
        db.execute(
            "SELECT count(*) FROM people WHERE title_zh IS NOT NULL AND country IN ('US', 'DE') "
            "AND company_id IN (SELECT id FROM companies WHERE country IN ('US', 'DE'))"
        ).fetchone()[0]
        == 0
    )
    for table in ("documents", "posts"):
        assert db.execute(f"SELECT count(*) FROM {table} WHERE language = 'zh'").fetchone()[0] > 0


def test_documents_cover_every_category_with_their_own_style(db: sqlite3.Connection) -> None:
    rows = db.execute("SELECT * FROM documents").fetchall()
    assert {r["category"] for r in rows} == {"company", "news", "financial report", "people", "personal site"}
    for r in rows:
        assert r["url"].split("/")[2] == r["domain"]
        if r["category"] == "news":
            assert r["published_date"] and AS_OF - timedelta(days=731) <= date.fromisoformat(
                r["published_date"]
            )
        if r["category"] == "financial report":
            assert any(w in r["text"] for w in ("Revenue", "营业收入"))
        if r["category"] == "personal site":
            assert r["person_id"] and not r["domain"].startswith(("www.", "blog."))
    assert any(r["domain"].startswith("blog.") for r in rows)
    company_domains = {r[0] for r in db.execute("SELECT domain FROM companies")}
    assert not {r["domain"] for r in rows if r["category"] == "personal site"} & company_domains


def test_posts_have_topics_dates_and_authors(db: sqlite3.Connection) -> None:
    rows = db.execute("SELECT * FROM posts").fetchall()
    topics = Counter(r["topic"] for r in rows)
    assert len(topics) >= 15 and {"personal", "congratulations"} <= set(topics)
    start = (AS_OF - timedelta(days=366)).isoformat()
    assert all(start <= r["published_at"] < AS_OF.isoformat() + "T" for r in rows)
    assert all(r["urn"].startswith("urn:li:activity:") and len(r["urn"].split(":")[-1]) == 19 for r in rows)
    assert all(r["url"].endswith(r["urn"].split(":")[-1]) for r in rows)
    authors = Counter(r["author_id"] for r in rows)
    assert max(authors.values()) >= 5
    orphan = db.execute(
        "SELECT count(*) FROM posts p LEFT JOIN people pe ON pe.id = p.author_id "
        "WHERE pe.id IS NULL OR pe.linkedin_url <> p.author_profile_url"
    ).fetchone()[0]
    assert orphan == 0


def test_shipments_are_between_goods_companies_abroad(small_world: Path, db: sqlite3.Connection) -> None:
    companies = {r["id"]: r for r in db.execute("SELECT id, trades_goods, products, country3 FROM companies")}
    con = duckdb.connect(str(small_world / "trade.duckdb"), read_only=True)
    try:
        rows = con.execute(
            "SELECT exporter_id, importer_id, hs_code, date, in_imports, in_exports, "
            "importer_country3, exporter_country3 FROM shipments"
        ).fetchall()
        flags = con.execute(
            "SELECT bool_or(in_imports AND NOT in_exports), bool_or(in_exports AND NOT in_imports),"
            " bool_or(in_imports AND in_exports), bool_or(NOT in_imports AND NOT in_exports) "
            "FROM shipments"
        ).fetchone()
        ids = con.execute("SELECT min(id), max(id), count(DISTINCT id) FROM shipments").fetchone()
    finally:
        con.close()
    assert ids == (1, len(rows), len(rows))
    assert flags == (True, True, True, False)
    pairs = Counter((e, i) for e, i, *_ in rows)
    assert max(pairs.values()) >= 10  # regular trading relationships
    for exporter, importer, hs, day, _, _, imp3, exp3 in rows:
        assert companies[exporter]["trades_goods"] == 1 and companies[importer]["trades_goods"] == 1
        assert imp3 != exp3 and companies[importer]["country3"] == imp3
        assert len(hs) == 10 and hs[:6] in {p["hs_code"] for p in json.loads(companies[exporter]["products"])}
        assert AS_OF - timedelta(days=731) <= day < AS_OF
