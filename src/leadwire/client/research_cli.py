"""`leadwire research …`: public-web research and company contacts from a terminal through the SDK,
against any Leadwire server (`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`). Each command follows its job to
the end (`job_cli`) and prints the result as tables, or as JSON with `--json`."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from leadwire.client.generated import CONTACTS, PUBLIC_WEB
from leadwire.client.job_cli import job_command
from leadwire.client.options import Fields
from leadwire.client.sync import Leadwire
from leadwire.client.tables import TEXT, Column, show

research_app = typer.Typer(
    no_args_is_help=True,
    help="Public-web research and company contacts through a server (LEADWIRE_API_URL, LEADWIRE_API_KEY).",
)

# The commands' options are the request models' fields (generated.py, options.py). Here only the flags
# that are not a field's name and the help for the fields the models do not describe.
FLAGS = {"queries": "QUERY", "domain": "DOMAIN", "include_domains": "--domain", "positions": "--position"}
HELPS = {
    "queries": "one or two searches, each in quotes",
    "search_limit": "sources per query",
    "category": "the kind of page",
    "include_domains": "only pages of this domain (repeatable)",
    "user_location": "the searcher's country, ISO alpha-2: its pages rank higher",
    "domain": "the company's official domain, e.g. acme.example",
    "positions": "only people whose title matches (repeatable)",
    "limit": "contacts at most",
    "locale": "the language of the titles' departments and seniorities",
}
SOURCE_COLUMNS: list[Column] = [
    ("Title", "title", TEXT),
    ("URL", "url", TEXT),
    ("Published", "published_date", TEXT),
]
CONTACT_COLUMNS: list[Column] = [
    ("Name", "name", TEXT),
    ("Title", "title", TEXT),
    ("Department", "department", TEXT),
    ("Seniority", "seniority", TEXT),
    ("Email", "email", TEXT),
    ("Reports to", "reports_to", TEXT),
]


def render_public_web(console: Console, result: dict[str, Any]) -> None:
    for found in result["results"]:
        sources = found["sources"]
        show(console, f"Sources for {found['query']!r}", SOURCE_COLUMNS, sources, f"{len(sources)} sources")
    for error in result.get("errors") or []:
        console.print(Text(f"{error['query']!r}: failed ({error['code']})"))


def render_contacts(console: Console, result: dict[str, Any]) -> None:
    people = [node for node in result["nodes"] if node["kind"] == "person"]
    names = {node["id"]: node["name"] for node in result["nodes"]}
    manager = {edge["from"]: edge for edge in result["edges"]}
    rows = [{**person, "reports_to": _reports_to(manager.get(person["id"]), names)} for person in people]
    title = f"Contacts of {result.get('company_name') or result['domain']} ({result['domain']})"
    show(console, title, CONTACT_COLUMNS, rows, f"{len(rows)} contacts")
    console.print(Text(result["note"], style="dim"))


def _reports_to(edge: dict[str, Any] | None, names: dict[str, str | None]) -> str | None:
    if edge is None:
        return None
    return f"{names.get(edge['to']) or edge['to']} ({edge['confidence']:.0%})"


@job_command(research_app, "public-web", PUBLIC_WEB, render_public_web, flags=FLAGS, helps=HELPS,
             arguments=("queries",))  # fmt: skip
def public_web(lw: Leadwire, fields: Fields, wait: int | None) -> dict[str, Any]:
    """Search public-web sources for one or two queries (a credit per source)."""
    return lw.public_web(**fields, wait=wait)


@job_command(
    research_app, "contacts", CONTACTS, render_contacts, flags=FLAGS, helps=HELPS, arguments=("domain",)
)
def contacts(lw: Leadwire, fields: Fields, wait: int | None) -> dict[str, Any]:
    """A company's contacts by its domain, with likely reporting lines (a credit per emailed contact)."""
    return lw.contacts(**fields, wait=wait)
