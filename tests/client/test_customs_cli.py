"""`leadwire customs …` against the real app served on loopback, over the hand-built shipments: `--json`
prints the job's result, the tables show the rows with formatted numbers, an API error or a failed job
is printed on stderr with exit code 1."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from rich.console import Console
from typer.testing import CliRunner

from leadwire.cli import app
from leadwire.client import customs_cli, job_cli
from leadwire.config import Settings
from tests.client.test_customs_sdk import customs_server
from tests.support.trade import ACME, BERLIN, HANOI, OSAKA, SHENZHEN

SPAN = ["--start", "2024-01-01", "--end", "2024-12-31"]


async def test_customs_commands_print_results_tables_and_errors(settings: Settings, tmp_path: Path) -> None:
    async with customs_server(settings, tmp_path) as served:
        env = {"LEADWIRE_API_URL": served.base_url, "LEADWIRE_API_KEY": served.key, "COLUMNS": "200"}

        def run(*args: str) -> Result:
            return CliRunner().invoke(app, ["customs", *args], env=env)

        def commands() -> dict[str, Result]:
            return {
                "json": run("section", "counterparties", ACME, "--role", "importer", *SPAN, "--json"),
                "section": run("section", "counterparties", ACME, "--role", "importer", *SPAN, "--wait", "0"),
                "candidates": run("candidates", "acme imports", *SPAN, "--countries", "DEU"),
                "search": run(
                    "search", "--role", "importer", *SPAN, "--hs-code", "8471", "--sort-by", "amount_usd"
                ),
                "report": run("report", ACME, "--role", "importer", *SPAN, "--period-unit", "quarters"),
                "bad_date": run(
                    "report", ACME, "--role", "importer", "--start", "2024-01-01", "--end", "2024-13-01"
                ),
            }

        results = await asyncio.to_thread(commands)

    for name, result in results.items():
        assert result.exit_code == (1 if name == "bad_date" else 0), (name, result.output)

    printed = json.loads(results["json"].stdout)
    assert printed["section"] == "counterparties" and printed["company_name"] == ACME
    items = printed["data"]["items"]
    assert [(r["name"], r["sumOfUSD"]) for r in items] == [(OSAKA, 2000), (SHENZHEN, 1500), (HANOI, 300)]

    section = results["section"].stdout  # --wait 0: created, then polled until it finished
    assert "Counterparties: Acme Imports GmbH (importer, imports, 2024-01-01..2024-12-31)" in section
    for text in (OSAKA, SHENZHEN, HANOI, "2,000.00", "1,500.00", "300.00", "52.63", "Japan", "3 of 3 rows"):
        assert text in section, text

    candidates = results["candidates"].stdout
    assert ACME in candidates and "importer / imports" in candidates and "imports 4" in candidates
    assert "yes" in candidates and "identity_status 'unverified'" in candidates

    search = results["search"].stdout
    assert search.index(ACME) < search.index(BERLIN)
    assert "1,500.00" in search and "93.75" in search and "hs_code=8471" in search

    report = results["report"].stdout
    for heading in ("Counterparties:", "Categories:", "Trends:", "Countries:", "by quarters"):
        assert heading in report, report
    assert "2024-04-01" in report and "2,000.00" in report and "report status: complete" in report

    bad = results["bad_date"]
    assert bad.stdout == "" and "error: 400 invalid_request (end_date)" in bad.stderr


class _FailedJobClient:
    """Stands in for the SDK: every creation answers with a job that failed."""

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def __enter__(self) -> _FailedJobClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        return None

    def customs_report(self, *_args: Any, **_kwargs: Any) -> dict[str, Any]:
        error = {"code": "trade_data_unavailable", "detail": "the trade database is down"}
        return {"id": "job_1", "status": "failed", "error": error}


def test_a_failed_job_prints_its_code_and_detail_on_stderr_and_exits_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(job_cli, "Leadwire", _FailedJobClient)
    result = CliRunner().invoke(
        app, ["customs", "report", ACME, "--role", "importer", *SPAN, "--api-key", "lw_live_x"]
    )
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "error: job job_1 failed: trade_data_unavailable: the trade database is down" in result.stderr


def test_a_failed_report_section_is_one_line_and_the_others_are_tables() -> None:
    row = {"date": "2024-01-01", "companyCount": 2, "tradeCount": 1234, "sumOfUSD": 1234567.891}
    data = {"total": 1, "page": 1, "page_size": 20, "returned_rows": 1, "items": [row]}
    result = {
        "company_name": "Bracket [bold]Name[/bold] Ltd",
        "company_role": "exporter",
        "catalog": "exports",
        "date_range": {"start": "2024-01-01", "end": "2024-12-31"},
        "period_unit": "months",
        "status": "partial",
        "sections": {
            "counterparties": {"status": "failed", "error": {"code": "customs_section_failed"}},
            "trend": {"status": "complete", "data": data},
        },
    }
    console = Console(width=200, record=True)
    customs_cli.render_report(console, result)
    text = console.export_text()
    assert "counterparties: failed (customs_section_failed)" in text
    assert "Bracket [bold]Name[/bold] Ltd" in text  # names are never read as markup
    assert "1,234" in text and "1,234,567.89" in text and "report status: partial" in text
