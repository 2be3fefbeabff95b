"""`leadwire customs …`: customs trade data from a terminal through the SDK, against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`, as `leadwire outreach`). Each command creates the job with
`Prefer: wait`, polls it when it is still running, and prints the result as tables (`--json`: the
result as JSON). An API error or a failed job is printed on stderr and exits 1."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from leadwire.client.cli import ApiKey, ApiUrl, fail
from leadwire.client.core import TERMINAL, LeadwireError
from leadwire.client.sync import Leadwire

customs_app = typer.Typer(
    no_args_is_help=True,
    help="Customs trade data through a server (LEADWIRE_API_URL, LEADWIRE_API_KEY): name candidates, "
    "company search, a company's sections and trade reports.",
)

Role = Literal["importer", "exporter"]
Catalog = Literal["imports", "exports"]
SortBy = Literal["trade_count", "amount_usd", "quantity", "weight"]
SortOrder = Literal["asc", "desc"]
PeriodUnit = Literal["months", "quarters", "years"]
Section = Literal["counterparties", "categories", "trends", "countries"]
JOB_TIMEOUT_SECONDS = 300.0  # polling after `--wait` ran out

Wait = typer.Option(60, "--wait", min=0, max=60, help="seconds the server may hold the answer (Prefer: wait)")
AsJson = typer.Option(False, "--json", help="print the job's result as JSON")
Start = typer.Option(..., "--start", help="first day, YYYY-MM-DD", show_default=False)
End = typer.Option(
    ..., "--end", help="last day, YYYY-MM-DD (at most one year after --start)", show_default=False
)
CompanyRole = typer.Option(
    ..., "--role", help="importer or exporter: the company's side of the trade", show_default=False
)
CatalogOption = typer.Option(
    None, "--catalog", help="imports or exports (default: importer→imports, exporter→exports)"
)
Page = typer.Option(None, "--page", min=1, max=1000, help="page number (default 1)")
PageSize = typer.Option(None, "--page-size", min=1, max=20, help="rows per page (default 20)")
HsCode = typer.Option(None, "--hs-code", help="one HS code of 2-10 digits, e.g. 8471")
Product = typer.Option(None, "--product", help="a product keyword")
Origin = typer.Option(None, "--origin", help="origin country, ISO alpha-3 (e.g. CHN)")
Destination = typer.Option(None, "--destination", help="destination country, ISO alpha-3 (e.g. DEU)")
PeriodUnitOption = typer.Option(
    None, "--period-unit", help="trend periods: months (default), quarters or years"
)
CompanyName = typer.Argument(
    ..., metavar="COMPANY", help="the company's name as in the records (see `leadwire customs candidates`)"
)

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


@customs_app.command("candidates")
def candidates(
    company_name: str = typer.Argument(..., metavar="COMPANY", help="the company name to look for"),
    start: str = Start,
    end: str = End,
    role: Role | None = typer.Option(
        None, "--role", help="importer or exporter (default: both common pairs)"
    ),
    catalog: Catalog | None = CatalogOption,
    compare_catalogs: bool | None = typer.Option(
        None, "--compare-catalogs/--no-compare-catalogs", help="also count the role's other catalog"
    ),
    countries: str | None = typer.Option(None, "--countries", help="alpha-3 codes, comma-separated: DEU,FRA"),
    page: int | None = Page,
    page_size: int | None = PageSize,
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    wait: int = Wait,
    as_json: bool = AsJson,
) -> None:
    """Which names in the customs records a company may be (free)."""
    job = _finished(
        api_url,
        api_key,
        lambda lw: lw.customs_candidates(
            company_name,
            start,
            end,
            company_role=role,
            catalog=catalog,
            compare_catalogs=compare_catalogs,
            country_codes=countries,
            page=page,
            page_size=page_size,
            wait=wait or None,
        ),
    )
    _emit(job, as_json, render_candidates)


@customs_app.command("search")
def search(
    role: Role = CompanyRole,
    start: str = Start,
    end: str = End,
    catalog: Catalog | None = CatalogOption,
    hs_code: str | None = HsCode,
    product: str | None = Product,
    origin: str | None = Origin,
    destination: str | None = Destination,
    page: int | None = Page,
    page_size: int | None = PageSize,
    sort_by: SortBy | None = typer.Option(
        None, "--sort-by", help="trade_count (default), amount_usd, quantity, weight"
    ),
    sort_order: SortOrder | None = typer.Option(None, "--sort-order", help="desc (default) or asc"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    wait: int = Wait,
    as_json: bool = AsJson,
) -> None:
    """Importers or exporters by product and country (give at least one filter; 3.6 credits per row)."""
    job = _finished(
        api_url,
        api_key,
        lambda lw: lw.customs_search(
            role,
            start,
            end,
            catalog=catalog,
            hs_code=hs_code,
            product_description=product,
            origin_country_code=origin,
            destination_country_code=destination,
            page=page,
            page_size=page_size,
            sort_by=sort_by,
            sort_order=sort_order,
            wait=wait or None,
        ),
    )
    _emit(job, as_json, render_search)


@customs_app.command("section")
def section(
    name: Section = typer.Argument(
        ..., metavar="SECTION", help="counterparties, categories, trends or countries", show_default=False
    ),
    company_name: str = CompanyName,
    role: Role = CompanyRole,
    start: str = Start,
    end: str = End,
    catalog: Catalog | None = CatalogOption,
    period_unit: PeriodUnit | None = PeriodUnitOption,
    hs_code: str | None = HsCode,
    product: str | None = Product,
    origin: str | None = Origin,
    destination: str | None = Destination,
    page: int | None = Page,
    page_size: int | None = PageSize,
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    wait: int = Wait,
    as_json: bool = AsJson,
) -> None:
    """One section of a company's trade (3.6 credits per row; categories and countries 3.0)."""
    request = _company_request(
        company_name, role, start, end, catalog, period_unit, page, page_size, wait,
        _filters(hs_code, product, origin, destination),
    )  # fmt: skip
    job = _finished(api_url, api_key, lambda lw: lw.customs_section(name, **request))
    _emit(job, as_json, render_section)


@customs_app.command("report")
def report(
    company_name: str = CompanyName,
    role: Role = CompanyRole,
    start: str = Start,
    end: str = End,
    catalog: Catalog | None = CatalogOption,
    period_unit: PeriodUnit | None = PeriodUnitOption,
    hs_code: str | None = HsCode,
    product: str | None = Product,
    origin: str | None = Origin,
    destination: str | None = Destination,
    page: int | None = Page,
    page_size: int | None = PageSize,
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    wait: int = Wait,
    as_json: bool = AsJson,
) -> None:
    """A trade report: the four sections at once, each billed at its price per row."""
    request = _company_request(
        company_name, role, start, end, catalog, period_unit, page, page_size, wait,
        _filters(hs_code, product, origin, destination),
    )  # fmt: skip
    job = _finished(api_url, api_key, lambda lw: lw.customs_report(**request))
    _emit(job, as_json, render_report)


def _company_request(
    company_name: str,
    role: str,
    start: str,
    end: str,
    catalog: str | None,
    period_unit: str | None,
    page: int | None,
    page_size: int | None,
    wait: int,
    filters: dict[str, str | None],
) -> dict[str, Any]:
    """The SDK arguments a section and a report share (same request shape, spec section 4)."""
    return {
        "company_name": company_name,
        "company_role": role,
        "start_date": start,
        "end_date": end,
        "catalog": catalog,
        "page": page,
        "page_size": page_size,
        "period_unit": period_unit,
        "filters": filters,
        "wait": wait or None,
    }


def _filters(
    hs_code: str | None, product: str | None, origin: str | None, destination: str | None
) -> dict[str, str | None]:
    return {
        "hs_code": hs_code,
        "product_description": product,
        "origin_country_code": origin,
        "destination_country_code": destination,
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


def _emit(job: dict[str, Any], as_json: bool, render: Callable[[Console, dict[str, Any]], None]) -> None:
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
