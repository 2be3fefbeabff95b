"""`leadwire jobs …`: read, wait for and cancel any job of the account from a terminal, against any
Leadwire server (`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`)."""

from __future__ import annotations

import typer

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, call

jobs_app = typer.Typer(
    no_args_is_help=True,
    help="Read, wait for and cancel jobs through a server (LEADWIRE_API_URL, LEADWIRE_API_KEY).",
)

JobId = typer.Argument(..., help="the job's id (job_…)", show_default=False)


@jobs_app.command("get")
def get(job_id: str = JobId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson) -> None:
    """A job: its status, progress, result or error, and what it was charged."""
    call(api_url, api_key, as_json, lambda lw: lw.job(job_id))


@jobs_app.command("wait")
def wait(
    job_id: str = JobId,
    timeout: float = typer.Option(300.0, "--timeout", min=1, help="seconds to wait before giving up"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """Wait until a job ends (polled a few seconds apart), then show it; exits 1 if it did not succeed."""
    job = call(api_url, api_key, as_json, lambda lw: lw.wait_for(job_id, timeout=timeout))
    if job["status"] != "succeeded":
        typer.echo(f"error: job {job['id']} ended {job['status']}", err=True)
        raise typer.Exit(1)


@jobs_app.command("cancel")
def cancel(job_id: str = JobId, api_url: str = ApiUrl, api_key: str = ApiKey, as_json: bool = AsJson) -> None:
    """Cancel a job that has not ended (a running job stops at its next step; a sent message stays sent)."""
    call(api_url, api_key, as_json, lambda lw: lw.cancel(job_id))
