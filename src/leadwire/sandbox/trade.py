"""Customs shipments of the sandbox world: goods companies export their HS products to importers
abroad, with repeat trading relationships, Pareto-distributed values and monthly seasonality,
generated with numpy in monthly chunks and bulk-loaded into DuckDB."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import duckdb
import numpy as np

from leadwire.sandbox.companies import Company
from leadwire.sandbox.config import SizeConfig, stage_rng
from leadwire.sandbox.geo import countries

_COLUMN_TYPES = """
  id BIGINT, date DATE, importer_id VARCHAR, exporter_id VARCHAR,
  importer_name VARCHAR, exporter_name VARCHAR,
  importer_country3 VARCHAR, exporter_country3 VARCHAR, origin_country3 VARCHAR, destination_country3 VARCHAR,
  hs_code VARCHAR, product_description VARCHAR, quantity DOUBLE, weight_kg DOUBLE, amount_usd DOUBLE,
  in_imports BOOLEAN, in_exports BOOLEAN
"""
_COLUMNS = tuple(line.split()[0] for line in _COLUMN_TYPES.replace(",", "\n").splitlines() if line.strip())
SHIPMENTS_DDL = f"CREATE TABLE shipments ({_COLUMN_TYPES})"
# A copy of the rows ordered by exporter: `shipments` itself is ordered by importer (`write_for_companies`).
BY_EXPORTER_TABLE = "shipments_by_exporter"
_BY_IMPORTER = "importer_name, date, id"
_BY_EXPORTER = "exporter_name, date, id"


def write_for_companies(con: duckdb.DuckDBPyConnection, rows: str, database: str) -> None:
    """Write the shipments that query `rows` selects into the empty database `database`, laid out so
    that one company's rows are found without reading the others': table `shipments` ordered by
    (importer_name, date, id) and a copy ordered by (exporter_name, date, id).

    DuckDB keeps each column's min and max per row group: a query for one name reads only the row
    groups that can hold it, so a section's cost follows the company's rows instead of the table's.
    Each side needs its own order, hence the copy (the file about doubles); the trade store reads the
    copy for exporters when the file has it (`DuckDBTradeStore.table_of`). Written into a fresh file,
    not over the old rows in place, so the file holds no space freed by them."""
    columns = ", ".join(_COLUMNS)
    con.execute(f"CREATE TABLE {database}.shipments ({_COLUMN_TYPES})")
    con.execute(f"INSERT INTO {database}.shipments SELECT {columns} FROM ({rows}) ORDER BY {_BY_IMPORTER}")
    con.execute(
        f"CREATE TABLE {database}.{BY_EXPORTER_TABLE} AS "
        f"SELECT * FROM {database}.shipments ORDER BY {_BY_EXPORTER}"
    )


_NATIONAL_SUFFIXES = ("0000", "1000", "2000", "9000", "1010", "9090", "0010", "8000")
# HS chapter -> typical value in USD per kg
_PRICE_PER_KG = {
    range(1, 25): 3.0,
    range(25, 28): 0.4,
    range(28, 39): 6.0,
    range(30, 31): 90.0,
    range(39, 41): 3.0,
    range(44, 50): 1.5,
    range(50, 68): 12.0,
    range(68, 71): 2.5,
    range(71, 72): 2500.0,
    range(72, 84): 3.0,
    range(84, 86): 45.0,
    range(86, 88): 15.0,
    range(88, 89): 400.0,
    range(89, 90): 6.0,
    range(90, 93): 150.0,
    range(93, 98): 10.0,
}
_MAKERS = ("CN", "DE", "US", "JP", "KR", "IN", "VN")


@dataclass
class TradeResult:
    """What the rest of the build needs to know about the shipments."""

    rows: int
    trading_company_indexes: set[int]


@dataclass
class _Network:
    exporters: np.ndarray  # company indexes
    activity: np.ndarray  # probability per exporter
    scale: np.ndarray  # value multiplier per exporter
    partner_start: np.ndarray
    partner_count: np.ndarray
    partners: np.ndarray  # company indexes, grouped per exporter
    product_start: np.ndarray
    product_count: np.ndarray
    importers: np.ndarray
    importer_p: np.ndarray


@dataclass
class _Products:
    hs_code: list[str]
    description: list[str]
    price_kg: np.ndarray
    unit_kg: np.ndarray


def build_trade(
    path: Path,
    cfg: SizeConfig,
    seed: int,
    as_of: date,
    companies: list[Company],
    advance: Callable[[int], None] = lambda n: None,
) -> TradeResult:
    """Writes trade.duckdb at `path` with cfg.shipments rows.

    `advance` is called with a row count after each generated month and once more after the final write,
    so a progress bar over 2 * cfg.shipments steps fills up exactly."""
    rng = stage_rng(seed, "trade")
    products = _Products([], [], np.zeros(0), np.zeros(0))
    net = _network(rng, companies, products)
    # Generated in a staging file, then written ordered into `path` (`write_for_companies`).
    staging = path.with_name(f".{path.name}.staging")
    staging.unlink(missing_ok=True)
    con = duckdb.connect(str(staging))
    try:
        con.execute("SET enable_progress_bar = false")
        con.execute(SHIPMENTS_DDL)
        traded: set[int] = set()
        if len(net.exporters):
            traded = _stage_raw(con, rng, cfg, as_of, companies, net, products, advance)
            _load_lookups(con, companies, products)
            con.execute(_INSERT)
            con.execute("DROP TABLE raw; DROP TABLE lk_company; DROP TABLE lk_product; DROP TABLE lk_country")
        path.unlink(missing_ok=True)
        con.execute(f"ATTACH '{_quoted(path)}' AS written")
        write_for_companies(con, "SELECT * FROM shipments", "written")
        con.execute("CHECKPOINT written")
        con.execute("DETACH written")
        if not len(net.exporters):
            advance(2 * cfg.shipments)
            return TradeResult(0, set())
        advance(cfg.shipments)
        return TradeResult(cfg.shipments, traded)
    finally:
        con.close()
        staging.unlink(missing_ok=True)
        staging.with_name(staging.name + ".wal").unlink(missing_ok=True)


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


def _stage_raw(
    con: duckdb.DuckDBPyConnection,
    rng: np.random.Generator,
    cfg: SizeConfig,
    as_of: date,
    companies: list[Company],
    net: _Network,
    products: _Products,
    advance: Callable[[int], None],
) -> set[int]:
    """Generates the shipments month by month into a numeric temp table; returns the trading companies."""
    months = _months(as_of)
    cover = _coverage_positions(rng, cfg.shipments, len(net.exporters))
    arrays = _CountryArrays.of(companies)
    traded: set[int] = set()
    next_id = 1
    for (start_day, days), n in zip(months, _monthly_counts(rng, cfg.shipments, months), strict=True):
        chunk = _chunk(rng, net, products, arrays, _Window(int(n), start_day, days, next_id), cover)
        traded.update(np.unique(chunk["exporter"]).tolist())
        traded.update(np.unique(chunk["importer"]).tolist())
        con.register("chunk", chunk)
        con.execute(
            "INSERT INTO raw SELECT * FROM chunk"
            if next_id > 1
            else "CREATE TEMP TABLE raw AS SELECT * FROM chunk"
        )
        con.unregister("chunk")
        next_id += int(n)
        advance(int(n))
    return traded


_INSERT = """
INSERT INTO shipments
SELECT k.id, DATE '1970-01-01' + k.day, i.id, e.id, i.name, e.name,
       i.country3, e.country3, o.alpha3, i.country3,
       p.hs_code, p.description, k.quantity, k.weight_kg, k.amount_usd, k.in_imports, k.in_exports
FROM raw k
JOIN lk_company i ON i.idx = k.importer
JOIN lk_company e ON e.idx = k.exporter
JOIN lk_country o ON o.idx = k.origin
JOIN lk_product p ON p.idx = k.product
"""


def _load_lookups(con: duckdb.DuckDBPyConnection, companies: list[Company], products: _Products) -> None:
    tables = {
        "lk_company": {
            "idx": np.arange(len(companies), dtype=np.int64),
            "id": np.array([c.id for c in companies], dtype=object),
            "name": np.array([c.name for c in companies], dtype=object),
            "country3": np.array([c.country.alpha3 for c in companies], dtype=object),
        },
        "lk_product": {
            "idx": np.arange(len(products.hs_code), dtype=np.int64),
            "hs_code": np.array(products.hs_code, dtype=object),
            "description": np.array(products.description, dtype=object),
        },
        "lk_country": {
            "idx": np.arange(len(countries()), dtype=np.int64),
            "alpha3": np.array([c.alpha3 for c in countries()], dtype=object),
        },
    }
    for name, columns in tables.items():
        con.register("lookup_in", columns)
        con.execute(f"CREATE TEMP TABLE {name} AS SELECT * FROM lookup_in")
        con.unregister("lookup_in")


def _price_per_kg(hs6: str) -> float:
    chapter = int(hs6[:2])
    return next((v for r, v in reversed(list(_PRICE_PER_KG.items())) if chapter in r), 5.0)


def _network(rng: np.random.Generator, companies: list[Company], products: _Products) -> _Network:
    """Exporters, their products and their regular customers abroad."""
    exporters = np.array(
        [c.index for c in companies if c.industry.sector.exports and c.products], dtype=np.int64
    )
    importers = np.array([c.index for c in companies if c.industry.sector.imports], dtype=np.int64)
    emp = np.array([c.employees for c in companies], dtype=float)
    activity = emp[exporters] ** 0.6 * (
        rng.pareto(1.5, len(exporters)) + 1
    )  # Pareto: a few exporters dominate
    imp_w = emp[importers] ** 0.6
    codes = _codes(companies)
    partner_lists: list[np.ndarray] = []
    cdf_cache: dict[tuple[int, int], np.ndarray] = {}
    for e in exporters:
        key = (int(codes.country[e]), int(codes.sector[e]))
        if key not in cdf_cache:  # exporters of one country and sector share their partner weights
            w = _partner_weights(codes, importers, imp_w, int(e))
            cdf_cache[key] = np.cumsum(w) / w.sum() if w.sum() > 0 else np.zeros(0)
        partner_lists.append(_draw_partners(rng, importers, cdf_cache[key]))
    product_start, product_count = _register_products(rng, companies, exporters, products)
    counts = np.array([len(p) for p in partner_lists], dtype=np.int64)
    keep = counts > 0
    act = activity[keep]
    return _Network(
        exporters=exporters[keep],
        activity=act / act.sum() if act.sum() > 0 else act,
        scale=np.clip(emp[exporters] ** 0.3, 1, 30)[keep],
        partner_start=(np.cumsum(counts) - counts)[keep],
        partner_count=counts[keep],
        partners=np.concatenate(partner_lists) if partner_lists else np.zeros(0, dtype=np.int64),
        product_start=product_start[keep],
        product_count=product_count[keep],
        importers=importers,
        importer_p=imp_w / imp_w.sum() if len(importers) else imp_w,
    )


@dataclass
class _Codes:
    country: np.ndarray
    region: np.ndarray
    sector: np.ndarray
    friendly: np.ndarray  # sectors that buy from anyone: wholesale and retail


def _codes(companies: list[Company]) -> _Codes:
    def encode(values: list[str]) -> np.ndarray:
        table = {v: i for i, v in enumerate(dict.fromkeys(values))}
        return np.array([table[v] for v in values], dtype=np.int64)

    sectors = [c.industry.sector.key for c in companies]
    return _Codes(
        country=encode([c.country.alpha2 for c in companies]),
        region=encode([c.country.region for c in companies]),
        sector=encode(sectors),
        friendly=np.array([s in ("wholesale", "retail") for s in sectors]),
    )


def _partner_weights(codes: _Codes, importers: np.ndarray, imp_w: np.ndarray, exporter: int) -> np.ndarray:
    abroad = codes.country[importers] != codes.country[exporter]
    near = np.where(codes.region[importers] == codes.region[exporter], 1.5, 1.0)
    fit = np.where((codes.sector[importers] == codes.sector[exporter]) | codes.friendly[importers], 3.0, 1.0)
    return imp_w * abroad * near * fit


def _draw_partners(rng: np.random.Generator, importers: np.ndarray, cdf: np.ndarray) -> np.ndarray:
    """A few distinct regular customers drawn by weight (inverse-CDF draws, duplicates dropped)."""
    if len(cdf) == 0:
        return importers[:0]
    wanted = min(2 + int(rng.geometric(0.25)), 15)
    picks = np.minimum(np.searchsorted(cdf, rng.random(2 * wanted), side="right"), len(cdf) - 1)
    _, first = np.unique(picks, return_index=True)
    return importers[picks[np.sort(first)][:wanted]]


def _register_products(
    rng: np.random.Generator, companies: list[Company], exporters: np.ndarray, products: _Products
) -> tuple[np.ndarray, np.ndarray]:
    """Adds each exporter's products with a 10-digit national code; returns where each exporter's start."""
    start, count = [], []
    for e in exporters:
        company = companies[int(e)]
        start.append(len(products.hs_code))
        count.append(len(company.products))
        for hs6, desc in company.products:
            products.hs_code.append(hs6 + _NATIONAL_SUFFIXES[int(rng.integers(len(_NATIONAL_SUFFIXES)))])
            products.description.append(desc)
    n = len(products.hs_code)
    products.price_kg = np.array([_price_per_kg(h) for h in products.hs_code]) * rng.lognormal(0, 0.4, n)
    products.unit_kg = rng.lognormal(np.log(5), 1.2, n)
    return np.array(start, dtype=np.int64), np.array(count, dtype=np.int64)


def _months(as_of: date) -> list[tuple[int, int]]:
    """(first day as days since 1970-01-01, number of days) per calendar-month piece of the last 24 months."""
    epoch = date(1970, 1, 1)
    start = date(as_of.year - 2, as_of.month, min(as_of.day, 28))
    pieces = []
    cursor = start
    while cursor < as_of:
        nxt = date(cursor.year + cursor.month // 12, cursor.month % 12 + 1, 1)
        end = min(nxt, as_of)
        pieces.append(((cursor - epoch).days, (end - cursor).days))
        cursor = end
    return pieces


_SEASON = (0.95, 0.8, 1.0, 1.0, 1.02, 1.0, 0.97, 0.93, 1.05, 1.1, 1.1, 0.95)  # Feb dips, Q4 peaks


def _monthly_counts(rng: np.random.Generator, total: int, months: list[tuple[int, int]]) -> np.ndarray:
    epoch = date(1970, 1, 1).toordinal()
    w = np.array(
        [
            days * (1 + 0.012 * i) * _SEASON[date.fromordinal(epoch + start).month - 1]
            for i, (start, days) in enumerate(months)
        ]
    )
    return rng.multinomial(total, w / w.sum())


def _coverage_positions(
    rng: np.random.Generator, total: int, n_exporters: int
) -> tuple[np.ndarray, np.ndarray]:
    """Row positions reserved so every exporter ships at least once, and the exporter for each."""
    k = min(total, n_exporters)
    positions = rng.choice(total, size=k, replace=False)
    order = np.argsort(positions)
    return positions[order], rng.permutation(n_exporters)[:k][order]


@dataclass
class _Window:
    rows: int
    start_day: int  # days since 1970-01-01
    days: int
    first_id: int


@dataclass
class _CountryArrays:
    of_company: np.ndarray
    imports_catalog: np.ndarray
    exports_catalog: np.ndarray
    makers: np.ndarray  # countries that re-exported goods often come from

    @classmethod
    def of(cls, companies: list[Company]) -> _CountryArrays:
        index = {c.alpha2: i for i, c in enumerate(countries())}
        return cls(
            of_company=np.array([index[c.country.alpha2] for c in companies], dtype=np.int64),
            imports_catalog=np.array(["i" in c.catalogs for c in countries()]),
            exports_catalog=np.array(["e" in c.catalogs for c in countries()]),
            makers=np.array([index[a] for a in _MAKERS], dtype=np.int64),
        )


def _chunk(
    rng: np.random.Generator,
    net: _Network,
    products: _Products,
    geo: _CountryArrays,
    win: _Window,
    cover: tuple[np.ndarray, np.ndarray],
) -> dict[str, np.ndarray]:
    """Shipments dated within one month piece, sorted by date, ids from win.first_id."""
    n = win.rows
    j = rng.choice(len(net.exporters), size=n, p=net.activity)
    lo, hi = np.searchsorted(cover[0], [win.first_id - 1, win.first_id - 1 + n])
    j[cover[0][lo:hi] - (win.first_id - 1)] = cover[1][lo:hi]
    exporter = net.exporters[j]
    regular = net.partners[net.partner_start[j] + (rng.random(n) * net.partner_count[j]).astype(np.int64)]
    spot = rng.choice(net.importers, size=n, p=net.importer_p)
    use_spot = (rng.random(n) >= 0.75) & (geo.of_company[spot] != geo.of_company[exporter])
    importer = np.where(use_spot, spot, regular)
    skew = rng.random(n) ** 1.5  # a company's first product sells most
    offset = np.minimum((skew * net.product_count[j]).astype(np.int64), net.product_count[j] - 1)
    product = net.product_start[j] + offset
    amount = np.minimum(3000 * net.scale[j] * (rng.pareto(1.3, n) + 1), 5e7).round(2)
    weight = np.maximum(amount / products.price_kg[product] * rng.lognormal(0, 0.3, n), 0.1).round(1)
    origin = geo.of_company[exporter].copy()
    reexport = rng.random(n) < 0.05
    origin[reexport] = geo.makers[rng.integers(0, len(geo.makers), int(reexport.sum()))]
    in_imports = geo.imports_catalog[geo.of_company[importer]]
    in_exports = geo.exports_catalog[origin]
    day = win.start_day + rng.integers(0, win.days, n)
    cols = {
        "day": day.astype(np.int32),
        "importer": importer.astype(np.int32),
        "exporter": exporter.astype(np.int32),
        "origin": origin.astype(np.int32),
        "product": product.astype(np.int32),
        "quantity": np.maximum(1, np.round(weight / products.unit_kg[product])),
        "weight_kg": weight,
        "amount_usd": amount,
        "in_imports": in_imports | ~(in_imports | in_exports),  # every record sits in some directory
        "in_exports": in_exports,
    }
    order = np.argsort(day, kind="stable")
    out = {k: v[order] for k, v in cols.items()}
    out["id"] = np.arange(win.first_id, win.first_id + n, dtype=np.int64)
    return out
