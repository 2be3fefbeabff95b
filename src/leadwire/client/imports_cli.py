"""`leadwire imports …`: bring a list of companies (a CSV file) for prospect lists to leave out, and read,
list or delete imports, against any Leadwire server (`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, run_sdk
from leadwire.client.tables import INT, TEXT, Column, show_page

imports_app = typer.Typer(
    no_args_is_help=True,
    help="Imports: your lists of companies, for prospect lists to leave out (LEADWIRE_API_URL, "
    "LEADWIRE_API_KEY).",
)

ImportId = typer.Argument(..., help="the import's id (imp_…)", show_default=False)
COLUMNS: list[Column] = [
    ("Id", "id", TEXT),
    ("Title", "title", TEXT),
    ("Format", "format", TEXT),
    ("Rows", "rows", INT),
    ("Accepted", "accepted", INT),
    ("Rejected", "rejected", INT),
    ("Created", "created_at", TEXT),
]


def _print_import(item: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(item, indent=2, ensure_ascii=False))
        return
    lines = [
        f"import {item['id']}  {item['status']}  {item['format']}"
        + (f"  {item['title']}" if item["title"] else ""),
        f"  rows {item['rows']}, accepted {item['accepted']}, rejected {item['rejected']}",
    ]
    lines += [f"  line {e['line']}: {e['field']} {e['code']}" for e in item["errors"]]
    if item["rejected"] > len(item["errors"]):
        lines.append(f"  ... and {item['rejected'] - len(item['errors'])} more rejected lines")
    typer.echo("\n".join(lines))


@imports_app.command("create")
def create(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="a CSV file with a header line"),
    title: str | None = typer.Option(None, "--title", help="the import's title"),
    name_column: str | None = typer.Option(None, "--name-column", help="the column of company names"),
    domain_column: str | None = typer.Option(
        None, "--domain-column", help="the column of domains or websites"
    ),
    country_column: str | None = typer.Option(None, "--country-column", help="the column of country codes"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Import a CSV of companies; prints its counts and the lines it rejected, and why."""
    given = {"name": name_column, "domain": domain_column, "country": country_column}
    columns = {field: column for field, column in given.items() if column} or None
    content = path.read_bytes()
    item = run_sdk(api_url, api_key, lambda lw: lw.create_import(csv=content, title=title, columns=columns))
    _print_import(item, as_json)


@imports_app.command("list")
def list_(
    limit: int = typer.Option(20, "--limit", min=1, max=100, help="imports per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """The account's imports, newest first."""
    page = run_sdk(api_url, api_key, lambda lw: lw.list_imports(limit=limit, cursor=cursor))
    show_page(page, "Imports", COLUMNS, as_json)


@imports_app.command("get")
def get(
    import_id: str = ImportId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """An import: its counts and the first 100 lines it rejected."""
    _print_import(run_sdk(api_url, api_key, lambda lw: lw.get_import(import_id)), as_json)


@imports_app.command("delete")
def delete(import_id: str = ImportId, api_url: str = ApiUrl, api_key: str = ApiKey) -> None:
    """Delete an import and its rows."""
    run_sdk(api_url, api_key, lambda lw: lw.delete_import(import_id))
    typer.echo(f"deleted {import_id}")
