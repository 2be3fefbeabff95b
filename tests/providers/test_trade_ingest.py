"""Ingesting customs shipments into the trade store, on DuckDB and on PostgreSQL: defaults, CSV and
Parquet, upserts by id, row-numbered validation errors that write nothing, copy-on-write of
trade.duckdb under open readers, and the `leadwire ingest shipments` command."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from leadwire.cli import app
from leadwire.providers.trade_ingest import MAX_ERRORS, ShipmentIngestReport, ingest_shipments
from leadwire.providers.trade_schema import COLUMN_NAMES
from leadwire.sandbox.trade import SHIPMENTS_DDL

PG_SCHEMA = "trade_ingest_test"
REQUIRED_ROW = {
    "id": "1",
    "date": "2024-01-05",
    "importer_name": "Acme Imports Inc",
    "exporter_name": "Beta Maschinen GmbH",
    "importer_country3": "USA",
    "exporter_country3": "DEU",
    "hs_code": "847950",
    "amount_usd": "1200.5",
}


def _csv(path: Path, rows: list[dict[str, str]], header: list[str] | None = None) -> Path:
    names = header or list(dict.fromkeys(k for row in rows for k in row))
    lines = [",".join(names)] + [",".join(row.get(n, "") for n in names) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


async def _pg(dsn: str, sql: str) -> list[dict[str, Any]]:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        return [dict(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


@dataclass
class Store:
    name: str
    world_dir: Path
    dsn: str | None

    def ingest(self, path: Path) -> ShipmentIngestReport:
        return ingest_shipments(path, store=self.name, world_dir=self.world_dir, database_url=self.dsn)

    def rows(self) -> list[dict[str, Any]]:
        """The stored rows by id; a fresh connection each time (ATTACH: duckdb.connect(path) could hand
        back an instance this process still holds open on the replaced file)."""
        if self.dsn is not None:
            sql = "SELECT * FROM trade_shipments ORDER BY id"
            exists = asyncio.run(_pg(self.dsn, "SELECT to_regclass('trade_shipments') AS t"))[0]["t"]
            return asyncio.run(_pg(self.dsn, sql)) if exists else []
        file = self.world_dir / "trade.duckdb"
        if not file.exists():
            return []
        con = duckdb.connect()
        con.execute(f"ATTACH '{file}' AS t (READ_ONLY)")
        cursor = con.execute("SELECT * FROM t.shipments ORDER BY id")
        names = [d[0] for d in cursor.description or []]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


@pytest.fixture(params=["duckdb", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "duckdb":
        return Store("duckdb", tmp_path / "world", None)
    # The database is shared by the session: these tests keep to a schema of their own (search_path).
    base = request.getfixturevalue("pg_database").replace("postgresql+asyncpg://", "postgresql://", 1)
    asyncio.run(_pg(base, f"CREATE SCHEMA IF NOT EXISTS {PG_SCHEMA}"))
    dsn = f"{base}?search_path={PG_SCHEMA}"
    asyncio.run(_pg(dsn, f"DROP TABLE IF EXISTS {PG_SCHEMA}.trade_shipments"))
    return Store("postgres", tmp_path / "world", dsn)


def _errors(report: ShipmentIngestReport) -> list[tuple[int, str | None]]:
    return [(e.line, e.field) for e in report.errors]


def test_a_valid_csv_is_inserted_with_defaults(store: Store, tmp_path: Path) -> None:
    full = {
        **REQUIRED_ROW,
        "id": "2",
        "importer_id": "imp-9",
        "exporter_id": "exp-3",
        "importer_name": "  Gamma Trading  ",
        "importer_country3": "fra",
        "origin_country3": "chn",
        "destination_country3": "BEL",
        "product_description": "robots, industrial",
        "quantity": "12",
        "weight_kg": "3400.25",
        "in_imports": "FALSE",
        "in_exports": "1",
    }
    path = tmp_path / "shipments.csv"
    _csv(path, [REQUIRED_ROW, {k: f'"{v}"' if "," in v else v for k, v in full.items()}], list(COLUMN_NAMES))
    report = store.ingest(path)
    assert report.accepted, report.errors
    assert (report.rows, report.inserted, report.updated, report.unchanged) == (2, 2, 0, 0)
    first, second = store.rows()
    assert first == {
        **REQUIRED_ROW,
        "id": 1,
        "date": date(2024, 1, 5),
        "importer_id": None,
        "exporter_id": None,
        "origin_country3": "DEU",
        "destination_country3": "USA",
        "product_description": None,
        "quantity": 0.0,
        "weight_kg": 0.0,
        "amount_usd": 1200.5,
        "in_imports": True,
        "in_exports": False,
    }
    assert second["importer_name"] == "Gamma Trading" and second["importer_country3"] == "FRA"
    assert (second["origin_country3"], second["destination_country3"]) == ("CHN", "BEL")
    assert second["product_description"] == "robots, industrial"
    assert (second["quantity"], second["weight_kg"]) == (12.0, 3400.25)
    assert (second["in_imports"], second["in_exports"]) == (False, True)


def test_parquet_input_with_typed_columns(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "shipments.parquet"
    duckdb.connect().execute(
        f"""COPY (SELECT i::BIGINT AS id, DATE '2024-03-01' + i::INTEGER AS date,
        'Imp ' || i AS importer_name, 'Exp' AS exporter_name, 'USA' AS importer_country3,
        'JPN' AS exporter_country3, '8703' AS hs_code,
        i * 10.5 AS amount_usd, i % 2 = 0 AS in_exports FROM range(1, 4) t(i)) TO '{path}' (FORMAT parquet)"""
    )
    report = store.ingest(path)
    assert report.accepted and report.inserted == 3, report.errors
    rows = store.rows()
    assert [r["date"] for r in rows] == [date(2024, 3, 2), date(2024, 3, 3), date(2024, 3, 4)]
    assert [r["in_exports"] for r in rows] == [False, True, False]
    assert rows[2]["amount_usd"] == 31.5


def test_parquet_errors_are_numbered_by_row(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "bad.parquet"
    duckdb.connect().execute(
        f"""COPY (SELECT i AS id, '2024-01-01' AS date, 'I' AS importer_name, 'E' AS exporter_name,
        'USA' AS importer_country3, CASE WHEN i = 2 THEN 'XYZ' ELSE 'DEU' END AS exporter_country3,
        '84' AS hs_code, 1.0 AS amount_usd FROM range(1, 4) t(i)) TO '{path}' (FORMAT parquet)"""
    )
    assert _errors(store.ingest(path)) == [(2, "exporter_country3")]


def test_reingest_updates_by_id(store: Store, tmp_path: Path) -> None:
    second = {**REQUIRED_ROW, "id": "2", "hs_code": "8703"}
    assert store.ingest(_csv(tmp_path / "a.csv", [REQUIRED_ROW, second])).inserted == 2
    changed = {**REQUIRED_ROW, "amount_usd": "99", "exporter_country3": "ITA"}
    third = {**REQUIRED_ROW, "id": "3"}
    report = store.ingest(_csv(tmp_path / "b.csv", [changed, second, third]))
    assert (report.rows, report.inserted, report.updated, report.unchanged) == (3, 1, 1, 1)
    rows = store.rows()
    assert [r["id"] for r in rows] == [1, 2, 3]
    assert (rows[0]["amount_usd"], rows[0]["exporter_country3"], rows[0]["origin_country3"]) == (
        99.0,
        "ITA",
        "ITA",
    )


LONG = "x" * 301
_CELLS = list(REQUIRED_ROW.values())
RAGGED = f"{','.join(REQUIRED_ROW)}\n{','.join(_CELLS)}\n2,{','.join(_CELLS[1:])},x\n"  # line 3: 9 cells
RULES = [
    ({"id": ""}, "id", "is required"),
    ({"id": "abc"}, "id", "positive integer"),
    ({"id": "0"}, "id", "positive integer"),
    ({"id": "-4"}, "id", "positive integer"),
    ({"id": "2.5"}, "id", "positive integer"),
    ({"id": "1"}, "id", "duplicate id (first on line 2)"),
    ({"date": ""}, "date", "is required"),
    ({"date": "2024-02-30"}, "date", "real date"),
    ({"date": "2024-13-01"}, "date", "real date"),
    ({"date": "05/01/2024"}, "date", "real date"),
    ({"importer_name": "   "}, "importer_name", "is required"),
    ({"exporter_name": LONG}, "exporter_name", "at most 300"),
    ({"importer_id": LONG}, "importer_id", "at most 300"),
    ({"importer_country3": "US"}, "importer_country3", "alpha-3"),
    ({"exporter_country3": "ZZZ"}, "exporter_country3", "alpha-3"),
    ({"origin_country3": "XXA"}, "origin_country3", "alpha-3"),
    ({"destination_country3": "germany"}, "destination_country3", "alpha-3"),
    ({"hs_code": "8"}, "hs_code", "2 to 10 digits"),
    ({"hs_code": "84795"}, "hs_code", "2 to 10 digits"),
    ({"hs_code": "8479.50"}, "hs_code", "2 to 10 digits"),
    ({"hs_code": "847950123456"}, "hs_code", "2 to 10 digits"),
    ({"quantity": "-1"}, "quantity", ">= 0"),
    ({"weight_kg": "heavy"}, "weight_kg", ">= 0"),
    ({"weight_kg": "inf"}, "weight_kg", ">= 0"),
    ({"amount_usd": "nan"}, "amount_usd", ">= 0"),
    ({"amount_usd": ""}, "amount_usd", "is required"),
    ({"in_imports": "yes"}, "in_imports", "true, false, 1 or 0"),
    ({"in_exports": "maybe"}, "in_exports", "true, false, 1 or 0"),
    ({"in_imports": "false"}, "in_imports", "cannot both be false"),
    ({"in_imports": "0", "in_exports": "False"}, "in_imports", "cannot both be false"),
]


@pytest.mark.parametrize(("override", "field", "message"), RULES, ids=[f"{r[1]}={r[0]}" for r in RULES])
def test_each_rule_rejects_the_file_with_line_and_field(
    store: Store, tmp_path: Path, override: dict[str, str], field: str, message: str
) -> None:
    store.ingest(_csv(tmp_path / "seed.csv", [{**REQUIRED_ROW, "id": "50"}]))
    before = store.rows()
    bad = {**REQUIRED_ROW, "id": "2", **override}
    report = store.ingest(_csv(tmp_path / "bad.csv", [REQUIRED_ROW, bad], list(COLUMN_NAMES)))
    assert not report.accepted
    assert [(e.line, e.field) for e in report.errors] == [(3, field)]
    assert message in report.errors[0].message
    assert (report.inserted, report.updated) == (0, 0)
    assert store.rows() == before


def test_unknown_and_missing_columns(store: Store, tmp_path: Path) -> None:
    unknown = store.ingest(_csv(tmp_path / "a.csv", [{**REQUIRED_ROW, "colour": "red"}]))
    assert _errors(unknown) == [(1, "colour")] and unknown.errors[0].message == "unknown column"
    missing = dict(REQUIRED_ROW)
    del missing["hs_code"]
    report = store.ingest(_csv(tmp_path / "b.csv", [missing]))
    assert _errors(report) == [(1, "hs_code")] and report.errors[0].message == "missing required column"
    assert store.rows() == []


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("shipments.json", "[]", (0, "unsupported file type")),
        ("missing.csv", None, (0, "no such file")),
        ("empty.csv", "", (1, "empty file")),
        ("ragged.csv", RAGGED, (3, "Expected Number of Columns: 8 Found: 9")),
    ],
)
def test_unreadable_files(
    store: Store, tmp_path: Path, name: str, content: str | None, expected: tuple[int, str]
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    report = store.ingest(path)
    assert not report.accepted and len(report.errors) == 1
    assert (report.errors[0].line, report.errors[0].field) == (expected[0], None)
    assert expected[1] in report.errors[0].message
    assert store.rows() == []


def test_the_error_list_is_capped(store: Store, tmp_path: Path) -> None:
    rows = [{**REQUIRED_ROW, "id": str(i), "hs_code": "1"} for i in range(1, MAX_ERRORS + 51)]
    report = store.ingest(_csv(tmp_path / "bad.csv", rows))
    assert len(report.errors) == MAX_ERRORS and report.errors_truncated == 50
    assert report.errors[0].line == 2 and report.errors[-1].line == MAX_ERRORS + 1
    assert report.to_dict()["errors_truncated"] == 50


def test_duckdb_ingest_creates_a_missing_trade_file(tmp_path: Path) -> None:
    world = tmp_path / "new-world"
    store = Store("duckdb", world, None)
    assert store.ingest(_csv(tmp_path / "a.csv", [REQUIRED_ROW])).inserted == 1
    assert sorted(p.name for p in world.iterdir()) == ["trade.duckdb", "trade.duckdb.lock"]
    assert [r["id"] for r in store.rows()] == [1]


def test_duckdb_copy_on_write_under_an_open_reader(tmp_path: Path) -> None:
    world = tmp_path / "world"
    world.mkdir()
    with duckdb.connect(str(world / "trade.duckdb")) as con:  # as the sandbox world generator writes it
        con.execute(SHIPMENTS_DDL)
        con.execute(
            "INSERT INTO shipments VALUES (1, DATE '2023-01-01', NULL, NULL, 'Old', 'Old', 'USA', 'DEU',"
            " 'DEU', 'USA', '84', NULL, 1, 1, 1, true, false), (7, DATE '2023-01-02', NULL, NULL, 'Keep',"
            " 'Keep', 'USA', 'DEU', 'DEU', 'USA', '84', NULL, 1, 1, 1, true, false)"
        )
    inode = (world / "trade.duckdb").stat().st_ino
    reader = duckdb.connect(str(world / "trade.duckdb"), read_only=True)
    try:
        rows = [REQUIRED_ROW, {**REQUIRED_ROW, "id": "2"}]
        report = Store("duckdb", world, None).ingest(_csv(tmp_path / "a.csv", rows))
        assert (report.inserted, report.updated) == (1, 1)
        assert reader.execute("SELECT count(*), min(importer_name) FROM shipments").fetchone() == (2, "Keep")
    finally:
        reader.close()
    assert (world / "trade.duckdb").stat().st_ino != inode
    stored = Store("duckdb", world, None).rows()
    acme = REQUIRED_ROW["importer_name"]
    assert [(r["id"], r["importer_name"]) for r in stored] == [(1, acme), (2, acme), (7, "Keep")]
    assert not [p for p in world.iterdir() if p.name.endswith(".tmp")]


def test_cli_prints_the_report_and_fails_on_errors(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADWIRE_TRADE_STORE", store.name)
    monkeypatch.delenv("LEADWIRE_DATABASE_URL", raising=False)
    if store.dsn:
        monkeypatch.setenv("LEADWIRE_TRADE_DATABASE_URL", store.dsn)
    runner = CliRunner()
    args = ["ingest", "shipments", "--data-dir", str(tmp_path)]
    good = runner.invoke(app, [*args, str(_csv(tmp_path / "a.csv", [REQUIRED_ROW]))])
    assert good.exit_code == 0, good.output
    assert json.loads(good.stdout.strip().splitlines()[-1])["inserted"] == 1
    bad = _csv(tmp_path / "b.csv", [REQUIRED_ROW, {**REQUIRED_ROW, "id": "2", "hs_code": "x"}])
    result = runner.invoke(app, [*args, str(bad)])
    assert result.exit_code == 1
    assert json.loads(result.stdout.strip().splitlines()[-1])["accepted"] is False
    assert f"{bad}: line 3, field hs_code: must be 2 to 10 digits" in result.stderr
    assert [r["id"] for r in store.rows()] == [1]


def test_duckdb_ingest_over_a_file_a_killed_writer_left_with_its_log(tmp_path: Path) -> None:
    """A writer killed before its checkpoint leaves `trade.duckdb.wal` beside the file: the ingest
    replays that log in a private copy (the live file stays read-only for its readers), keeps the
    logged rows, and the new file leaves no log behind."""
    import subprocess
    import sys

    world = tmp_path / "world"
    world.mkdir()
    file = world / "trade.duckdb"
    killed = (
        "import duckdb, os, sys\n"
        f"con = duckdb.connect({str(file)!r})\n"
        f"con.execute({SHIPMENTS_DDL!r})\n"
        "con.execute('CHECKPOINT')\n"
        "con.execute(\"INSERT INTO shipments VALUES (7, DATE '2023-01-02', NULL, NULL, 'Logged', 'Logged',"
        " 'USA', 'DEU', 'DEU', 'USA', '84', NULL, 1, 1, 1, true, false)\")\n"
        "os._exit(0)  # no close, no checkpoint: the row is only in the log\n"
    )
    subprocess.run([sys.executable, "-c", killed], check=True, timeout=60)
    assert (world / "trade.duckdb.wal").exists()
    report = Store("duckdb", world, None).ingest(_csv(tmp_path / "a.csv", [REQUIRED_ROW]))
    assert (report.inserted, report.updated, report.unchanged) == (1, 0, 0)
    assert [r["id"] for r in Store("duckdb", world, None).rows()] == [1, 7]
    assert sorted(p.name for p in world.iterdir()) == ["trade.duckdb", "trade.duckdb.lock"]
