"""The trade store port on both adapters: every answer of the hand-built shipments, row by row.

The same test body runs on the DuckDB file and on PostgreSQL, so "the same query plans give the same
rows" is checked by every assertion. Expected figures come from the rows in `tests/support/trade.py`.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import duckdb
import pytest

from leadwire.providers.trade import Group, TradeFilters, TradeScope, TradeStore, TradeStoreError
from leadwire.providers.trade_duckdb import DuckDBTradeStore
from leadwire.providers.trade_postgres import PostgresTradeStore
from leadwire.providers.trade_schema import DUCKDB_FILE
from leadwire.sandbox.trade import BY_EXPORTER_TABLE, write_for_companies
from tests.support.faults import terminate_backends
from tests.support.trade import ACME, BERLIN, HANOI, OSAKA, SHENZHEN, SHIPMENTS, _row
from tests.support.trade_stores import asyncpg_dsn, load_postgres, load_world

YEAR = TradeScope("imports", date(2024, 1, 1), date(2024, 12, 31))
EXPORTS_YEAR = TradeScope("exports", date(2024, 1, 1), date(2024, 12, 31))
H1 = TradeScope("imports", date(2024, 1, 1), date(2024, 6, 30))


@pytest.fixture(scope="module")
def duckdb_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return load_world(tmp_path_factory.mktemp("trade") / "world")


@pytest.fixture(scope="module")
def postgres_dsn(pg_database: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    return load_postgres(asyncpg_dsn(pg_database), tmp_path_factory.mktemp("trade-pg"))


@pytest.fixture(params=["duckdb", "postgres"])
def store_target(request: pytest.FixtureRequest) -> tuple[str, str]:
    # Sync: loading the data runs its own event loop, which an async fixture's loop would block.
    if request.param == "duckdb":
        return "duckdb", str(request.getfixturevalue("duckdb_world") / DUCKDB_FILE)
    return "postgres", request.getfixturevalue("postgres_dsn")


@pytest.fixture
async def store(store_target: tuple[str, str]) -> AsyncIterator[TradeStore]:
    kind, target = store_target
    adapter: TradeStore = DuckDBTradeStore(Path(target)) if kind == "duckdb" else PostgresTradeStore(target)
    yield adapter
    await adapter.close()


def _rows(groups: list[Group]) -> list[tuple[object, ...]]:
    return [(*g.key, g.trade_count, g.amount_usd) for g in groups]


async def test_counterparties_of_the_common_pair_sum_each_partner(store: TradeStore) -> None:
    page = await store.counterparties(ACME, "importer", YEAR, page=1, page_size=20)
    assert _rows(page.groups) == [
        (OSAKA, "JPN", 1, 2000.0),
        (SHENZHEN, "CHN", 2, 1500.0),  # rows 1 and 2; rows 7 and 8 fall outside 2024
        (HANOI, "VNM", 1, 300.0),
    ]
    assert (page.total, page.amount_usd) == (3, 3800.0)
    shenzhen = page.groups[1]
    assert (shenzhen.weight_kg, shenzhen.quantity) == (150.0, 15.0)


async def test_pages_keep_the_totals_even_past_the_last_row(store: TradeStore) -> None:
    second = await store.counterparties(ACME, "importer", YEAR, page=2, page_size=2)
    assert _rows(second.groups) == [(HANOI, "VNM", 1, 300.0)] and second.total == 3
    beyond = await store.counterparties(ACME, "importer", YEAR, page=5, page_size=2)
    assert (beyond.groups, beyond.total, beyond.amount_usd) == ([], 3, 3800.0)
    nothing = await store.counterparties("No Such Company", "importer", YEAR, page=1, page_size=20)
    assert (nothing.groups, nothing.total, nothing.amount_usd) == ([], 0, 0.0)


async def test_cross_pairs_read_the_target_from_the_other_directory(store: TradeStore) -> None:
    # An exporter found in the importing countries' records (rows 1, 2, 6).
    shenzhen = await store.counterparties(SHENZHEN, "exporter", YEAR, page=1, page_size=20)
    assert _rows(shenzhen.groups) == [(ACME, "DEU", 2, 1500.0), (BERLIN, "DEU", 1, 100.0)]
    # An importer found in the exporting countries' records (rows 2, 4, 5).
    acme = await store.counterparties(ACME, "importer", EXPORTS_YEAR, page=1, page_size=20)
    assert _rows(acme.groups) == [(OSAKA, "JPN", 1, 2000.0), (SHENZHEN, "CHN", 2, 1100.0)]
    # The common exporter pair (rows 2 and 5).
    common = await store.counterparties(SHENZHEN, "exporter", EXPORTS_YEAR, page=1, page_size=20)
    assert _rows(common.groups) == [(ACME, "DEU", 2, 1100.0)]


async def test_categories_group_by_subheading_and_count_partners(store: TradeStore) -> None:
    page = await store.categories(ACME, "importer", YEAR, page=1, page_size=20)
    assert _rows(page.groups) == [("870899", 1, 2000.0), ("847130", 2, 1500.0), ("610910", 1, 300.0)]
    assert [g.company_count for g in page.groups] == [1, 1, 1]
    shirts = await store.categories(HANOI, "exporter", YEAR, page=1, page_size=20)
    assert [(g.key, g.company_count) for g in shirts.groups] == [(("610910",), 1)]


async def test_countries_are_where_goods_come_from_or_go_to(store: TradeStore) -> None:
    # Importer: origin of the goods; row 5 is a re-export of Vietnamese goods by a Chinese exporter.
    origins = await store.countries(ACME, "importer", EXPORTS_YEAR, page=1, page_size=20)
    assert _rows(origins.groups) == [("JPN", 1, 2000.0), ("VNM", 1, 600.0), ("CHN", 1, 500.0)]
    # Exporter: destination of the goods.
    destinations = await store.countries(SHENZHEN, "exporter", YEAR, page=1, page_size=20)
    assert _rows(destinations.groups) == [("DEU", 3, 1600.0)]
    assert destinations.groups[0].company_count == 2  # Acme and Berlin


async def test_periods_by_month_quarter_and_year(store: TradeStore) -> None:
    months = await store.periods(ACME, "importer", H1, "months")
    assert _rows(months) == [
        (date(2024, 1, 1), 2, 1500.0),
        (date(2024, 2, 1), 1, 300.0),
        (date(2024, 4, 1), 1, 2000.0),
    ]
    quarters = await store.periods(ACME, "importer", YEAR, "quarters")
    assert _rows(quarters) == [(date(2024, 1, 1), 3, 1800.0), (date(2024, 4, 1), 1, 2000.0)]
    years = await store.periods(
        ACME, "importer", TradeScope("imports", date(2023, 7, 1), date(2024, 6, 30)), "years"
    )
    assert _rows(years) == [(date(2023, 1, 1), 1, 999.0), (date(2024, 1, 1), 4, 3800.0)]


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (TradeFilters(hs_code="8471"), [(SHENZHEN, "CHN", 2, 1500.0)]),
        (TradeFilters(hs_code="84713000"), [(SHENZHEN, "CHN", 2, 1500.0)]),
        (TradeFilters(hs_code="85"), []),  # the routers are only in the exports directory
        (TradeFilters(product_description="LAPTOP"), [(SHENZHEN, "CHN", 2, 1500.0)]),
        (TradeFilters(product_description="100%"), [(HANOI, "VNM", 1, 300.0)]),
        (TradeFilters(product_description="t_shirts"), []),  # _ and % are literal characters
        (TradeFilters(origin_country="VNM"), [(HANOI, "VNM", 1, 300.0)]),
        (TradeFilters(destination_country="FRA"), []),
        (TradeFilters(hs_code="8471", destination_country="DEU"), [(SHENZHEN, "CHN", 2, 1500.0)]),
    ],
)
async def test_filters_narrow_the_records(
    store: TradeStore, filters: TradeFilters, expected: list[tuple[object, ...]]
) -> None:
    scope = TradeScope("imports", YEAR.start, YEAR.end, filters)
    assert (
        _rows((await store.counterparties(ACME, "importer", scope, page=1, page_size=20)).groups) == expected
    )


async def test_companies_are_sorted_either_way_with_the_name_breaking_ties(store: TradeStore) -> None:
    laptops = TradeScope("imports", YEAR.start, YEAR.end, TradeFilters(hs_code="8471"))
    by_count = await store.companies(
        "importer", laptops, sort_by="trade_count", descending=True, page=1, page_size=20
    )
    assert _rows(by_count.groups) == [(ACME, "DEU", 2, 1500.0), (BERLIN, "DEU", 1, 100.0)]
    assert by_count.amount_usd == 1600.0
    cheapest = await store.companies(
        "importer", laptops, sort_by="amount_usd", descending=False, page=1, page_size=1
    )
    assert _rows(cheapest.groups) == [(BERLIN, "DEU", 1, 100.0)] and cheapest.total == 2
    by_weight = await store.companies(
        "importer", laptops, sort_by="weight", descending=True, page=2, page_size=1
    )
    assert _rows(by_weight.groups) == [(BERLIN, "DEU", 1, 100.0)]
    # Equal counts: the name decides, the same way on both engines (byte order).
    suppliers = TradeScope("imports", YEAR.start, YEAR.end, TradeFilters(destination_country="DEU"))
    tied = await store.companies(
        "exporter", suppliers, sort_by="quantity", descending=True, page=1, page_size=20
    )
    assert [g.key[0] for g in tied.groups] == [HANOI, SHENZHEN, OSAKA]  # quantities 100, 16, 2
    shirts = TradeScope("exports", YEAR.start, YEAR.end, TradeFilters(product_description="shirts"))
    exporters = await store.companies(
        "exporter", shirts, sort_by="trade_count", descending=True, page=1, page_size=20
    )
    assert _rows(exporters.groups) == [(HANOI, "VNM", 1, 150.0)]


async def test_names_and_their_counts_for_candidates(store: TradeStore) -> None:
    assert await store.company_names("importer") == [ACME, BERLIN]
    assert await store.company_names("exporter") == [HANOI, OSAKA, SHENZHEN]
    imports = await store.name_counts("importer", YEAR, [ACME, BERLIN, "Unknown"])
    assert [(c.name, c.country3, c.company_id, c.trade_count) for c in imports] == [
        (ACME, "DEU", "cmp_acme", 4),
        (BERLIN, "DEU", "cmp_berlin", 1),
    ]
    exports = await store.name_counts("importer", EXPORTS_YEAR, [ACME])
    assert [c.trade_count for c in exports] == [3]
    assert await store.name_counts("importer", YEAR, [ACME], countries=["FRA"]) == []
    assert await store.name_counts("importer", YEAR, []) == []


async def test_trading_companies_are_a_seed_in_a_stable_order(store: TradeStore) -> None:
    laptops = TradeScope("imports", date(2024, 1, 1), date(2024, 12, 31), TradeFilters(hs_code="8471"))
    found = await store.trading_companies("importer", laptops, ["DEU"], min_trade_count=1, offset=0, limit=10)
    assert [(c.name, c.country3, c.trade_count, c.amount_usd, c.last_shipment) for c in found] == [
        (ACME, "DEU", 2, 1500.0, date(2024, 1, 20)),
        (BERLIN, "DEU", 1, 100.0, date(2024, 6, 30)),
    ]
    assert await store.trading_company_count("importer", laptops, ["DEU"], min_trade_count=1) == 2
    # A page by offset, the floor on records, and a country no importer is in.
    second = await store.trading_companies("importer", laptops, ["DEU"], min_trade_count=1, offset=1, limit=1)
    assert [c.name for c in second] == [BERLIN]
    assert [
        c.name
        for c in await store.trading_companies(
            "importer", laptops, ["DEU"], min_trade_count=2, offset=0, limit=9
        )
    ] == [ACME]
    assert await store.trading_company_count("importer", laptops, ["DEU"], min_trade_count=3) == 0
    assert (
        await store.trading_companies("importer", laptops, ["CHN"], min_trade_count=1, offset=0, limit=9)
        == []
    )
    exporters = await store.trading_companies(
        "exporter", EXPORTS_YEAR, ["CHN", "VNM"], min_trade_count=1, offset=0, limit=9
    )
    assert [(c.name, c.trade_count) for c in exporters] == [(SHENZHEN, 2), (HANOI, 1)]


async def test_top_partners_are_each_companys_largest_by_value(store: TradeStore) -> None:
    top = await store.top_partners("importer", YEAR, [(ACME, "DEU"), (BERLIN, "DEU"), ("Nobody", "DEU")], 2)
    assert {
        company: [(p.name, p.country3, p.trade_count, p.amount_usd) for p in partners]
        for company, partners in top.items()
    } == {
        (ACME, "DEU"): [(OSAKA, "JPN", 1, 2000.0), (SHENZHEN, "CHN", 2, 1500.0)],
        (BERLIN, "DEU"): [(SHENZHEN, "CHN", 1, 100.0)],
        ("Nobody", "DEU"): [],
    }
    assert await store.top_partners("importer", YEAR, [], 3) == {}


async def test_a_store_without_data_says_so(tmp_path: Path, pg_database: str) -> None:
    missing = DuckDBTradeStore(tmp_path / "world" / DUCKDB_FILE)
    with pytest.raises(TradeStoreError) as raised:
        await missing.counterparties(ACME, "importer", YEAR, page=1, page_size=20)
    assert raised.value.code == "trade_data_unavailable"
    empty_db = PostgresTradeStore(asyncpg_dsn(pg_database).split("?")[0].rsplit("/", 1)[0] + "/postgres")
    try:
        with pytest.raises(TradeStoreError) as raised:
            await empty_db.counterparties(ACME, "importer", YEAR, page=1, page_size=20)
        assert raised.value.code == "trade_data_unavailable"
    finally:
        await empty_db.close()
    unreachable = PostgresTradeStore("postgresql://postgres@127.0.0.1:9/none", timeout_seconds=2)
    with pytest.raises(TradeStoreError):
        await unreachable.company_names("importer")


async def test_the_postgres_store_answers_after_its_connections_were_cut(postgres_dsn: str) -> None:
    """A restart or failover cuts the pool's connections: the next query is answered from a fresh one."""
    store = PostgresTradeStore(postgres_dsn, max_connections=2)
    try:
        first = await store.counterparties(ACME, "importer", YEAR, page=1, page_size=20)
        assert await terminate_backends(postgres_dsn) > 0
        again = await store.counterparties(ACME, "importer", YEAR, page=1, page_size=20)
        assert _rows(again.groups) == _rows(first.groups)
    finally:
        await store.close()


async def test_a_postgres_query_cut_while_it_runs_is_asked_again(postgres_dsn: str) -> None:
    store = PostgresTradeStore(postgres_dsn, max_connections=2)
    try:
        running = asyncio.create_task(store._fetch("SELECT 7 FROM pg_sleep(1.5)", ()))
        await asyncio.sleep(0.5)
        assert await terminate_backends(postgres_dsn) > 0
        assert await running == [(7,)]
    finally:
        await store.close()


async def test_the_duckdb_store_sees_an_ingest_without_a_restart(tmp_path: Path) -> None:
    world = load_world(tmp_path / "world")
    store = DuckDBTradeStore(world / DUCKDB_FILE)
    try:
        assert await store.company_names("importer") == [ACME, BERLIN]
        newcomer = {
            **_row(10, "2024-05-05", BERLIN, OSAKA, "870899", "gears", 1, 1, 50, "i"),
            "importer_name": "Newco",
        }
        load_world(world, [*SHIPMENTS, newcomer])
        assert await store.company_names("importer") == [ACME, BERLIN, "Newco"]
        page = await store.counterparties("Newco", "importer", YEAR, page=1, page_size=20)
        assert _rows(page.groups) == [(OSAKA, "JPN", 1, 50.0)]
        spill_dirs = list(store._spill_dirs)
        assert len(spill_dirs) == 2  # one per opened instance: no two instances share spill files
    finally:
        await store.close()
    assert not any(Path(d).exists() for d in spill_dirs)


# The DuckDB file's layout: one company's rows are found without reading the others'. -------------------


def _stored_order(con: duckdb.DuckDBPyConnection, table: str, key: str) -> list[tuple[object, ...]]:
    """The rows' (key, date, id) in the order the file stores them (a one-thread scan keeps it)."""
    con.execute("SET threads = 1")
    return con.execute(f"SELECT {key}, date, id FROM {table}").fetchall()


def test_a_written_file_keeps_the_rows_ordered_by_importer_and_a_copy_by_exporter(tmp_path: Path) -> None:
    world = load_world(tmp_path / "world")
    with duckdb.connect(str(world / DUCKDB_FILE), read_only=True) as con:
        by_importer = _stored_order(con, "shipments", "importer_name")
        by_exporter = _stored_order(con, BY_EXPORTER_TABLE, "exporter_name")
        assert by_importer == sorted(by_importer) and len(by_importer) == len(SHIPMENTS)
        assert by_exporter == sorted(by_exporter)
        differ = f"SELECT * FROM shipments EXCEPT ALL SELECT * FROM {BY_EXPORTER_TABLE}"
        assert con.execute(f"SELECT count(*) FROM ({differ})").fetchone() == (0,)


async def test_the_store_asks_the_exporter_copy_and_a_file_without_it_still_answers(tmp_path: Path) -> None:
    world = load_world(tmp_path / "world")
    store = DuckDBTradeStore(world / DUCKDB_FILE)
    try:
        expected = await store.counterparties(OSAKA, "exporter", EXPORTS_YEAR, page=1, page_size=20)
        assert store.table_of("exporter").endswith(BY_EXPORTER_TABLE)
        assert store.table_of("importer") == store.table
    finally:
        await store.close()
    with duckdb.connect(str(world / DUCKDB_FILE)) as con:  # as a file written before the copy existed
        con.execute(f"DROP TABLE {BY_EXPORTER_TABLE}")
    older = DuckDBTradeStore(world / DUCKDB_FILE)
    try:
        answer = await older.counterparties(OSAKA, "exporter", EXPORTS_YEAR, page=1, page_size=20)
        assert older.table_of("exporter") == older.table
        assert answer == expected
    finally:
        await older.close()


def test_a_query_for_one_company_reads_only_the_row_groups_that_hold_it(tmp_path: Path) -> None:
    """Eight companies' rows in random order, many row groups: after the layout, one company's query
    skips most of them, on either side."""
    out = tmp_path / DUCKDB_FILE
    with duckdb.connect() as con:
        con.execute("SET threads = 2")
        con.execute(
            "CREATE TABLE shipments AS SELECT i AS id, DATE '2024-01-01' + (i % 300)::INT AS date, "
            "NULL::VARCHAR AS importer_id, NULL::VARCHAR AS exporter_id, "
            "'Importer ' || (hash(i) % 8) AS importer_name, "
            "'Exporter ' || (hash(i * 7) % 8) AS exporter_name, "
            "'USA' AS importer_country3, 'DEU' AS exporter_country3, 'DEU' AS origin_country3, "
            "'USA' AS destination_country3, '847130' AS hs_code, NULL::VARCHAR AS product_description, "
            "1.0 AS quantity, 1.0 AS weight_kg, 100.0 AS amount_usd, true AS in_imports, false AS in_exports "
            "FROM range(1000000) t(i) ORDER BY hash(i)"
        )
        con.execute(f"ATTACH '{out}' AS written")
        write_for_companies(con, "SELECT * FROM shipments", "written")
        con.execute("DETACH written")
    with duckdb.connect(str(out), read_only=True) as con:
        for table, side in (("shipments", "importer"), (BY_EXPORTER_TABLE, "exporter")):
            plan = con.execute(
                f"EXPLAIN ANALYZE SELECT count(*) FROM {table} WHERE {side}_name = ? AND in_imports",
                [f"{side.title()} 3"],
            ).fetchall()[0][1]
            counts = re.search(r"Row Groups Scanned: (\d+) / (\d+)", plan)
            assert counts is not None, plan
            scanned, total = int(counts[1]), int(counts[2])
            assert total >= 8 and scanned <= total // 4 + 1, plan
