"""`leadwire outreach …`: send and like from a terminal through the SDK, against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`). Lives beside the SDK because it only speaks HTTP."""

from __future__ import annotations

import json
from typing import Any, Literal, NoReturn

import typer

from leadwire.client.core import DEFAULT_BASE_URL, LeadwireError, attachment_from_file
from leadwire.client.sync import Leadwire

outreach_app = typer.Typer(
    no_args_is_help=True,
    help="Send outreach and like LinkedIn posts through a server (LEADWIRE_API_URL, LEADWIRE_API_KEY).",
)

ApiUrl = typer.Option(DEFAULT_BASE_URL, "--api-url", envvar="LEADWIRE_API_URL", help="server base URL")
ApiKey = typer.Option(
    ..., "--api-key", envvar="LEADWIRE_API_KEY", help="API key (lw_live_…)", show_default=False
)
Wait = typer.Option(0, "--wait", min=0, max=60, help="seconds to wait for the job to finish (Prefer: wait)")
ApiVersion = Literal["v1", "v2"]
Channel = Literal["email", "linkedin", "whatsapp"]
Locale = Literal["en", "zh"]
Version = typer.Option("v2", "--api-version", help="API version: v1 or v2")
AsJson = typer.Option(False, "--json", help="print the response item as JSON")
_RECIPIENT_FIELD = {"email": "address", "linkedin": "profile_url", "whatsapp": "phone"}


@outreach_app.command("send")
def send(
    account: str = typer.Option(..., "--account", help="account_id from `GET /api/v2/connect/accounts`"),
    channel: Channel = typer.Option(
        ..., "--channel", help="email, linkedin or whatsapp (the account's channel)"
    ),
    to: str = typer.Option(..., "--to", help="email address, LinkedIn profile URL, or E.164 phone number"),
    name: str | None = typer.Option(None, "--name", help="email: the recipient's display name"),
    subject: str | None = typer.Option(None, "--subject", help="email: the subject (required for email)"),
    text: str | None = typer.Option(None, "--text", help="message text (a LinkedIn note: at most 300 chars)"),
    html: str | None = typer.Option(None, "--html", help="email: an HTML body"),
    attach: list[str] = typer.Option(
        [], "--attach", help="a file to attach (repeatable; one for LinkedIn/WhatsApp)"
    ),
    interval: int | None = typer.Option(
        None, "--interval", min=60, max=86400, help="seconds since the channel's previous job"
    ),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    wait: int = Wait,
    api_version: ApiVersion = Version,
    as_json: bool = AsJson,
) -> None:
    """Send one email, LinkedIn message/invitation or WhatsApp message."""
    recipient = {_RECIPIENT_FIELD[channel]: to, **({"name": name} if name else {})}
    files = [attachment_from_file(path) for path in attach]
    content: dict[str, Any] = {"subject": subject, "text": text, "html": html, "attachments": files}
    content = {k: v for k, v in content.items() if v}
    _call(
        api_url,
        api_key,
        as_json,
        lambda lw: lw.dispatch(
            account,
            channel,
            recipient,
            content,
            min_channel_task_interval_seconds=interval,
            wait=wait or None,
            version=api_version,
        ),
    )


@outreach_app.command("like")
def like(
    profile: str = typer.Option(..., "--profile", help="the LinkedIn profile URL whose posts to consider"),
    topic: str = typer.Option(..., "--topic", help="what the post should be about (not text to publish)"),
    account: str | None = typer.Option(None, "--account", help="LinkedIn account_id (needed with several)"),
    post_limit: int | None = typer.Option(
        None, "--post-limit", min=1, max=50, help="recent posts to consider"
    ),
    locale: Locale | None = typer.Option(None, "--locale", help="en or zh"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    wait: int = Wait,
    api_version: ApiVersion = Version,
    as_json: bool = AsJson,
) -> None:
    """Like the recent post of a profile most relevant to a topic."""
    _call(
        api_url,
        api_key,
        as_json,
        lambda lw: lw.like_post(
            profile,
            topic,
            account_id=account,
            post_limit=post_limit,
            locale=locale,
            wait=wait or None,
            version=api_version,
        ),
    )


@outreach_app.command("job")
def job(
    job_id: str = typer.Argument(..., help="the job id a send or like printed"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Show an outreach job."""
    _call(api_url, api_key, as_json, lambda lw: lw.job(job_id))


def _call(api_url: str, api_key: str, as_json: bool, work: Any) -> None:
    try:
        with Leadwire(api_key, api_url) as lw:
            item = work(lw)
    except LeadwireError as error:
        fail(error)
    typer.echo(json.dumps(item, indent=2, ensure_ascii=False) if as_json else describe(item))


def fail(error: LeadwireError) -> NoReturn:
    """Print an API error on stderr (`error: 400 invalid_request (end_date): detail [POST url]`, a
    transport failure with its cause) and exit 1."""
    typer.echo(f"error: {error}", err=True)
    raise typer.Exit(1) from None


def describe(item: dict[str, Any]) -> str:
    """One readable block for a job or a creation item."""
    lines = [f"job {item['id']}  {item['action']}  {item['status']}"]
    if item.get("channel"):
        lines.append(f"  channel      {item['channel']}")
    lines.append(f"  scheduled at {item['scheduled_at']}")
    if error := item.get("error"):
        detail = f": {error['detail']}" if error.get("detail") else ""
        lines.append(f"  error        {error['code']}{detail}")
    for key, value in (item.get("result") or {}).items():
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value
        lines.append(f"  {key:<12} {shown}")
    return "\n".join(lines)
