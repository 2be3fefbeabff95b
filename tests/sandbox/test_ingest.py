"""Ingesting your own rows: happy path in JSONL and CSV, line-numbered errors that reject the whole
file, idempotent upserts by natural key, and the world-changed hook."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from leadwire.sandbox.hooks import register_world_changed, unregister_world_changed
from leadwire.sandbox.ingest import ingest
from leadwire.sandbox.store import open_world, read_meta, world_is_built
from leadwire.search.store import read_manifest


def _jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


COMPANIES = [
    {
        "domain": "acme-robotics.com",
        "name": "Acme Robotics GmbH",
        "country": "DE",
        "city": "Munich",
        "industry_code": "333248",
        "employees": 120,
        "technologies": ["SAP S/4HANA", "Python"],
        "products": [{"hs_code": "847950"}],
    },
    {
        "domain": "https://www.beta-freight.fr/",
        "name": "Beta Freight SAS",
        "country": "FRA",
        "employees": "40",
    },
]
PEOPLE = [
    {
        "linkedin_url": "https://www.linkedin.com/in/anna-berg",
        "full_name": "Anna Berg",
        "company_domain": "acme-robotics.com",
        "title": "CEO",
        "seniority": "c_level",
        "department": "executive",
        "email": "anna.berg@acme-robotics.com",
    },
    {
        "linkedin_url": "https://de.linkedin.com/in/jonas-weber/",
        "first_name": "Jonas",
        "last_name": "Weber",
        "company_domain": "acme-robotics.com",
        "title": "VP Sales",
        "seniority": "vp",
        "department": "sales",
        "manager_linkedin_url": "https://www.linkedin.com/in/anna-berg",
    },
]


@pytest.fixture
def hook_calls() -> Iterator[list[tuple[Path, str]]]:
    calls: list[tuple[Path, str]] = []

    def record(world_dir: Path, kind: str) -> None:
        calls.append((world_dir, kind))

    register_world_changed(record)
    yield calls
    unregister_world_changed(record)


def test_ingest_into_a_fresh_data_dir(tmp_path: Path, hook_calls: list[tuple[Path, str]]) -> None:
    world = tmp_path / "world"
    report = ingest(world, "companies", _jsonl(tmp_path / "companies.jsonl", COMPANIES))
    assert report.accepted and (report.inserted, report.updated, report.unchanged) == (2, 0, 0)
    assert world_is_built(world) and read_meta(world)["size"] == "empty"
    people = ingest(world, "people", _jsonl(tmp_path / "people.jsonl", PEOPLE))
    assert people.accepted and people.inserted == 2
    con = open_world(world)
    try:
        acme = con.execute("SELECT * FROM companies WHERE domain = 'acme-robotics.com'").fetchone()
        assert acme["id"] == "cmp_000001" and acme["country3"] == "DEU"
        assert acme["industry"] == "All Other Industrial Machinery Manufacturing"
        assert json.loads(acme["products"])[0]["description"].startswith("Machinery")
        beta = con.execute("SELECT * FROM companies WHERE domain = 'beta-freight.fr'").fetchone()
        assert beta["country"] == "FR" and beta["employees"] == 40
        jonas = con.execute("SELECT * FROM people WHERE full_name = 'Jonas Weber'").fetchone()
        anna = con.execute("SELECT * FROM people WHERE full_name = 'Anna Berg'").fetchone()
        assert jonas["linkedin_url"] == "https://www.linkedin.com/in/jonas-weber"
        assert jonas["manager_id"] == anna["id"] and jonas["company_id"] == acme["id"]
        assert anna["email_status"] == "unknown"
        assert (
            json.loads(con.execute("SELECT value FROM meta WHERE key = 'counts'").fetchone()[0])["people"]
            == 2
        )
    finally:
        con.close()
    assert [kind for _, kind in hook_calls] == ["companies", "people"]
    assert read_manifest(world) is not None  # searchable (no documents yet, but no failure either)


def test_documents_and_posts_from_csv(tmp_path: Path) -> None:
    world = tmp_path / "world"
    ingest(world, "companies", _jsonl(tmp_path / "c.jsonl", COMPANIES))
    ingest(world, "people", _jsonl(tmp_path / "p.jsonl", PEOPLE))
    docs = tmp_path / "documents.csv"
    docs.write_text(
        "url,category,title,text,published_date,company_domain\n"
        "https://news.example.org/acme,news,Acme grows,"
        '"Acme Robotics, the Munich robot maker, grew.",2025-01-02,'
        "acme-robotics.com\n",
        encoding="utf-8",
    )
    posts = tmp_path / "posts.csv"
    posts.write_text(
        "url,author_profile_url,text,published_at,topic,like_count\n"
        "https://www.linkedin.com/posts/anna-berg_robots-activity-7217539642839531528,"
        "https://www.linkedin.com/in/anna-berg,Robots are here.,2025-01-02T10:00:00Z,product launch,12\n",
        encoding="utf-8",
    )
    assert ingest(world, "documents", docs).inserted == 1
    assert ingest(world, "posts", posts).inserted == 1
    con = open_world(world)
    try:
        doc = con.execute("SELECT * FROM documents").fetchone()
        assert (doc["domain"], doc["country"], doc["language"]) == ("news.example.org", "DE", "en")
        post = con.execute("SELECT * FROM posts").fetchone()
        assert post["urn"] == "urn:li:activity:7217539642839531528"
        assert post["published_at"] == "2025-01-02T10:00:00.000Z" and post["like_count"] == 12
    finally:
        con.close()


def test_errors_are_line_numbered_collected_and_reject_the_file(tmp_path: Path) -> None:
    world = tmp_path / "world"
    ingest(world, "companies", _jsonl(tmp_path / "c.jsonl", COMPANIES[:1]))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        json.dumps({"domain": "ok.example", "name": "Fine Ltd", "country": "GB"}) + "\n"
        "\n" + json.dumps({"domain": "not a domain", "name": "X", "country": "ZZ", "employees": -1}) + "\n"
        "{broken\n" + json.dumps({"name": "No Domain", "country": "GB", "colour": "red"}) + "\n",
        encoding="utf-8",
    )
    report = ingest(world, "companies", bad)
    assert not report.accepted and report.inserted == 0
    found = {(e.line, e.field) for e in report.errors}
    assert {(3, "domain"), (3, "country"), (3, "employees"), (4, None), (5, "domain"), (5, "colour")} <= found
    con = open_world(world)
    try:
        assert con.execute("SELECT count(*) FROM companies").fetchone()[0] == 1  # nothing from the bad file
    finally:
        con.close()


def test_csv_errors_count_the_header_as_line_one(tmp_path: Path) -> None:
    path = tmp_path / "people.csv"
    path.write_text(
        "linkedin_url,full_name,company_domain,seniority\n"
        "https://www.linkedin.com/in/x,X Y,unknown.example,boss\n",
        encoding="utf-8",
    )
    report = ingest(tmp_path / "world", "people", path)
    assert {(e.line, e.field) for e in report.errors} == {(2, "seniority"), (2, "company_domain")}


def test_upsert_is_idempotent_and_keeps_ids(tmp_path: Path, hook_calls: list[tuple[Path, str]]) -> None:
    world = tmp_path / "world"
    source = _jsonl(tmp_path / "companies.jsonl", COMPANIES)
    first = ingest(world, "companies", source)
    again = ingest(world, "companies", source)
    assert (again.inserted, again.updated, again.unchanged) == (0, 0, 2)
    assert len(hook_calls) == 1  # nothing changed the second time
    changed = [dict(COMPANIES[0], employees=150), COMPANIES[1]]
    third = ingest(world, "companies", _jsonl(tmp_path / "changed.jsonl", changed))
    assert (third.inserted, third.updated, third.unchanged) == (0, 1, 1)
    con = open_world(world)
    try:
        rows = con.execute("SELECT id, employees FROM companies ORDER BY id").fetchall()
        assert [tuple(r) for r in rows] == [("cmp_000001", 150), ("cmp_000002", 40)]
    finally:
        con.close()
    assert first.inserted == 2


def test_ingest_extends_a_generated_world(small_world: Path, tmp_path: Path) -> None:
    world = tmp_path / "world"
    shutil.copytree(small_world, world)
    report = ingest(world, "companies", _jsonl(tmp_path / "c.jsonl", COMPANIES[:1]))
    assert report.accepted and report.inserted == 1
    con = open_world(world)
    try:
        new_id = con.execute("SELECT id FROM companies WHERE domain = 'acme-robotics.com'").fetchone()[0]
    finally:
        con.close()
    assert new_id == "cmp_000301"


def test_unsupported_file_type(tmp_path: Path) -> None:
    path = tmp_path / "companies.xlsx"
    path.write_bytes(b"")
    report = ingest(tmp_path / "world", "companies", path)
    assert not report.accepted and report.errors[0].line == 0


def test_country3_is_accepted_and_must_name_the_same_country(tmp_path: Path) -> None:
    rows = [
        {"domain": "alpine.example", "name": "Alpine AG", "country": "CH", "country3": "che"},
        {"domain": "fjord.example", "name": "Fjord AS", "country": "NO", "country3": "SWE"},
        {"domain": "nowhere.example", "name": "Nowhere Ltd", "country": "GB", "country3": "XYZ"},
    ]
    report = ingest(tmp_path / "world", "companies", _jsonl(tmp_path / "c.jsonl", rows))
    assert {(e.line, e.field) for e in report.errors} == {(2, "country3"), (3, "country3")}
    assert "alpha-3 is NOR" in next(e.message for e in report.errors if e.line == 2)
    accepted = ingest(tmp_path / "world", "companies", _jsonl(tmp_path / "ok.jsonl", rows[:1]))
    assert accepted.accepted and accepted.inserted == 1
    con = open_world(tmp_path / "world")
    try:
        assert [tuple(r) for r in con.execute("SELECT country, country3 FROM companies")] == [("CH", "CHE")]
    finally:
        con.close()


def test_the_start_up_line_says_which_world_is_served(tmp_path: Path, small_world: Path) -> None:
    from leadwire.cli import world_description

    ingest(tmp_path / "world", "companies", _jsonl(tmp_path / "c.jsonl", COMPANIES))
    assert (
        world_description(tmp_path / "world")
        == f"Serving your ingested data from {tmp_path / 'world'}: 2 companies"
    )
    generated = world_description(small_world)
    assert generated.startswith(f"Serving the sandbox world (small, seed 7) from {small_world}: ")
    assert "300 companies" in generated
