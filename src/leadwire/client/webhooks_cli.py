"""`leadwire webhooks …`: register, read, change and delete webhooks, read and retry their deliveries,
and `listen` (a local receiver for development, like `stripe listen`), against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`)."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, fail, run_sdk
from leadwire.client.core import LeadwireError
from leadwire.client.sync import Leadwire
from leadwire.client.tables import INT, TEXT, Column, show_page

webhooks_app = typer.Typer(
    no_args_is_help=True,
    help="Webhooks: signed events pushed to your endpoints (LEADWIRE_API_URL, LEADWIRE_API_KEY).",
)

WebhookId = typer.Argument(..., help="the webhook's id (wh_…)", show_default=False)
Events = typer.Option([], "--event", help="an event type, or * for all (repeatable)")
Metadata = typer.Option(
    [], "--metadata", metavar="KEY=VALUE", help="a label of your own, returned as given (repeatable)"
)
WEBHOOK_COLUMNS: list[Column] = [
    ("Id", "id", TEXT),
    ("Status", "status", TEXT),
    ("URL", "url", TEXT),
    ("Events", "events_shown", TEXT),
    ("Description", "description", TEXT),
]
DELIVERY_COLUMNS: list[Column] = [
    ("Id", "id", TEXT),
    ("Event", "event_type", TEXT),
    ("Status", "status", TEXT),
    ("Attempts", "attempts", INT),
    ("Last status", "last_status_code", INT),
    ("Last error", "last_error", TEXT),
    ("Next attempt", "next_attempt_at", TEXT),
    ("Created", "created_at", TEXT),
]


def _print_webhook(item: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(item, indent=2, ensure_ascii=False))
        return
    lines = [f"webhook {item['id']}  {item['status']}", f"  url          {item['url']}"]
    lines.append(f"  events       {', '.join(item['events'])}")
    for key in ("description", "disabled_reason"):
        if item.get(key):
            lines.append(f"  {key:<12} {item[key]}")
    if item.get("metadata"):
        lines.append(f"  metadata     {json.dumps(item['metadata'], ensure_ascii=False)}")
    if item.get("secret"):
        lines.append(f"  secret       {item['secret']}  (shown once: keep it now)")
    typer.echo("\n".join(lines))


def _metadata(pairs: list[str]) -> dict[str, str] | None:
    """`--metadata KEY=VALUE`s as the API's `metadata` (the last value of a key repeated wins); None
    when none is given, so `update` leaves the webhook's own alone."""
    if not pairs:
        return None
    found: dict[str, str] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key:
            raise typer.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="'--metadata'")
        found[key] = value
    return found


def _print_page(page: dict[str, Any], as_json: bool, title: str, columns: list[Column]) -> None:
    rows = [{**row, "events_shown": ", ".join(row.get("events", []))} for row in page["items"]]
    show_page(page, title, columns, as_json, rows=rows)


@webhooks_app.command("create")
def create(
    url: str = typer.Argument(..., help="the receiver's https URL", show_default=False),
    events: list[str] = Events,
    description: str | None = typer.Option(None, "--description", help="a note for people"),
    metadata: list[str] = Metadata,
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Register a webhook; prints its signing secret, shown only this once."""
    chosen = events or ["*"]
    labels = _metadata(metadata)
    item = run_sdk(
        api_url,
        api_key,
        lambda lw: lw.create_webhook(url, chosen, description=description, metadata=labels),
    )
    _print_webhook(item, as_json)


@webhooks_app.command("list")
def list_(
    limit: int = typer.Option(20, "--limit", min=1, max=100, help="webhooks per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """The account's webhooks, newest first."""
    page = run_sdk(api_url, api_key, lambda lw: lw.list_webhooks(limit=limit, cursor=cursor))
    _print_page(page, as_json, "Webhooks", WEBHOOK_COLUMNS)


@webhooks_app.command("get")
def get(
    webhook_id: str = WebhookId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """A webhook: its URL, events, status and, when disabled, why."""
    _print_webhook(run_sdk(api_url, api_key, lambda lw: lw.get_webhook(webhook_id)), as_json)


@webhooks_app.command("update")
def update(
    webhook_id: str = WebhookId,
    url: str | None = typer.Option(None, "--url", help="a new receiver URL"),
    events: list[str] = Events,
    status: str | None = typer.Option(None, "--status", help="active or disabled"),
    description: str | None = typer.Option(None, "--description", help="a note for people"),
    metadata: list[str] = typer.Option(
        [],
        "--metadata",
        metavar="KEY=VALUE",
        help="a label of your own (repeatable); the ones given replace all the webhook's labels",
    ),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Change a webhook's URL, events, status, description or metadata (the options given)."""
    labels = _metadata(metadata)
    item = run_sdk(
        api_url,
        api_key,
        lambda lw: lw.update_webhook(
            webhook_id,
            url=url,
            events=events or None,
            status=status,
            description=description,
            metadata=labels,
        ),
    )
    _print_webhook(item, as_json)


@webhooks_app.command("delete")
def delete(webhook_id: str = WebhookId, api_url: str = ApiUrl, api_key: str = ApiKey) -> None:
    """Delete a webhook and its delivery log."""
    run_sdk(api_url, api_key, lambda lw: lw.delete_webhook(webhook_id))
    typer.echo(f"deleted {webhook_id}")


@webhooks_app.command("rotate-secret")
def rotate_secret(
    webhook_id: str = WebhookId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson
) -> None:
    """A new signing secret; the old one keeps signing beside it for 24 hours."""
    _print_webhook(run_sdk(api_url, api_key, lambda lw: lw.rotate_webhook_secret(webhook_id)), as_json)


@webhooks_app.command("deliveries")
def deliveries(
    webhook_id: str = WebhookId,
    status: str | None = typer.Option(None, "--status", help="pending, succeeded or failed"),
    limit: int = typer.Option(20, "--limit", min=1, max=100, help="deliveries per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """A webhook's deliveries, newest first, with their attempts and last answer."""
    page = run_sdk(
        api_url,
        api_key,
        lambda lw: lw.webhook_deliveries(webhook_id, status=status, limit=limit, cursor=cursor),
    )
    _print_page(page, as_json, f"Deliveries of {webhook_id}", DELIVERY_COLUMNS)


@webhooks_app.command("retry")
def retry(
    webhook_id: str = WebhookId,
    delivery_id: str = typer.Argument(..., help="the delivery's id (whd_…)", show_default=False),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Send a delivery again now, with the same webhook-id."""
    item = run_sdk(api_url, api_key, lambda lw: lw.retry_webhook_delivery(webhook_id, delivery_id))
    if as_json:
        typer.echo(json.dumps(item, indent=2, ensure_ascii=False))
    else:
        Console().print(Text(f"delivery {item['id']} ({item['event_type']}) {item['status']}"))


@webhooks_app.command("listen")
def listen(
    forward_to: str | None = typer.Option(
        None,
        "--forward-to",
        help="POST each event here, signed (a local receiver, e.g. http://127.0.0.1:3000/hook)",
    ),
    events: list[str] = Events,
    max_events: int = typer.Option(0, "--max-events", min=0, help="stop after this many events (0: never)"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
) -> None:
    """Print the account's events as they happen and forward each to a local receiver, with the
    headers a webhook delivery carries (like `stripe listen`). Ctrl-C stops."""
    import httpx

    seen = 0
    try:
        with Leadwire(api_key, api_url) as lw, httpx.Client(timeout=10.0) as http:
            for message in lw.listen_webhooks(events or None):
                if message["event"] == "ready":
                    typer.echo(f"Ready. Receivers check deliveries with the secret {message['secret']}")
                    continue
                typer.echo(f"{message['type']}  {message['id']}{_forward(http, forward_to, message)}")
                seen += 1
                if max_events and seen >= max_events:
                    return
    except LeadwireError as error:
        fail(error)
    except KeyboardInterrupt:
        typer.echo("stopped")


def _forward(http: Any, url: str | None, message: dict[str, Any]) -> str:
    """`  -> <status>` once POSTed to `url` (nothing without one), or why it could not be."""
    if url is None:
        return ""
    try:
        answer = http.post(url, content=message["body"].encode(), headers=message["headers"])
    except Exception as error:  # a receiver that is down must not stop the listener
        return f"  -> not forwarded: {type(error).__name__}: {error}"
    return f"  -> {answer.status_code}"
