"""`leadwire keys …`: list, create and revoke the account's own API keys from a terminal, against any
Leadwire server (`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`). The operator's `leadwire admin key …` works on
the server's database instead, for any user."""

from __future__ import annotations

import json
from typing import Any

import typer

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, run_sdk
from leadwire.client.tables import TEXT, Column, show_page

keys_app = typer.Typer(
    no_args_is_help=True,
    help="The account's own API keys through a server (LEADWIRE_API_URL, LEADWIRE_API_KEY).",
)

KeyId = typer.Argument(..., help="the key's id (key_…)", show_default=False)
COLUMNS: list[Column] = [
    ("Id", "id", TEXT),
    ("Name", "name", TEXT),
    ("Prefix", "prefix", TEXT),
    ("Status", "status_shown", TEXT),
    ("Scopes", "scopes_shown", TEXT),
    ("Created", "created_at", TEXT),
    ("Expires", "expires_at", TEXT),
]


def _print_key(item: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(item, indent=2, ensure_ascii=False))
        return
    lines = [f"key {item['id']}  {item['status']}", f"  prefix       {item['prefix']}"]
    for field in ("name", "expires_at", "revoked_at"):
        if item.get(field):
            lines.append(f"  {field:<12} {item[field]}")
    lines.append(f"  scopes       {', '.join(item['scopes'])}")
    if item.get("revoked_with"):
        lines.append(f"  revoked with {item['revoked_with']} key(s) it created")
    if item.get("key"):
        lines.append(f"  key          {item['key']}  (shown once: keep it now)")
    typer.echo("\n".join(lines))


@keys_app.command("list")
def list_(
    limit: int = typer.Option(20, "--limit", min=1, max=100, help="keys per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """The account's keys, newest first, revoked and expired ones too (never a key itself); `*` marks
    the key in use."""
    page = run_sdk(api_url, api_key, lambda lw: lw.list_api_keys(limit=limit, cursor=cursor))
    rows = [
        {
            **row,
            "status_shown": row["status"] + (" *" if row.get("current") else ""),
            "scopes_shown": ", ".join(row.get("scopes", [])),
        }
        for row in page["items"]
    ]
    show_page(page, "API keys", COLUMNS, as_json, rows=rows)


@keys_app.command("create")
def create(
    scopes: list[str] = typer.Option(
        ...,
        "--scope",
        help="a scope of the new key, held by the key in use (repeatable, or comma-separated)",
        show_default=False,
    ),
    name: str | None = typer.Option(None, "--name", help="a label of your own for the key"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Create a key; prints it, shown only this once."""
    chosen = [scope.strip() for given in scopes for scope in given.split(",") if scope.strip()]
    _print_key(run_sdk(api_url, api_key, lambda lw: lw.create_api_key(chosen, name=name)), as_json)


@keys_app.command("revoke")
def revoke(key_id: str = KeyId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson) -> None:
    """Revoke a key (the one in use too): it is refused from now on."""
    _print_key(run_sdk(api_url, api_key, lambda lw: lw.revoke_api_key(key_id)), as_json)
