"""`leadwire suppressions …`: the account's suppression list — recipients no dispatch may reach — from a
terminal, against any Leadwire server (`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import typer

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, run_sdk
from leadwire.client.tables import TEXT, Column, show_page

suppressions_app = typer.Typer(
    no_args_is_help=True,
    help="The suppression list: recipients no dispatch may reach (LEADWIRE_API_URL, LEADWIRE_API_KEY).",
)

Channel = Literal["email", "linkedin", "whatsapp", "any"]
SuppressionId = typer.Argument(..., help="the entry's id (sup_…)", show_default=False)
COLUMNS: list[Column] = [
    ("Id", "id", TEXT),
    ("Channel", "channel", TEXT),
    ("Kind", "kind", TEXT),
    ("Value", "value", TEXT),
    ("Source", "source", TEXT),
    ("Reason", "reason", TEXT),
    ("Created", "created_at", TEXT),
]


def _print_entry(item: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(item, indent=2, ensure_ascii=False))
        return
    reason = f"  ({item['reason']})" if item.get("reason") else ""
    typer.echo(f"{item['id']}  {item['channel']}  {item['kind']} {item['value']}  {item['source']}{reason}")


@suppressions_app.command("add")
def add(
    channel: Channel = typer.Argument(..., help="email, linkedin, whatsapp or any"),
    value: str = typer.Argument(..., help="an address or domain, a phone, or a LinkedIn profile URL"),
    reason: str | None = typer.Option(None, "--reason", help="why (kept with the entry)"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Suppress a recipient; prints the entry (new or already listed)."""
    _print_entry(run_sdk(api_url, api_key, lambda lw: lw.suppress(channel, value, reason=reason)), as_json)


@suppressions_app.command("import")
def import_(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="a CSV: channel,value[,reason]"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Suppress the lines of a CSV; prints what was added and the lines refused, and why."""
    content = path.read_bytes()
    done = run_sdk(api_url, api_key, lambda lw: lw.import_suppressions(content))
    if as_json:
        typer.echo(json.dumps(done, indent=2, ensure_ascii=False))
        return
    lines = [
        f"accepted {done['accepted']} (added {done['added']}, already listed {done['already_listed']}), "
        f"rejected {done['rejected']}"
    ]
    lines += [f"  line {e['line']}: {e['field']} {e['code']}" for e in done["errors"]]
    if done["rejected"] > len(done["errors"]):
        lines.append(f"  ... and {done['rejected'] - len(done['errors'])} more rejected lines")
    typer.echo("\n".join(lines))


@suppressions_app.command("list")
def list_(
    channel: Channel | None = typer.Option(None, "--channel", help="one channel's entries"),
    value: str | None = typer.Option(None, "--value", help="one recipient's entries"),
    limit: int = typer.Option(20, "--limit", min=1, max=100, help="entries per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """The suppression list, newest first."""
    page = run_sdk(
        api_url,
        api_key,
        lambda lw: lw.list_suppressions(channel=channel, value=value, limit=limit, cursor=cursor),
    )
    show_page(page, "Suppressions", COLUMNS, as_json)


@suppressions_app.command("get")
def get(
    suppression_id: str = SuppressionId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """A suppression entry."""
    _print_entry(run_sdk(api_url, api_key, lambda lw: lw.get_suppression(suppression_id)), as_json)


@suppressions_app.command("delete")
def delete(suppression_id: str = SuppressionId, api_url: str = ApiUrl, api_key: str = ApiKey) -> None:
    """Remove an entry: the recipient may be reached again."""
    run_sdk(api_url, api_key, lambda lw: lw.delete_suppression(suppression_id))
    typer.echo(f"deleted {suppression_id}")
