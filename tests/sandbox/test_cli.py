"""The `sandbox build` and `ingest` commands as the main CLI mounts them."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from leadwire.sandbox.cli import ingest_app, sandbox_app

app = typer.Typer()
app.add_typer(sandbox_app, name="sandbox")
app.add_typer(ingest_app, name="ingest")


def _last_json(output: str) -> dict[str, object]:
    return json.loads(output.strip().splitlines()[-1])


def test_build_prints_a_json_summary_and_skips_a_built_world(tmp_path: Path) -> None:
    runner = CliRunner()
    args = [
        "sandbox",
        "build",
        "--size",
        "small",
        "--seed",
        "3",
        "--data-dir",
        str(tmp_path),
        "--no-progress",
    ]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    summary = _last_json(first.stdout)
    assert summary["built"] is True and summary["counts"]["companies"] == 300  # type: ignore[index]
    assert (tmp_path / "world" / "world.db").exists()
    second = runner.invoke(app, args)
    assert _last_json(second.stdout)["built"] is False
    forced = runner.invoke(app, [*args, "--force"])
    assert _last_json(forced.stdout)["built"] is True


def test_ingest_command_reports_and_fails_on_errors(tmp_path: Path, monkeypatch: object) -> None:
    runner = CliRunner()
    good = tmp_path / "companies.jsonl"
    good.write_text(json.dumps({"domain": "acme.com", "name": "Acme", "country": "US"}) + "\n")
    result = runner.invoke(app, ["ingest", "companies", str(good), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0 and _last_json(result.stdout)["inserted"] == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"domain": "acme.com", "name": "Acme", "country": "XX"}) + "\n")
    result = runner.invoke(app, ["ingest", "companies", str(bad), "--data-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert _last_json(result.stdout)["accepted"] is False
    assert "line 1, field country" in result.stderr
