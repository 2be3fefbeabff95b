"""`leadwire customs …`: customs trade data from a terminal through the SDK, against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`, as `leadwire outreach`). Each command creates the job with
`Prefer: wait`, polls it when it is still running, and prints the result as tables (`--json`: the
result as JSON). An API error or a failed job is printed on stderr and exits 1."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from leadwire.client.generated import (
    CUSTOMS_CANDIDATES,
    CUSTOMS_REPORT,
    CUSTOMS_SEARCH,
    CUSTOMS_SECTION,
    CustomsSection,
)
from leadwire.client.job_cli import job_command
from leadwire.client.options import Fields
from leadwire.client.sync import Leadwire
from leadwire.client.tables import INT, MONEY, NUMBER, PCT, SCORE, TEXT, Column, show

customs_app = typer.Typer(
    no_args_is_help=True,
    help="Customs trade data through a server (LEADWIRE_API_URL, LEADWIRE_API_KEY): name candidates, "
    "company search, a company's sections and trade reports.",
)


# The commands' options are the request models' fields (generated.py, options.py). Here only the flags
# that are not a field's name and the help for the fields the models do not describe.
FLAGS = {
    "company_name": "COMPANY",
    "start_date": "--start",
    "end_date": "--end",
    "company_role": "--role",
    "country_codes": "--countries",
    "product_description": "--product",
    "origin_country_code": "--origin",
    "destination_country_code": "--destination",
}
HELPS = {
    "company_name": "the company's name as in the records (see `leadwire customs candidates`)",
    "start_date": "first day",
    "end_date": "last day, at most one year after --start",
    "company_role": "importer or exporter: the company's side of the trade",
    "catalog": "imports or exports (default: importer→imports, exporter→exports)",
    "page": "page number",
    "page_size": "rows per page",
    "hs_code": "one HS code of 2-10 digits",
    "product_description": "a product keyword",
    "origin_country_code": "origin country, ISO alpha-3",
    "destination_country_code": "destination country, ISO alpha-3",
    "period_unit": "trend periods",
    "sort_by": "the measure the companies are ranked by",
    "sort_order": "the ranking's direction",
}
# A section and a report: the company is the argument COMPANY.
COMPANY: dict[str, Any] = {"flags": FLAGS, "helps": HELPS, "arguments": ("company_name",)}

_MEASURES: list[Column] = [
    ("Trades", "tradeCount", INT),
    ("Amount USD", "sumOfUSD", MONEY),
    ("Weight kg", "weight", NUMBER),
    ("Quantity", "quantity", NUMBER),
    ("Share %", "amountSharePct", PCT),
]
SECTION_COLUMNS: dict[str, list[Column]] = {
    "counterparties": [
        ("Counterparty", "name", TEXT),
        ("Country", "country", TEXT),
        ("Code", "countryCode", TEXT),
        *_MEASURES,
    ],
    "categories": [
        ("HS code", "hsCode", TEXT),
        ("Description", "hsDescriptionEn", TEXT),
        ("Companies", "companyCount", INT),
        *_MEASURES,
    ],
    "trends": [("Period", "date", TEXT), ("Companies", "companyCount", INT), *_MEASURES],
    "countries": [
        ("Country", "country", TEXT),
        ("Code", "countryCode", TEXT),
        ("Companies", "companyCount", INT),
        *_MEASURES,
    ],
}
SEARCH_COLUMNS: list[Column] = [
    ("Company", "company_name", TEXT),
    ("Country", "country", TEXT),
    ("Code", "country_code", TEXT),
    ("Trades", "trade_count", INT),
    ("Amount USD", "amount_usd", MONEY),
    ("Weight kg", "weight", NUMBER),
    ("Quantity", "quantity", NUMBER),
    ("Share %", "amount_share_pct", PCT),
]
# The trade report names the trends section `trend`.
REPORT_SECTIONS = {
    "counterparties": "counterparties",
    "categories": "categories",
    "trend": "trends",
    "countries": "countries",
}


def _span(result: dict[str, Any]) -> str:
    dates = result.get("date_range") or {}
    return f"{dates.get('start')}..{dates.get('end')}"


def _page_caption(data: dict[str, Any]) -> str:
    return f"{data['returned_rows']} of {data['total']:,} rows, page {data['page']}"


def render_candidates(console: Console, result: dict[str, Any]) -> None:
    columns: list[Column] = [
        ("Name", "name", TEXT),
        ("Countries", "countries", TEXT),
        ("Role / catalog", "pair", TEXT),
        ("Counts", "counts", TEXT),
        ("Total", "total", INT),
        ("Queryable", "queryable", TEXT),
        ("Score", "match_score", SCORE),
    ]
    rows = []
    for candidate in result["candidates"]:
        counts = candidate["trade_counts"]
        role = counts["company_role"]
        per_catalog = [
            f"{key.removesuffix(f'_as_{role}')} {value:,}"
            for key, value in counts.items()
            if key.endswith(f"_as_{role}")
        ]
        rows.append(
            {
                "name": candidate["name"],
                "countries": ", ".join(candidate["countries"]),
                "pair": f"{role} / {counts['catalog']}",
                "counts": ", ".join(per_catalog),
                "total": counts["total"],
                "queryable": "yes" if counts["queryable"] else "no",
                "match_score": candidate["match_score"],
            }
        )
    title = f"Candidates for {result['query']!r}, {_span(result)}"
    caption = f"{len(rows)} of {result['total']:,} candidates, page {result['page']}"
    show(console, title, columns, rows, caption)
    console.print(Text(result["identity_notice"], style="dim"))


def render_search(console: Console, result: dict[str, Any]) -> None:
    filters = ", ".join(f"{key}={value}" for key, value in (result.get("filters") or {}).items())
    title = (
        f"{result['company_role'].capitalize()}s in {result['catalog']}, {_span(result)}"
        + (f" ({filters})" if filters else "")
        + f", by {result['sort_by']} {result['sort_order']}"
    )
    data = result["data"]
    show(console, title, SEARCH_COLUMNS, data["items"], _page_caption(data))


def _show_section(console: Console, result: dict[str, Any], section_name: str, data: dict[str, Any]) -> None:
    unit = f", by {result['period_unit']}" if section_name == "trends" and result.get("period_unit") else ""
    title = (
        f"{section_name.capitalize()}: {result['company_name']} "
        f"({result['company_role']}, {result['catalog']}, {_span(result)}{unit})"
    )
    show(console, title, SECTION_COLUMNS[section_name], data["items"], _page_caption(data))


def render_section(console: Console, result: dict[str, Any]) -> None:
    _show_section(console, result, result["section"], result["data"])


def render_report(console: Console, result: dict[str, Any]) -> None:
    for key, section_name in REPORT_SECTIONS.items():
        part = result["sections"].get(key)
        if part is None:
            continue
        if part["status"] == "complete":
            _show_section(console, result, section_name, part["data"])
        else:
            code = (part.get("error") or {}).get("code", "unknown_error")
            console.print(Text(f"{section_name}: failed ({code})"))
        console.print()
    console.print(Text(f"report status: {result['status']}"))


# The commands (after the renderers they name).


@job_command(
    customs_app,
    "candidates",
    CUSTOMS_CANDIDATES,
    render_candidates,
    flags=FLAGS,
    helps={
        **HELPS,
        "company_name": "the company name to look for",
        "company_role": "importer or exporter (default: both common pairs)",
    },
    arguments=("company_name",),
)
def candidates(lw: Leadwire, fields: Fields, wait: int | None) -> dict[str, Any]:
    """Which names in the customs records a company may be (free)."""
    return lw.customs_candidates(**fields, wait=wait)


@job_command(customs_app, "search", CUSTOMS_SEARCH, render_search, flags=FLAGS, helps=HELPS)
def search(lw: Leadwire, fields: Fields, wait: int | None) -> dict[str, Any]:
    """Importers or exporters by product and country (give at least one filter; 3.6 credits per row)."""
    return lw.customs_search(**fields, wait=wait)


@job_command(customs_app, "section", CUSTOMS_SECTION["counterparties"], render_section, **COMPANY)
def section(
    lw: Leadwire,
    fields: Fields,
    wait: int | None,
    name: CustomsSection = typer.Argument(..., metavar="SECTION", help="the section", show_default=False),
) -> dict[str, Any]:
    """One section of a company's trade (3.6 credits per row; categories and countries 3.0)."""
    return lw.customs_section(name, **fields, wait=wait)


@job_command(customs_app, "report", CUSTOMS_REPORT, render_report, **COMPANY)
def report(lw: Leadwire, fields: Fields, wait: int | None) -> dict[str, Any]:
    """A trade report: the four sections at once, each billed at its price per row."""
    return lw.customs_report(**fields, wait=wait)
