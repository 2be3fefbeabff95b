"""A small hand-built set of shipments whose every customs answer is known row by row, loaded into
either trade store.

The 2024 records of "Acme Imports GmbH" as importer in the imports directory are rows 1-4: Shenzhen
(rows 1, 2: 1,500 USD), Hanoi (row 3: 300 USD) and Osaka (row 4: 2,000 USD). Row 5 is only in the
exports directory, rows 7 and 8 fall outside 2024, rows 6 and 9 belong to "Berlin Tools AG".
"""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path
from typing import Any

from leadwire.providers.trade_schema import COLUMN_NAMES

ACME = "Acme Imports GmbH"
BERLIN = "Berlin Tools AG"
SHENZHEN = "Shenzhen Widget Co., Ltd."
HANOI = "Hanoi Textiles JSC"
OSAKA = "Osaka Parts KK"

_COMPANY = {
    ACME: ("cmp_acme", "DEU"),
    BERLIN: ("cmp_berlin", "DEU"),
    SHENZHEN: ("cmp_shenzhen", "CHN"),
    HANOI: ("cmp_hanoi", "VNM"),
    OSAKA: ("cmp_osaka", "JPN"),
}


def _row(
    id: int,
    day: str,
    importer: str,
    exporter: str,
    hs_code: str,
    description: str,
    quantity: float,
    weight: float,
    usd: float,
    catalogs: str,
    origin: str | None = None,
) -> dict[str, Any]:
    importer_id, importer_country = _COMPANY[importer]
    exporter_id, exporter_country = _COMPANY[exporter]
    return {
        "id": id,
        "date": date.fromisoformat(day),
        "importer_id": importer_id,
        "exporter_id": exporter_id,
        "importer_name": importer,
        "exporter_name": exporter,
        "importer_country3": importer_country,
        "exporter_country3": exporter_country,
        "origin_country3": origin or exporter_country,
        "destination_country3": importer_country,
        "hs_code": hs_code,
        "product_description": description,
        "quantity": quantity,
        "weight_kg": weight,
        "amount_usd": usd,
        "in_imports": "i" in catalogs,
        "in_exports": "e" in catalogs,
    }


SHIPMENTS: list[dict[str, Any]] = [
    _row(1, "2024-01-10", ACME, SHENZHEN, "8471300000", "Laptop computers", 10, 100, 1000, "i"),
    _row(2, "2024-01-20", ACME, SHENZHEN, "8471300000", "laptops, 14 inch", 5, 50, 500, "ie"),
    _row(3, "2024-02-05", ACME, HANOI, "6109100000", "cotton t-shirts 100%", 100, 20, 300, "i"),
    _row(4, "2024-04-01", ACME, OSAKA, "8708990000", "auto parts", 2, 40, 2000, "ie"),
    _row(5, "2024-04-15", ACME, SHENZHEN, "8517620000", "routers", 3, 6, 600, "e", origin="VNM"),
    _row(6, "2024-06-30", BERLIN, SHENZHEN, "8471300000", "laptops", 1, 10, 100, "i"),
    _row(7, "2023-12-31", ACME, SHENZHEN, "8471300000", "laptops", 9, 9, 999, "ie"),
    _row(8, "2025-01-01", ACME, SHENZHEN, "8471300000", "laptops", 9, 9, 999, "ie"),
    _row(9, "2024-03-03", BERLIN, HANOI, "6109100000", "shirts", 50, 10, 150, "e"),
]


def write_csv(path: Path, rows: list[dict[str, Any]] = SHIPMENTS) -> Path:
    """The rows in the documented ingest schema (`leadwire ingest shipments` reads this)."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(COLUMN_NAMES))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (str(v).lower() if isinstance(v, bool) else v) for k, v in row.items()})
    return path
