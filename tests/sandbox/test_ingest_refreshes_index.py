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
