"""`leadwire websets …`: prospect lists from a terminal through the SDK, against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`, as `leadwire outreach`). `create --follow` and
`find-more --follow` follow the list live (snapshot, then the event stream) to its end; `items` prints
every page as a table, CSV or JSON lines; `export` streams the server's export (a column per
criterion). An API error is printed on stderr and exits 1."""

from __future__ import annotations

import contextlib
import csv
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, Literal

import typer
from rich.console import Console

from leadwire.client.cli import ApiKey, ApiUrl, describe, fail
from leadwire.client.core import LeadwireError
from leadwire.client.generated import CREATE_WEBSET, START_FIND_MORE
from leadwire.client.options import FROM_SCHEMA, Fields, schema_options
from leadwire.client.sync import Leadwire
from leadwire.client.websets_view import (
    CSV_COLUMNS,
    items_table,
    row,
    strategy_block,
    watch,
    webset_block,
    websets_table,
)

websets_app = typer.Typer(
    no_args_is_help=True,
    help="Prospect lists (websets) through a server (LEADWIRE_API_URL, LEADWIRE_API_KEY): create, "
    "follow live, read, export, find more.",
)

Format = Literal["table", "csv", "jsonl"]
Match = Literal["qualified", "full", "partial", "rejected", "verified"]
Detail = Literal["compact", "standard", "full"]
TargetKind = Literal["company", "person"]
PAGE_MAX = {"compact": 50, "standard": 25, "full": 10}  # the Items endpoint's page limits

AsJson = typer.Option(False, "--json", help="print the response item as JSON")
Follow = typer.Option(False, "--follow", help="follow the list live until the run is complete")
FollowMatch = typer.Option("qualified", "--match", help="items to follow: qualified, full, ... verified")
# `create` and `find-more` take the request models' fields (generated.py, options.py); the help for the
# fields the models do not describe:
HELPS = {
    "query": "what to find, in natural language",
    "title": "the list's title",
    "count": "qualified results wanted (plan-limited)",
    "target_kind": "companies or people",
    "seed.id": "the import (imp_…) whose rows are the candidates, instead of a search",
    "seed.type": "where the candidates come from instead of a search: `import` (--seed-import) or "
    "`customs` (--trade-role, --hs-code, --country-codes, --start-date, --end-date); read from the "
    "options given when left out",
}
WebsetId = typer.Argument(..., metavar="ID", help="the webset id (ws_…)", show_default=False)
Exclude = typer.Option(
    None, "--exclude", metavar="WEBSET_ID", help="leave out that list's qualified items (repeatable)"
)


def _seed_typed(fields: Fields) -> Fields:
    """`--seed-import` alone means an import seed, a customs term alone a customs one."""
    seed = fields.get("seed")
    if not isinstance(seed, dict) or seed.get("type") is not None:
        return fields
    given = {name for name, value in seed.items() if value is not None}
    if not given:
        return fields
    return {**fields, "seed": {**seed, "type": "import" if given == {"id"} else "customs"}}


def _exclusions(webset_ids: list[str] | None) -> list[dict[str, str]] | None:
    return [{"source": "webset", "id": i} for i in webset_ids] if webset_ids else None


@websets_app.command("create")
@schema_options(
    CREATE_WEBSET,
    helps=HELPS,
    arguments=("query",),
    exclude=("exclude",),
    flags={"seed.type": "--seed", "seed.id": "--seed-import", "seed.role": "--trade-role"},
)
def create(
    fields: Fields = FROM_SCHEMA,
    excluding: list[str] | None = Exclude,
    follow: bool = Follow,
    match: Match = FollowMatch,
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Create a prospect list; `--follow` shows it fill up live."""
    with _session(api_url, api_key) as lw:
        created = lw.create_webset(**_seed_typed(fields), exclude=_exclusions(excluding))
        webset, job = created["webset"], created["preparation_job"]
        if as_json:
            typer.echo(json.dumps(created, indent=2, ensure_ascii=False))
        else:
            typer.echo(
                f"webset {webset['id']}  {webset['status']}  {webset['target_kind']}, "
                f"count {webset['count']}  (preparation job {job['id']} {job['status']})"
            )
        if follow:
            fallback = {"goal": webset.get("count"), **(lw.get_webset(webset["id"]).get("progress") or {})}
            watch(lw.follow_webset(webset["id"], match=match), Console(), fallback)


@websets_app.command("list")
def list_(
    limit: int | None = typer.Option(None, "--limit", min=1, max=100, help="websets per page (20)"),
    target_kind: TargetKind | None = typer.Option(None, "--target-kind", help="company or person"),
    cursor: str | None = typer.Option(None, "--cursor", help="the next_cursor a previous page printed"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """One page of your websets."""
    with _session(api_url, api_key) as lw:
        page = lw.list_websets(limit=limit, target_kind=target_kind, cursor=cursor)
    _show(page, as_json, websets_table)


@websets_app.command("get")
def get(
    webset_id: str = WebsetId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """A webset: status, progress, criteria, failure."""
    with _session(api_url, api_key) as lw:
        webset = lw.get_webset(webset_id)
    _show(webset, as_json, webset_block)


@websets_app.command("strategy")
def strategy(
    webset_id: str = WebsetId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """The criteria and search strategy (free; the list need not be complete)."""
    with _session(api_url, api_key) as lw:
        snapshot = lw.webset_strategy(webset_id)
    _show(snapshot, as_json, strategy_block)


@websets_app.command("items")
def items(
    webset_id: str = WebsetId,
    match: Match | None = typer.Option(None, "--match", help="qualified (default), full, partial, ..."),
    detail: Detail = typer.Option("compact", "--detail", help="compact, standard or full"),
    output: Format = typer.Option("table", "--format", help="table, csv or jsonl (every page)"),
    page_size: int | None = typer.Option(None, "--page-size", min=1, help="items per request (max)"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
) -> None:
    """Every item of the list (all pages): a table, CSV (id, name, website, industry_or_title,
    match_status, score) or JSON lines (the items as the API returns them)."""
    with _session(api_url, api_key) as lw:
        found = lw.iter_webset_items(
            webset_id, match=match, detail=detail, limit=page_size or PAGE_MAX[detail]
        )
        if output == "jsonl":
            for item in found:
                typer.echo(json.dumps(item, ensure_ascii=False))
        elif output == "csv":
            _write_csv(found)
        else:
            shown = list(found)
            Console().print(items_table(shown, caption=f"{len(shown)} items ({match or 'qualified'})"))


@websets_app.command("export")
def export(
    webset_id: str = WebsetId,
    output_format: Literal["csv", "jsonl"] = typer.Option("csv", "--format", help="csv or jsonl"),
    match: Match | None = typer.Option(None, "--match", help="qualified (default), full, partial, ..."),
    output: Path | None = typer.Option(None, "--output", "-o", help="write to this file (default: stdout)"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
) -> None:
    """The server's export of the list, streamed: CSV with a verdict column per criterion, or JSON
    lines of the items at full detail (`> list.csv` or `--output list.csv`)."""
    with _session(api_url, api_key) as lw, _sink(output) as sink:
        for chunk in lw.export_webset(webset_id, format=output_format, match=match):
            sink.write(chunk)


@contextlib.contextmanager
def _sink(path: Path | None) -> Iterator[BinaryIO]:
    """The file to write, or stdout's bytes; a file is only left behind when the export is whole."""
    if path is None:
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    partial = path.with_name(path.name + ".part")
    try:
        with partial.open("wb") as handle:
            yield handle
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


@websets_app.command("find-more")
@schema_options(START_FIND_MORE, helps=HELPS, exclude=("exclude",))
def find_more(
    webset_id: str = WebsetId,
    fields: Fields = FROM_SCHEMA,
    excluding: list[str] | None = Exclude,
    follow: bool = Follow,
    match: Match = FollowMatch,
    idempotency_key: str | None = typer.Option(
        None, "--idempotency-key", help="reuse a key to retry a find-more safely (default: a new one)"
    ),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Continue discovery on a list; `--follow` shows the run live until it is complete."""
    count, excluded = fields["count"], _exclusions(excluding)
    with _session(api_url, api_key) as lw:
        if not follow:
            job = lw.start_find_more(
                webset_id, count=count, exclude=excluded, idempotency_key=idempotency_key
            )
            typer.echo(json.dumps(job, indent=2, ensure_ascii=False) if as_json else describe(job))
            return
        run = lw.find_more(
            webset_id, count=count, exclude=excluded, match=match, idempotency_key=idempotency_key
        )
        if as_json:  # the final items only
            typer.echo(json.dumps(run.wait().ranked(), indent=2, ensure_ascii=False))
        else:
            watch(run, Console(), {"goal": count} if count else None)


@contextlib.contextmanager
def _session(api_url: str, api_key: str) -> Iterator[Leadwire]:
    """The SDK client; an API error raised while it is in use is printed and exits 1."""
    try:
        with Leadwire(api_key, api_url) as lw:
            yield lw
    except LeadwireError as error:
        fail(error)


def _write_csv(found: Iterator[dict[str, Any]]) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for item in found:
        cells = row(item)
        writer.writerow(["" if cells[key] is None else cells[key] for key in CSV_COLUMNS])
    sys.stdout.flush()


def _show(value: Any, as_json: bool, render: Callable[[Any], Any]) -> None:
    """The answer as JSON (`--json`), or as the table or block `render` draws of it."""
    if as_json:
        typer.echo(json.dumps(value, indent=2, ensure_ascii=False))
    else:
        Console().print(render(value))
