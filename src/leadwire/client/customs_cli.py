"""`leadwire customs …`: customs trade data from a terminal through the SDK, against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`, as `leadwire outreach`). Each command creates the job with
`Prefer: wait`, polls it when it is still running, and prints the result as tables (`--json`: the
result as JSON). An API error or a failed job is printed on stderr and exits 1."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from leadwire.client.cli import ApiKey, ApiUrl, fail
from leadwire.client.core import TERMINAL, LeadwireError
from leadwire.client.generated import (
    CUSTOMS_CANDIDATES,
    CUSTOMS_REPORT,
    CUSTOMS_SEARCH,
    CUSTOMS_SECTION,
    CustomsSection,
)
from leadwire.client.operation import Operation
from leadwire.client.options import FROM_SCHEMA, Fields, schema_options
from leadwire.client.sync import Leadwire

customs_app = typer.Typer(
    no_args_is_help=True,
    help="Customs trade data through a server (LEADWIRE_API_URL, LEADWIRE_API_KEY): name candidates, "
    "company search, a company's sections and trade reports.",
)

JOB_TIMEOUT_SECONDS = 300.0  # polling after `--wait` ran out

Wait = typer.Option(60, "--wait", min=0, max=60, help="seconds the server may hold the answer (Prefer: wait)")
AsJson = typer.Option(False, "--json", help="print the job's result as JSON")

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
KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
Create = Callable[..., dict[str, Any]]  # (the client, the fields given, wait, the command's own arguments)
Render = Callable[[Console, dict[str, Any]], None]

# Column kinds: how a value is written and aligned.
TEXT, INT, MONEY, NUMBER, PCT, SCORE = "text", "int", "money", "number", "pct", "score"
Column = tuple[str, str, str]  # header, key of the row, kind
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


def _finished(api_url: str, api_key: str, create: Callable[[Leadwire], dict[str, Any]]) -> dict[str, Any]:
    """The succeeded job `create` started (polled until terminal); exits 1 on an error or a failed job."""
    try:
        with Leadwire(api_key, api_url) as lw:
            job = create(lw)
            if job["status"] not in TERMINAL:
                job = lw.wait_for(job["id"], timeout=JOB_TIMEOUT_SECONDS)
    except LeadwireError as error:
        fail(error)
    except TimeoutError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    if job["status"] != "succeeded":
        error_body = job.get("error") or {}
        code = error_body.get("code") or job["status"]
        detail = f": {error_body['detail']}" if error_body.get("detail") else ""
        typer.echo(f"error: job {job['id']} {job['status']}: {code}{detail}", err=True)
        raise typer.Exit(1)
    return job


def _emit(job: dict[str, Any], as_json: bool, render: Render) -> None:
    if as_json:
        typer.echo(json.dumps(job["result"], indent=2, ensure_ascii=False))
        return
    console = Console()
    render(console, job["result"])
    charged = (job.get("billing") or {}).get("charged_credits")
    console.print(
        Text(
            f"job {job['id']}" + (f", {charged} credits charged" if charged is not None else ""), style="dim"
        )
    )


def cell(value: Any, kind: str) -> str:
    """A value as a table shows it: counts and money with thousands separators, money in cents."""
    if value is None:
        return "-"
    if kind == INT:
        return f"{int(value):,}"
    if kind == MONEY:
        return f"{float(value):,.2f}"
    if kind == NUMBER:
        number = float(value)
        return f"{number:,.0f}" if number.is_integer() else f"{number:,.2f}"
    if kind == PCT:
        return f"{float(value):.2f}"
    if kind == SCORE:
        return f"{float(value):.1f}"
    return str(value)


def show(
    console: Console, title: str, columns: list[Column], rows: list[dict[str, Any]], caption: str
) -> None:
    """A title line, then the rows as a table; text is never read as rich markup (names may hold
    brackets)."""
    console.print(Text(title, style="bold"))
    grid = Table(caption=Text(caption), caption_justify="left")
    for header, _, kind in columns:
        numeric = kind != TEXT
        grid.add_column(
            header, justify="right" if numeric else "left", no_wrap=numeric, max_width=None if numeric else 60
        )
    for row in rows:
        grid.add_row(*(Text(cell(row.get(key), kind)) for _, key, kind in columns))
    console.print(grid)


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


def job_command(name: str, operation: Operation, render: Render, **schema: Any) -> Callable[[Create], Create]:
    """Make `create` the command `name`: it starts the job through the SDK from the fields given (its
    parameters after `lw, fields, wait` are the command's own arguments, first); the command asks for
    the operation's fields (options.schema_options with `schema`), then the server, `--wait` and
    `--json`, follows the job to its end and renders its result."""

    def register(create: Create) -> Create:
        own = list(inspect.signature(create, eval_str=True).parameters.values())[3:]

        def command(
            fields: Fields, api_url: str, api_key: str, wait: int, as_json: bool, **arguments: Any
        ) -> None:
            job = _finished(api_url, api_key, lambda lw: create(lw, fields, wait or None, **arguments))
            _emit(job, as_json, render)

        common = [
            inspect.Parameter("fields", KEYWORD, default=FROM_SCHEMA, annotation=Fields),
            inspect.Parameter("api_url", KEYWORD, default=ApiUrl, annotation=str),
            inspect.Parameter("api_key", KEYWORD, default=ApiKey, annotation=str),
            inspect.Parameter("wait", KEYWORD, default=Wait, annotation=int),
            inspect.Parameter("as_json", KEYWORD, default=AsJson, annotation=bool),
        ]
        command.__signature__ = inspect.Signature([*own, *common])  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in [*own, *common]}
        command.__doc__ = create.__doc__
        customs_app.command(name)(schema_options(operation, **schema)(command))
        return create

    return register


@job_command(
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


@job_command("search", CUSTOMS_SEARCH, render_search, flags=FLAGS, helps=HELPS)
def search(lw: Leadwire, fields: Fields, wait: int | None) -> dict[str, Any]:
    """Importers or exporters by product and country (give at least one filter; 3.6 credits per row)."""
    return lw.customs_search(**fields, wait=wait)


@job_command("section", CUSTOMS_SECTION["counterparties"], render_section, **COMPANY)
def section(
    lw: Leadwire,
    fields: Fields,
    wait: int | None,
    name: CustomsSection = typer.Argument(..., metavar="SECTION", help="the section", show_default=False),
) -> dict[str, Any]:
    """One section of a company's trade (3.6 credits per row; categories and countries 3.0)."""
    return lw.customs_section(name, **fields, wait=wait)


@job_command("report", CUSTOMS_REPORT, render_report, **COMPANY)
def report(lw: Leadwire, fields: Fields, wait: int | None) -> dict[str, Any]:
    """A trade report: the four sections at once, each billed at its price per row."""
    return lw.customs_report(**fields, wait=wait)
