"""`leadwire enrichments …`: add a column to a prospect list (an email, a phone, a number, one of given
options…), and list, read, cancel or delete a list's columns, against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`)."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, run_sdk
from leadwire.client.tables import TEXT, Column, show

enrichments_app = typer.Typer(
    no_args_is_help=True,
    help="Enrichments: columns asked of every qualified item of a prospect list (LEADWIRE_API_URL, "
    "LEADWIRE_API_KEY).",
)

WebsetId = typer.Argument(..., help="the prospect list's id (ws_…)", show_default=False)
EnrichmentId = typer.Argument(..., help="the enrichment's id (enr_…)", show_default=False)
FORMATS = ("text", "number", "date", "options", "email", "phone", "url")
COLUMNS: list[Column] = [
    ("Id", "id", TEXT),
    ("Status", "status", TEXT),
    ("Format", "format", TEXT),
    ("Description", "description", TEXT),
    ("Done", "done", TEXT),
]


def _print(item: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(item, indent=2, ensure_ascii=False))
        return
    progress = item["progress"]
    options = f"  options: {', '.join(o['label'] for o in item['options'])}" if item["options"] else ""
    typer.echo(
        f"enrichment {item['id']}  {item['status']}  {item['format']}  {progress['done']}/{progress['total']}"
        f"  {item['description']}{options}" + (f"  (job {item['job_id']})" if item["job_id"] else "")
    )


@enrichments_app.command("add")
def add(
    webset_id: str = WebsetId,
    description: str = typer.Option(..., "--description", help="what the column holds, in words"),
    format: str = typer.Option("text", "--format", help=", ".join(FORMATS)),
    option: list[str] | None = typer.Option(None, "--option", help="a label of format options (repeatable)"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Add a column to a prospect list; it fills for every qualified item, now and later."""
    options = [{"label": label} for label in option] if option else None
    item = run_sdk(
        api_url,
        api_key,
        lambda lw: lw.create_enrichment(webset_id, description, format, options=options),  # type: ignore[arg-type]
    )
    _print(item, as_json)


@enrichments_app.command("list")
def list_(
    webset_id: str = WebsetId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """A prospect list's enrichments, oldest first."""
    page = run_sdk(api_url, api_key, lambda lw: lw.list_enrichments(webset_id))
    if as_json:
        typer.echo(json.dumps(page, indent=2, ensure_ascii=False))
        return
    rows = [{**e, "done": f"{e['progress']['done']}/{e['progress']['total']}"} for e in page["items"]]
    show(Console(), "Enrichments", COLUMNS, rows, f"{len(rows)} enrichments")


@enrichments_app.command("get")
def get(
    webset_id: str = WebsetId,
    enrichment_id: str = EnrichmentId,
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """An enrichment: its status and progress."""
    _print(run_sdk(api_url, api_key, lambda lw: lw.get_enrichment(webset_id, enrichment_id)), as_json)


@enrichments_app.command("cancel")
def cancel(
    webset_id: str = WebsetId,
    enrichment_id: str = EnrichmentId,
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Stop filling an enrichment; the cells found stay."""
    _print(run_sdk(api_url, api_key, lambda lw: lw.cancel_enrichment(webset_id, enrichment_id)), as_json)


@enrichments_app.command("delete")
def delete(
    webset_id: str = WebsetId, enrichment_id: str = EnrichmentId, api_url: str = ApiUrl, api_key: str = ApiKey
) -> None:
    """Delete an enrichment: gone from the list's items and exports."""
    run_sdk(api_url, api_key, lambda lw: lw.delete_enrichment(webset_id, enrichment_id))
    typer.echo(f"deleted {enrichment_id}")
