"""What the commands that start a job share (`leadwire customs …`, `leadwire research …`): each creates the
job with `Prefer: wait`, polls it when it is still running, and prints its result — rendered, or as JSON
with `--json`. An API error or a failed job is printed on stderr and exits 1."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from leadwire.client.cli import ApiKey, ApiUrl, fail
from leadwire.client.core import TERMINAL, LeadwireError
from leadwire.client.operation import Operation
from leadwire.client.options import FROM_SCHEMA, Fields, schema_options
from leadwire.client.sync import Leadwire

JOB_TIMEOUT_SECONDS = 300.0  # polling after `--wait` ran out

Wait = typer.Option(60, "--wait", min=0, max=60, help="seconds the server may hold the answer (Prefer: wait)")
AsJson = typer.Option(False, "--json", help="print the job's result as JSON")
KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
Create = Callable[..., dict[str, Any]]  # (the client, the fields given, wait, the command's own arguments)
Render = Callable[[Console, dict[str, Any]], None]


def job_command(
    app: typer.Typer, name: str, operation: Operation, render: Render, **schema: Any
) -> Callable[[Create], Create]:
    """Make `create` the command `name` of `app`: it starts the job through the SDK from the fields given (its
    parameters after `lw, fields, wait` are the command's own arguments, first); the command asks for
    the operation's fields (options.schema_options with `schema`), then the server, `--wait` and
    `--json`, follows the job to its end and renders its result."""

    def register(create: Create) -> Create:
        own = list(inspect.signature(create, eval_str=True).parameters.values())[3:]

        def command(
            fields: Fields, api_url: str, api_key: str, wait: int, as_json: bool, **arguments: Any
        ) -> None:
            job = finished_job(api_url, api_key, lambda lw: create(lw, fields, wait or None, **arguments))
            emit_result(job, as_json, render)

        common = [
            inspect.Parameter("fields", KEYWORD, default=FROM_SCHEMA, annotation=Fields),
            inspect.Parameter("api_url", KEYWORD, default=ApiUrl, annotation=str),
            inspect.Parameter("api_key", KEYWORD, default=ApiKey, annotation=str),
            inspect.Parameter("wait", KEYWORD, default=Wait, annotation=int),
            inspect.Parameter("as_json", KEYWORD, default=AsJson, annotation=bool),
        ]
        command.__signature__ = inspect.Signature([*own, *common])  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in [*own, *common]}
        command.__doc__ = create.__doc__
        app.command(name)(schema_options(operation, **schema)(command))
        return create

    return register


def finished_job(api_url: str, api_key: str, create: Callable[[Leadwire], dict[str, Any]]) -> dict[str, Any]:
    """The succeeded job `create` started (polled until terminal); exits 1 on an error or a failed job."""
    try:
        with Leadwire(api_key, api_url) as lw:
            job = create(lw)
            if job["status"] not in TERMINAL:
                job = lw.wait_for(job["id"], timeout=JOB_TIMEOUT_SECONDS)
    except LeadwireError as error:
        fail(error)
    except TimeoutError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    if job["status"] != "succeeded":
        error_body = job.get("error") or {}
        code = error_body.get("code") or job["status"]
        detail = f": {error_body['detail']}" if error_body.get("detail") else ""
        typer.echo(f"error: job {job['id']} {job['status']}: {code}{detail}", err=True)
        raise typer.Exit(1)
    return job


def emit_result(job: dict[str, Any], as_json: bool, render: Render) -> None:
    if as_json:
        typer.echo(json.dumps(job["result"], indent=2, ensure_ascii=False))
        return
    console = Console()
    render(console, job["result"])
    charged = (job.get("billing") or {}).get("charged_credits")
    console.print(
        Text(
            f"job {job['id']}" + (f", {charged} credits charged" if charged is not None else ""), style="dim"
        )
    )
