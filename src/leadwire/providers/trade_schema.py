"""The shipment record both trade stores hold: one row per customs declaration line.

`in_imports` / `in_exports` say which record directory (customs `catalog`) holds the row: the
importing country's declarations, the exporting country's, or both. DuckDB keeps the rows in table
`shipments` of `<world_dir>/trade.duckdb` (see `sandbox/trade.py`, which writes it); PostgreSQL in
table `trade_shipments`. Text columns are `COLLATE "C"` there so that ordering by name is byte order,
as in DuckDB: both stores then return the same rows in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass

DUCKDB_TABLE = "shipments"
POSTGRES_TABLE = "trade_shipments"
DUCKDB_FILE = "trade.duckdb"


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # date, text, number, boolean, integer
    required: bool
    doc: str


# The documented ingest schema (CSV header or Parquet column names), in table order.
COLUMNS: tuple[Column, ...] = (
    Column("id", "integer", True, "unique shipment id; a row with a known id replaces it"),
    Column("date", "date", True, "declaration date, YYYY-MM-DD"),
    Column("importer_id", "text", False, "your id of the importing company"),
    Column("exporter_id", "text", False, "your id of the exporting company"),
    Column("importer_name", "text", True, "importing company as declared"),
    Column("exporter_name", "text", True, "exporting company as declared"),
    Column("importer_country3", "text", True, "ISO 3166-1 alpha-3 of the importer"),
    Column("exporter_country3", "text", True, "ISO 3166-1 alpha-3 of the exporter"),
    Column("origin_country3", "text", False, "alpha-3 the goods come from (default: exporter_country3)"),
    Column("destination_country3", "text", False, "alpha-3 the goods go to (default: importer_country3)"),
    Column("hs_code", "text", True, "HS code, 2 to 10 digits"),
    Column("product_description", "text", False, "goods description as declared"),
    Column("quantity", "number", False, "units; default 0"),
    Column("weight_kg", "number", False, "net weight in kg; default 0"),
    Column("amount_usd", "number", True, "declared value in USD"),
    Column("in_imports", "boolean", False, "held by the importing country's records (default true)"),
    Column("in_exports", "boolean", False, "held by the exporting country's records (default false)"),
)
COLUMN_NAMES = tuple(c.name for c in COLUMNS)

POSTGRES_DDL = f"""
CREATE TABLE IF NOT EXISTS {POSTGRES_TABLE} (
  id BIGINT PRIMARY KEY,
  date DATE NOT NULL,
  importer_id TEXT COLLATE "C",
  exporter_id TEXT COLLATE "C",
  importer_name TEXT COLLATE "C" NOT NULL,
  exporter_name TEXT COLLATE "C" NOT NULL,
  importer_country3 TEXT COLLATE "C" NOT NULL,
  exporter_country3 TEXT COLLATE "C" NOT NULL,
  origin_country3 TEXT COLLATE "C" NOT NULL,
  destination_country3 TEXT COLLATE "C" NOT NULL,
  hs_code TEXT COLLATE "C" NOT NULL,
  product_description TEXT,
  quantity DOUBLE PRECISION NOT NULL,
  weight_kg DOUBLE PRECISION NOT NULL,
  amount_usd DOUBLE PRECISION NOT NULL,
  in_imports BOOLEAN NOT NULL,
  in_exports BOOLEAN NOT NULL
);
CREATE INDEX IF NOT EXISTS {POSTGRES_TABLE}_importer ON {POSTGRES_TABLE} (importer_name, date);
CREATE INDEX IF NOT EXISTS {POSTGRES_TABLE}_exporter ON {POSTGRES_TABLE} (exporter_name, date);
CREATE INDEX IF NOT EXISTS {POSTGRES_TABLE}_hs ON {POSTGRES_TABLE} (hs_code, date);
CREATE INDEX IF NOT EXISTS {POSTGRES_TABLE}_date ON {POSTGRES_TABLE} (date);
"""
