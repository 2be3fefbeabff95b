"""`leadwire jobs …`: list, read, wait for and cancel any job of the account from a terminal, against any
Leadwire server (`LEADWIRE_API_URL`, `LEADWIRE_API_KEY`)."""

from __future__ import annotations

import typer

from leadwire.client.cli import ApiKey, ApiUrl, AsJson, call, run_sdk
from leadwire.client.tables import TEXT, Column, show_page

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


COLUMNS: list[Column] = [
    ("Id", "id", TEXT),
    ("Action", "action", TEXT),
    ("Status", "status", TEXT),
    ("Progress", "progress_text", TEXT),
    ("Charged", "charged", TEXT),
    ("Scheduled", "scheduled_at", TEXT),
]


@jobs_app.command("list")
def list_(
    status: str | None = typer.Option(None, "--status", help="one status: queued, scheduled, running, ..."),
    limit: int = typer.Option(20, "--limit", min=1, max=100, help="jobs per page"),
    cursor: str | None = typer.Option(None, "--cursor", help="next_cursor of the previous page"),
    api_url: str = ApiUrl,
    api_key: str = ApiKey,
    as_json: bool = AsJson,
) -> None:
    """The account's jobs, newest first."""
    page = run_sdk(api_url, api_key, lambda lw: lw.list_jobs(status=status, limit=limit, cursor=cursor))
    rows = [
        {
            **job,
            "progress_text": f"{job['progress']['stage']} {job['progress']['percent']:.0f}%",
            "charged": str(job["billing"]["charged_credits"]),
        }
        for job in page["items"]
    ]
    show_page(page, "Jobs", COLUMNS, as_json, rows)
