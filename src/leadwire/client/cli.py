"""`leadwire outreach …`: send and like from a terminal through the SDK, against any Leadwire server
(`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`). Lives beside the SDK because it only speaks HTTP."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn

import typer

from leadwire.client.core import DEFAULT_BASE_URL, LeadwireError, attachment_from_file
from leadwire.client.generated import DISPATCH, LIKE_POST, DispatchVersion
from leadwire.client.options import FROM_SCHEMA, Fields, schema_options
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
Version = typer.Option("v2", "--api-version", help="API version: v1 or v2")
AsJson = typer.Option(False, "--json", help="print the response item as JSON")
_RECIPIENT_FIELD = {"email": "address", "linkedin": "profile_url", "whatsapp": "phone"}
ATTACHMENTS = ("content.attachments", "content.attachment")

# The commands' options are the request models' fields (generated.py, options.py). Here only the flags
# that are not a field's name and the help for the fields the models do not describe.
FLAGS = {"account_id": "--account", "min_channel_task_interval_seconds": "--interval"}
HELPS = {
    "account_id": "account_id from `GET /api/v2/connect/accounts`",
    "channel": "the account's channel",
    "text": "message text (a LinkedIn note: at most 300 chars)",
    "min_channel_task_interval_seconds": "seconds since the channel's previous job",
    "post_limit": "recent posts to consider",
    "locale": "the language of the result's `reason`",
}


@outreach_app.command("send")
@schema_options(
    DISPATCH["v2"],
    flags=FLAGS,
    helps=HELPS,
    # `--to` is the recipient's address, profile URL or phone by channel; `--attach` reads files.
    exclude=("metadata", "recipient.address", "recipient.profile_url", "recipient.phone", *ATTACHMENTS),
)
def send(
    fields: Fields = FROM_SCHEMA,
    to: str = typer.Option(..., "--to", help="email address, LinkedIn profile URL, or E.164 phone number"),
    attach: list[str] = typer.Option(
        [], "--attach", help="a file to attach (repeatable; one for LinkedIn/WhatsApp)"
    ),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    wait: int = Wait,
    api_version: DispatchVersion = Version,
    as_json: bool = AsJson,
) -> None:
    """Send one email, LinkedIn message/invitation or WhatsApp message."""
    recipient = {_RECIPIENT_FIELD[fields["channel"]]: to, **_given(fields["recipient"])}
    content = _given({**fields["content"], "attachments": [attachment_from_file(path) for path in attach]})
    request = {**fields, "recipient": recipient, "content": content}
    call(api_url, api_key, as_json, lambda lw: lw.dispatch(**request, wait=wait or None, version=api_version))


@outreach_app.command("like")
@schema_options(
    LIKE_POST["v2"], flags={**FLAGS, "profile_url": "--profile", "content": "--topic"}, helps=HELPS
)
def like(
    fields: Fields = FROM_SCHEMA,
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    wait: int = Wait,
    api_version: DispatchVersion = Version,
    as_json: bool = AsJson,
) -> None:
    """Like the recent post of a profile most relevant to a topic."""
    call(api_url, api_key, as_json, lambda lw: lw.like_post(**fields, wait=wait or None, version=api_version))


@outreach_app.command("job")
def job(
    job_id: str = typer.Argument(..., help="the job id a send or like printed"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Show an outreach job."""
    call(api_url, api_key, as_json, lambda lw: lw.job(job_id))


def call(
    api_url: str, api_key: str, as_json: bool, work: Callable[[Leadwire], dict[str, Any]]
) -> dict[str, Any]:
    """Print the item `work` gets from the server (as JSON, or described) and return it; an API error,
    or a wait that ran out, is printed on stderr and exits 1."""
    try:
        with Leadwire(api_key, api_url) as lw:
            item = work(lw)
    except LeadwireError as error:
        fail(error)
    except TimeoutError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(json.dumps(item, indent=2, ensure_ascii=False) if as_json else describe(item))
    return item


def _given(values: dict[str, Any]) -> dict[str, Any]:
    """The values given (an empty text or list is not given)."""
    return {key: value for key, value in values.items() if value}


def fail(error: LeadwireError) -> NoReturn:
    """Print an API error on stderr (`error: 400 invalid_request (end_date): detail [POST url]`, a
    transport failure with its cause) and exit 1."""
    typer.echo(f"error: {error}", err=True)
    raise typer.Exit(1) from None


def run_sdk(api_url: str, api_key: str, work: Callable[[Leadwire], dict[str, Any]]) -> dict[str, Any]:
    """`work`'s answer with a client of the server; an API error is printed and exits 1."""
    try:
        with Leadwire(api_key, api_url) as lw:
            return work(lw)
    except LeadwireError as error:
        fail(error)


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
