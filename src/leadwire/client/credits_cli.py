"""`leadwire credits …`: the account's credit ledger from a terminal, against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`)."""

from __future__ import annotations

import typer

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, run_sdk
from leadwire.client.tables import INT, TEXT, Column, show_page

credits_app = typer.Typer(
    no_args_is_help=True,
    help="The account's credit ledger through a server (LEADWIRE_API_URL, LEADWIRE_API_KEY).",
)

COLUMNS: list[Column] = [
    ("Id", "id", TEXT),
    ("Kind", "kind", TEXT),
    ("Amount", "amount", INT),
    ("Job", "job_id", TEXT),
    ("At", "created_at", TEXT),
]


@credits_app.command("ledger")
def ledger(
    kind: str | None = typer.Option(None, "--kind", help="one kind: grant, reserve, release or charge"),
    job_id: str | None = typer.Option(None, "--job", help="one job's entries (job_…)"),
    limit: int = typer.Option(25, "--limit", min=1, max=100, help="entries per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """The account's credit entries, newest first: grants and charges move the balance, a job's reserve
    sets credits aside and its release gives them back (amounts are always positive)."""
    page = run_sdk(
        api_url,
        api_key,
        lambda lw: lw.list_credit_entries(kind=kind, job_id=job_id, limit=limit, cursor=cursor),
    )
    show_page(page, "Credit ledger", COLUMNS, as_json)
