"""The sandbox search adapter: the port over the local index, searched off the event loop."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from leadwire.providers.sandbox_search import SandboxSearchProvider
from leadwire.providers.search import SearchProvider, SearchProviderError, SearchRequest
from leadwire.search.index import build_search_index


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    world_dir = tmp_path_factory.mktemp("world")
    con = sqlite3.connect(world_dir / "world.db")
    con.execute(
        "CREATE TABLE documents (id TEXT PRIMARY KEY, url TEXT UNIQUE, domain TEXT, category TEXT, "
        "title TEXT, "
        "author TEXT, published_date TEXT, image TEXT, text TEXT, country TEXT, language TEXT, "
        "company_id TEXT, person_id TEXT)"
    )
    con.executemany(
        "INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, '2024-05-01', NULL, ?, ?, 'en', NULL, NULL)",
        [
            (
                "doc_1",
                "https://acme.example/",
                "acme.example",
                "company",
                "Acme Pumps",
                None,
                "Acme Pumps makes industrial pumps in Italy. It sells to water utilities.",
                "IT",
            ),
            (
                "doc_2",
                "https://news.acme.example/q1",
                "news.acme.example",
                "news",
                "Acme Pumps wins contract",
                "Reuters Staff",
                "Acme Pumps won a contract to supply pumps to a water utility in Spain.",
                "IT",
            ),
        ],
    )
    con.commit()
    con.close()
    build_search_index(world_dir, progress=False)
    return world_dir


def test_it_implements_the_port(world: Path) -> None:
    assert isinstance(SandboxSearchProvider(world), SearchProvider)


async def test_search_returns_sources(world: Path) -> None:
    sources = await SandboxSearchProvider(world).search(
        SearchRequest(query="industrial pumps Italy", limit=5)
    )
    assert sources[0].url == "https://acme.example/"
    assert sources[0].highlights and sources[0].text.startswith("Acme Pumps makes")


async def test_filters_reach_the_index(world: Path) -> None:
    provider = SandboxSearchProvider(world)
    sources = await provider.search(
        SearchRequest(query="pumps", category="news", include_domains=["acme.example"])
    )
    assert [(s.url, s.author) for s in sources] == [("https://news.acme.example/q1", "Reuters Staff")]


async def test_a_missing_world_is_a_provider_error(tmp_path: Path) -> None:
    with pytest.raises(SearchProviderError) as caught:
        await SandboxSearchProvider(tmp_path / "nowhere").search(SearchRequest(query="pumps"))
    assert caught.value.code == "search_provider_unavailable"
