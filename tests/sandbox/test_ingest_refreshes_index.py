"""`leadwire ingest documents FILE` brings new documents fully into the search index."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from leadwire.cli import app
from leadwire.providers.search import SearchRequest
from leadwire.search.index import LocalSearchIndex


def test_ingested_document_is_indexed_and_found(indexed_world: Path, tmp_path: Path) -> None:
    data_dir = tmp_path / "var"
    shutil.copytree(indexed_world, data_dir / "world")
    document = {
        "url": "https://blog.zyxquantum.example/launch",
        "category": "news",
        "title": "Zyxquantum launches a cryostat",
        "text": "Zyxquantum, a maker of dilution refrigerators, launched a cryostat for labs in Oslo.",
        "country": "NO",
        "language": "en",
        "published_date": "2026-10-01",
    }
    source = tmp_path / "docs.jsonl"
    source.write_text(json.dumps(document) + "\n")
    result = CliRunner().invoke(app, ["ingest", "documents", str(source), "--data-dir", str(data_dir)])
    assert result.exit_code == 0, result.output
    con = sqlite3.connect(data_dir / "world" / "world.db")
    try:
        assert con.execute("SELECT count(*) FROM search_dirty").fetchone()[0] == 0
    finally:
        con.close()
    found = LocalSearchIndex(data_dir / "world").search(SearchRequest(query="Zyxquantum cryostat", limit=3))
    assert found and found[0].url == document["url"]


def _ingest_rows(kind: str, rows: list[dict[str, object]], data_dir: Path, tmp_path: Path) -> None:
    source = tmp_path / f"{kind}.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    result = CliRunner().invoke(app, ["ingest", kind, str(source), "--data-dir", str(data_dir)])
    assert result.exit_code == 0, result.output


def _company_and_page(domain: str, name: str, industry: str) -> tuple[dict[str, object], dict[str, object]]:
    company = {"domain": domain, "name": name, "country": "CH", "industry": industry}
    # The page says nothing of its trade: only its company's industry makes it an answer.
    page = {
        "url": f"https://{domain}/",
        "category": "company",
        "title": name,
        "text": f"{name}. Headquarters: Zug, Switzerland. Founded in 1901.",
        "company_domain": domain,
    }
    return company, page


def test_a_company_whose_industry_changes_moves_its_pages_to_the_new_industry(tmp_path: Path) -> None:
    data_dir, world = tmp_path / "var", tmp_path / "var" / "world"
    zug, zug_page = _company_and_page("zug-holding.example", "Zug Holding", "Banks")
    baar, baar_page = _company_and_page("baar-kredit.example", "Baar Kredit", "Banks")
    _ingest_rows("companies", [zug, baar], data_dir, tmp_path)
    _ingest_rows("documents", [zug_page, baar_page], data_dir, tmp_path)
    banks = {s.url for s in LocalSearchIndex(world).search(SearchRequest(query="Swiss banks"))}
    assert banks == {zug_page["url"], baar_page["url"]}

    _ingest_rows("companies", [{**zug, "industry": "Specialty chemicals"}], data_dir, tmp_path)
    index = LocalSearchIndex(world)
    assert [s.url for s in index.search(SearchRequest(query="Swiss chemical companies"))] == [zug_page["url"]]
    assert [s.url for s in index.search(SearchRequest(query="Swiss banks"))] == [baar_page["url"]]
