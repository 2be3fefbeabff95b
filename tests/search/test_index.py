"""The local search engine on a tiny hand-made world that follows the documents contract."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from leadwire.search.category_filter import _Costs
from leadwire.search.index import (
    LocalSearchIndex,
    RankWeights,
    build_search_index,
    refresh_search_index,
)
from leadwire.search.lexical import ranked, with_filters
from leadwire.search.pending import NO_ROWS
from leadwire.search.store import read_manifest
from leadwire.search.text import split_passages
from leadwire.search.types import TRUNCATION_MARKER, SearchRequest
from leadwire.search.understand.geo import find_countries

DOCUMENTS_DDL = """
CREATE TABLE documents (
    id TEXT PRIMARY KEY, url TEXT UNIQUE, domain TEXT, category TEXT, title TEXT, author TEXT,
    published_date TEXT, image TEXT, text TEXT, country TEXT, language TEXT,
    company_id TEXT, person_id TEXT
)
"""

LONG_TAIL = " ".join(
    f"Paragraph {i} repeats the company's commitment to quality and service." for i in range(80)
)

# (id, domain, path, category, title, text, country, language)
DOCS = [
    (
        "doc_1",
        "acme.example",
        "",
        "company",
        "Acme Robotics — industrial robots from Germany",
        "Acme Robotics is an industrial machinery manufacturer based in Munich, Germany. "
        "The company builds welding robots for automotive plants. "
        "Its customers include carmakers across Europe.",
        "DE",
        "en",
    ),
    (
        "doc_2",
        "news.acme.example",
        "2024/acme-expands",
        "news",
        "Acme Robotics opens a plant in Poland",
        "Acme Robotics, the German robot maker, opened a new assembly plant in Poland. "
        "The plant will employ 300 people. Analysts expect robot demand to grow.",
        "DE",
        "en",
    ),
    (
        "doc_3",
        "beta.example",
        "",
        "company",
        "Beta Freight — freight forwarding in France",
        "Beta Freight is a freight forwarder headquartered in Lyon, France. "
        "It moves containers by sea and air for retailers. The firm was founded in 1998.",
        "FR",
        "en",
    ),
    (
        "doc_4",
        "gamma.example",
        "",
        "company",
        "Gamma Robotics — industrial robots from the United States",
        "Gamma Robotics is an industrial machinery manufacturer based in Ohio, United States. "
        "The company builds welding robots for automotive plants. "
        "Its customers include carmakers across America.",
        "US",
        "en",
    ),
    (
        "doc_5",
        "shenzhen-chips.example",
        "",
        "company",
        "深圳芯片科技有限公司",
        "深圳芯片科技有限公司是一家位于中国深圳的半导体制造商。公司生产用于电动汽车的功率芯片。客户遍布亚洲和欧洲。",
        "CN",
        "zh",
    ),
    (
        "doc_6",
        "delta.example",
        "reports/2023",
        "financial report",
        "Delta Steel annual report 2023",
        "Delta Steel reported revenue of 2.1 billion euros in 2023. Steel shipments rose by four percent. "
        "The board proposes a dividend. Delta Steel is a steel mill in Spain.",
        "ES",
        "en",
    ),
    (
        "doc_7",
        "blog.jane.example",
        "",
        "personal site",
        "Jane Doe — notes on supply chains",
        "I write about supply chain software and freight forwarding. I live in Lyon, France. "
        "Previously I worked at Beta Freight as head of operations.",
        "FR",
        "en",
    ),
    (
        "doc_8",
        "acme.example",
        "team/john-smith",
        "people",
        "John Smith — CTO at Acme Robotics",
        "John Smith is the chief technology officer of Acme Robotics in Munich. "
        "He leads the robotics engineering team and previously worked on welding automation.",
        "DE",
        "en",
    ),
    (
        "doc_9",
        "notacme.example",
        "",
        "company",
        "Notacme Robotics — robots from Germany",
        "Notacme Robotics is an industrial machinery manufacturer based in Berlin, Germany. "
        "The company builds welding robots for automotive plants.",
        "DE",
        "en",
    ),
    (
        "doc_10",
        "epsilon.example",
        "",
        "company",
        "Epsilon Textiles — weaving mill in Portugal",
        "Epsilon Textiles is a weaving mill in Porto, Portugal. " + LONG_TAIL,
        "PT",
        "en",
    ),
]


def write_world(world_dir: Path, docs: list[tuple[str, ...]] = DOCS) -> None:
    world_dir.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(world_dir / "world.db")
    con.execute(DOCUMENTS_DDL)
    insert_docs(con, docs)
    con.commit()
    con.close()


def insert_docs(con: sqlite3.Connection, docs: list[tuple[str, ...]]) -> None:
    con.executemany(
        "INSERT INTO documents (id, url, domain, category, title, author, published_date, image, text, "
        "country, language, company_id, person_id) "
        "VALUES (?, ?, ?, ?, ?, NULL, '2024-01-02', NULL, ?, ?, ?, NULL, NULL)",
        [(d[0], f"https://{d[1]}/{d[2]}", d[1], d[3], d[4], d[5], d[6], d[7]) for d in docs],
    )


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    world_dir = tmp_path_factory.mktemp("world")
    write_world(world_dir)
    build_search_index(world_dir, progress=False)
    return world_dir


@pytest.fixture(scope="module")
def index(world: Path) -> LocalSearchIndex:
    return LocalSearchIndex(world)


def urls(index: LocalSearchIndex, **kwargs: object) -> list[str]:
    return [s.url for s in index.search(SearchRequest(**kwargs))]  # type: ignore[arg-type]


def test_the_best_match_comes_first(index: LocalSearchIndex) -> None:
    assert urls(index, query="freight forwarder in France", limit=3)[0] == "https://beta.example/"


def test_category_filter_keeps_only_that_category(index: LocalSearchIndex) -> None:
    found = index.search(SearchRequest(query="Acme Robotics", category="news"))
    assert [s.url for s in found] == ["https://news.acme.example/2024/acme-expands"]


def test_category_financial_report(index: LocalSearchIndex) -> None:
    assert urls(index, query="steel revenue", category="financial report") == [
        "https://delta.example/reports/2023"
    ]


def test_include_domains_matches_the_domain_and_its_subdomains_only(index: LocalSearchIndex) -> None:
    found = urls(index, query="robots", include_domains=["ACME.example"])
    assert set(found) == {
        "https://acme.example/",
        "https://news.acme.example/2024/acme-expands",
        "https://acme.example/team/john-smith",
    }
    assert "https://notacme.example/" not in found


def test_include_domains_accepts_urls_and_www(index: LocalSearchIndex) -> None:
    assert urls(index, query="freight", include_domains=["https://www.beta.example/about"]) == [
        "https://beta.example/"
    ]


def test_include_domains_with_no_document_is_empty(index: LocalSearchIndex) -> None:
    assert urls(index, query="robots", include_domains=["nowhere.example"]) == []


def test_user_location_boost_changes_the_order(index: LocalSearchIndex) -> None:
    query = "industrial machinery manufacturer welding robots"
    plain = urls(index, query=query, category="company", limit=3)
    in_us = urls(index, query=query, category="company", limit=3, user_location="US")
    assert in_us[0] == "https://gamma.example/"
    assert plain != in_us


def test_user_location_is_a_boost_not_a_filter(index: LocalSearchIndex) -> None:
    found = urls(index, query="welding robots", category="company", user_location="US")
    assert "https://acme.example/" in found


def test_highlights_are_relevant_passages_of_the_document(index: LocalSearchIndex) -> None:
    source = index.search(SearchRequest(query="welding robots for automotive plants", limit=1))[0]
    doc_text = next(d[5] for d in DOCS if f"https://{d[1]}/{d[2]}" == source.url)
    assert 1 <= len(source.highlights) <= 3
    for highlight in source.highlights:
        assert highlight in split_passages(doc_text)
    assert "welding" in source.highlights[0]


def test_long_text_is_capped_with_the_marker(index: LocalSearchIndex) -> None:
    source = next(
        s for s in index.search(SearchRequest(query="Epsilon weaving mill Portugal")) if "epsilon" in s.url
    )
    assert source.text.endswith(TRUNCATION_MARKER)
    assert len(source.text) <= 3000


def test_short_text_is_not_marked(index: LocalSearchIndex) -> None:
    source = index.search(SearchRequest(query="Beta Freight Lyon", limit=1))[0]
    assert not source.text.endswith(TRUNCATION_MARKER)


def test_text_cap_is_configurable(world: Path) -> None:
    small = LocalSearchIndex(world, text_cap=100)
    source = small.search(SearchRequest(query="Acme Robotics Munich", limit=1))[0]
    assert len(source.text) <= 100 and source.text.endswith(TRUNCATION_MARKER)


def test_chinese_query_finds_the_chinese_document(index: LocalSearchIndex) -> None:
    found = index.search(SearchRequest(query="深圳 半导体", limit=3))
    assert found[0].url == "https://shenzhen-chips.example/"
    assert any("半导体" in h for h in found[0].highlights)


def test_two_character_chinese_word_is_found(index: LocalSearchIndex) -> None:
    assert urls(index, query="芯片", limit=1) == ["https://shenzhen-chips.example/"]


def test_sources_carry_the_document_fields(index: LocalSearchIndex) -> None:
    source = index.search(SearchRequest(query="Delta Steel annual report", limit=1))[0]
    assert source.title == "Delta Steel annual report 2023"
    assert source.published_date == "2024-01-02"
    assert source.author is None and source.image is None


def test_limit_is_honoured(index: LocalSearchIndex) -> None:
    assert len(index.search(SearchRequest(query="company", limit=2))) == 2


def test_query_syntax_is_never_interpreted(index: LocalSearchIndex) -> None:
    for query in ['"unbalanced', "robots AND OR NOT", "category: news", "a* (b", "NEAR(x y)"]:
        index.search(SearchRequest(query=query))


def test_ranking_is_deterministic(world: Path, index: LocalSearchIndex) -> None:
    request = SearchRequest(query="robots Germany", limit=10)
    first = [s.url for s in index.search(request)]
    again = [s.url for s in LocalSearchIndex(world).search(request)]
    assert first == again == [s.url for s in index.search(request)]


def test_refresh_after_a_new_document(tmp_path: Path) -> None:
    write_world(tmp_path)
    build_search_index(tmp_path, progress=False)
    index = LocalSearchIndex(tmp_path)
    assert "https://zeta.example/" not in urls(index, query="vineyard Chile")
    con = sqlite3.connect(tmp_path / "world.db")
    insert_docs(
        con,
        [
            (
                "doc_99",
                "zeta.example",
                "",
                "company",
                "Zeta Wines — vineyard in Chile",
                "Zeta Wines runs a vineyard in the Maipo valley, Chile. It exports red wine.",
                "CL",
                "en",
            )
        ],
    )
    con.commit()
    con.close()
    # Words are searchable at once through the triggers; the refresh adds the vector.
    assert urls(index, query="vineyard Chile", limit=1) == ["https://zeta.example/"]
    assert refresh_search_index(tmp_path, "documents") == 1
    assert urls(index, query="vineyard Chile", limit=1) == ["https://zeta.example/"]
    assert refresh_search_index(tmp_path, "documents") == 0


def test_refresh_after_delete_and_update(tmp_path: Path) -> None:
    write_world(tmp_path)
    build_search_index(tmp_path, progress=False)
    index = LocalSearchIndex(tmp_path)
    con = sqlite3.connect(tmp_path / "world.db")
    con.execute("DELETE FROM documents WHERE id = 'doc_3'")
    con.execute("UPDATE documents SET title = 'Delta Steel — 钢铁 annual report' WHERE id = 'doc_6'")
    con.commit()
    con.close()
    assert refresh_search_index(tmp_path, "documents") == 2
    assert "https://beta.example/" not in urls(index, query="freight forwarder France")
    assert urls(index, query="钢铁", limit=1) == ["https://delta.example/reports/2023"]


def test_refresh_ignores_other_kinds(tmp_path: Path) -> None:
    write_world(tmp_path)
    build_search_index(tmp_path, progress=False)
    assert refresh_search_index(tmp_path, "people") == 0


def test_a_page_inherits_its_site_home_page_context(index: LocalSearchIndex) -> None:
    # The team page never says "Germany"; its site's home page does.
    assert urls(index, query="Germany", category="people") == ["https://acme.example/team/john-smith"]


def test_refresh_gives_existing_pages_the_context_of_a_new_home_page(tmp_path: Path) -> None:
    write_world(tmp_path)
    con = sqlite3.connect(tmp_path / "world.db")
    insert_docs(
        con,
        [
            (
                "doc_50",
                "omega.example",
                "team",
                "people",
                "Our team",
                "Kari Nordmann leads the company. Ola Hansen runs sales.",
                "NO",
                "en",
            )
        ],
    )
    con.commit()
    build_search_index(tmp_path, progress=False)
    # Words only, so that the order shows what the index matched.
    index = LocalSearchIndex(tmp_path, weights=RankWeights(vector=0.0))
    assert urls(index, query="subsea pumps", category="people")[0] != "https://omega.example/team"
    insert_docs(
        con,
        [
            (
                "doc_51",
                "omega.example",
                "",
                "company",
                "Omega Pumps — pumps from Norway",
                "Omega Pumps builds subsea pumps in Bergen, Norway.",
                "NO",
                "en",
            )
        ],
    )
    con.commit()
    con.close()
    assert refresh_search_index(tmp_path, "documents") == 1
    assert urls(index, query="subsea pumps", category="people")[0] == "https://omega.example/team"


def test_a_country_named_in_the_query_prefers_documents_about_that_country(index: LocalSearchIndex) -> None:
    found = urls(index, query="welding robots in the United States", category="company", limit=3)
    assert found[0] == "https://gamma.example/"


@pytest.mark.parametrize(
    ("query", "rest", "codes"),
    [
        ("Breweries in Mexico", "breweries in", {"MX"}),
        ("software companies United Kingdom", "software companies", {"GB"}),
        ("steel Korea, Republic of", "steel", {"KR"}),
        ("banks in the US", "banks in the", {"US"}),
        ("us and them", "us and them", set()),
        ("深圳 半导体 中国", "半导体", {"CN"}),
    ],
)
def test_country_names_are_found_in_queries(query: str, rest: str, codes: set[str]) -> None:
    assert find_countries(query) == (rest, frozenset(codes))


def assert_index_consistent(world_dir: Path) -> None:
    con = sqlite3.connect(world_dir / "world.db")
    # FTS5 compares its index with the content view and raises on any drift.
    con.execute("INSERT INTO documents_fts(documents_fts) VALUES ('integrity-check')")
    con.close()


def test_refresh_after_the_home_page_changes_updates_its_site(tmp_path: Path) -> None:
    write_world(tmp_path)
    build_search_index(tmp_path, progress=False)
    index = LocalSearchIndex(tmp_path, weights=RankWeights(vector=0.0))
    con = sqlite3.connect(tmp_path / "world.db")
    con.execute("UPDATE documents SET text = text || ' Our headquarters are in Bavaria.' WHERE id = 'doc_1'")
    con.commit()
    con.close()
    assert_index_consistent(tmp_path)
    refresh_search_index(tmp_path, "documents")
    assert_index_consistent(tmp_path)
    assert urls(index, query="Bavaria", category="people") == ["https://acme.example/team/john-smith"]


def test_the_index_stays_consistent_through_inserts_updates_and_deletes(tmp_path: Path) -> None:
    write_world(tmp_path)
    build_search_index(tmp_path, progress=False)
    assert_index_consistent(tmp_path)
    con = sqlite3.connect(tmp_path / "world.db")
    insert_docs(
        con, [("doc_60", "blog.acme.example", "post", "news", "Acme blog", "Robots everywhere.", "DE", "en")]
    )
    con.execute("DELETE FROM documents WHERE id = 'doc_1'")  # the home page of acme.example goes
    con.execute("UPDATE documents SET title = 'Beta Freight SAS' WHERE id = 'doc_3'")
    con.commit()
    con.close()
    assert_index_consistent(tmp_path)
    refresh_search_index(tmp_path, "documents")
    assert_index_consistent(tmp_path)


def test_an_ingest_notification_refreshes_the_index(tmp_path: Path) -> None:
    from leadwire.sandbox.hooks import notify_world_changed

    write_world(tmp_path)
    build_search_index(tmp_path, progress=False)
    con = sqlite3.connect(tmp_path / "world.db")
    tiles = ("doc_70", "kappa.example", "", "company", "Kappa Tiles", "Ceramic tiles.", "IT", "en")
    insert_docs(con, [tiles])
    con.commit()
    notify_world_changed(tmp_path, "documents")
    assert con.execute("SELECT count(*) FROM search_dirty").fetchone()[0] == 0
    con.close()


def test_a_change_to_a_never_indexed_world_builds_its_index(tmp_path: Path) -> None:
    # An ingest into an empty data directory must leave a world that public-web search can answer from.
    write_world(tmp_path)
    assert read_manifest(tmp_path) is None
    assert refresh_search_index(tmp_path, "documents") == len(DOCS)
    assert read_manifest(tmp_path) is not None
    assert refresh_search_index(tmp_path, "documents") == 0  # indexed now: nothing pending
    assert refresh_search_index(tmp_path, "world") == len(DOCS)


@pytest.mark.parametrize("category", ["company", "news", "financial report", "people", "personal site"])
def test_both_ways_of_applying_a_category_rank_the_same_matches(world: Path, category: str) -> None:
    index = LocalSearchIndex(world)
    arrays = index._arrays()
    assert arrays is not None
    con = index._connection()
    expression = '("robots" OR "plant" OR "company" OR "bank" OR "report" OR "acme")'
    ways = []
    for arrays_cost, phrase_cost in ((0.0, 1.0), (1.0, 0.0)):  # each way the cheaper one in turn
        filter_ = index._category_filter(arrays)
        filter_.costs[category] = _Costs(searches=1, phrase=phrase_cost, arrays=arrays_cost)
        ways.append(index._ranked(con, arrays, NO_ROWS, expression, category, []))
    assert ways[0] == ways[1]
    assert ways[0] == ranked(con, with_filters(expression, category, []), index._settings, 200)


def test_a_change_not_yet_refreshed_is_filtered_by_the_documents_row(tmp_path: Path) -> None:
    write_world(tmp_path)
    build_search_index(tmp_path, progress=False)
    index = LocalSearchIndex(tmp_path)
    assert "https://news.acme.example/2024/acme-expands" in urls(index, query="Acme Robotics plant", limit=10)
    con = sqlite3.connect(tmp_path / "world.db")
    con.execute("UPDATE documents SET category = 'company', country = 'pl' WHERE id = 'doc_2'")
    con.execute("DELETE FROM documents WHERE id = 'doc_1'")
    con.commit()
    con.close()
    # Not refreshed: the arrays still say doc_2 is news about Germany and doc_1 exists.
    companies = urls(index, query="Acme Robotics plant", category="company", limit=10)
    assert "https://news.acme.example/2024/acme-expands" in companies
    assert "https://acme.example/" not in companies
    news = urls(index, query="Acme Robotics plant", category="news", limit=10)
    assert "https://news.acme.example/2024/acme-expands" not in news
    assert refresh_search_index(tmp_path, "documents") == 2
    assert "https://news.acme.example/2024/acme-expands" in urls(
        index, query="Acme Robotics plant", category="company", limit=10
    )
