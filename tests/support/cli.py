"""The command line against a served app, as a user runs it: the API's address and key in the
environment."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from leadwire.cli import app


def run_cli(base: str, key: str, *args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"LEADWIRE_API_URL": base, "LEADWIRE_API_KEY": key})
