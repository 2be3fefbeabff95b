"""`leadwire websets …` through the SDK against the fake server of websets_fake.py: `create --follow`
prints the creation, a progress line per change and the final table; `items` exports every page as
CSV or JSON lines; `find-more` prints its job or follows its run; the reads print their blocks; an API
error is printed on stderr with exit code 1. The live view (a terminal) shows the bar and the table."""

from __future__ import annotations

import csv
import functools
import io
import json

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from leadwire.cli import app
from leadwire.client import Leadwire, websets_cli
from leadwire.client.websets_view import watch
from tests.client.websets_fake import BASE, KEY, PRELUDE, Conn, FakeWebsets, Snapshot, changed, complete, item

A = item("item_a", "Alpha Freight", "full", 90)
B = item("item_b", "Beta [bold]Cargo[/bold]", "partial", 60, industry="Shipping")
C = item("item_c", "Gamma, Lines", "partial", 50)


def invoke(fake: FakeWebsets, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.setattr(websets_cli, "Leadwire", functools.partial(Leadwire, transport=fake.transport))
    env = {"LEADWIRE_API_URL": BASE, "LEADWIRE_API_KEY": KEY, "COLUMNS": "200"}
    return CliRunner().invoke(app, ["websets", *args], env=env)


def test_create_follow_prints_progress_lines_and_the_final_table(monkeypatch: pytest.MonkeyPatch) -> None:
    progress = {
        "stage": "verifying",
        "goal": 25,
        "verify_cap": 75,
        "verified": 6,
        "qualified": 3,
        "full": 1,
        "stop_reason": None,
    }
    done = {**progress, "verified": 9, "stop_reason": "goal_reached"}
    stream = PRELUDE + changed(11, 4, [B, C], progress=progress) + changed(12, 5, [], progress=done)
    fake = FakeWebsets(Snapshot([A], [(10, 3)]), [Conn(stream + complete(13, 5))])

    result = invoke(fake, monkeypatch, "create", "EU freight forwarders", "--count", "25", "--follow")

    assert result.exit_code == 0, result.output
    out = result.stdout
    assert fake.bodies[0] == {"query": "EU freight forwarders", "count": 25}
    assert out.splitlines()[0] == (
        "webset ws_1  generating_criteria  company, count 25  (preparation job job_prep queued)"
    )
    assert "[snapshot] verifying: verified 4/75, qualified 2/25 (full 1), 1 items" in out  # from GET webset
    assert "[items.changed] verifying: verified 6/75, qualified 3/25 (full 1), 3 items" in out
    assert "stopped: goal_reached" in out
    assert "[complete] completed:" in out
    table = out[out.index("[complete]") :]
    assert table.index("Alpha Freight") < table.index("Beta [bold]Cargo[/bold]") < table.index("Gamma, Lines")
    assert "https://alpha-freight.example" in table and "Shipping" in table and "3 items (qualified)" in table
    assert "webset ws_1 completed, 3 items" in out
    assert fake.sent("/items/stream")[0].url.params["stream_cursor"] == "10"


def test_items_export_every_page_as_csv_and_jsonl(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeWebsets(Snapshot([A, B, C], [(10, 3)]))

    as_csv = invoke(fake, monkeypatch, "items", "ws_1", "--format", "csv")
    as_jsonl = invoke(fake, monkeypatch, "items", "ws_1", "--format", "jsonl", "--detail", "full")
    as_table = invoke(fake, monkeypatch, "items", "ws_1", "--match", "verified")

    assert as_csv.exit_code == as_jsonl.exit_code == as_table.exit_code == 0, as_csv.output
    rows = list(csv.reader(io.StringIO(as_csv.stdout)))
    assert rows == [
        ["id", "name", "website", "industry_or_title", "match_status", "score"],
        ["item_a", "Alpha Freight", "https://alpha-freight.example", "Logistics", "full", "90"],
        [
            "item_b",
            "Beta [bold]Cargo[/bold]",
            "https://beta-[bold]cargo[/bold].example",
            "Shipping",
            "partial",
            "60",
        ],
        ["item_c", "Gamma, Lines", "https://gamma,-lines.example", "Logistics", "partial", "50"],
    ]
    assert [json.loads(line) for line in as_jsonl.stdout.splitlines()] == [A, B, C]
    limits = [(r.url.params["detail"], r.url.params["limit"]) for r in fake.sent("/items")]
    assert limits[:2] == [("compact", "50")] * 2 and limits[2:4] == [("full", "10")] * 2
    assert "Alpha Freight" in as_table.stdout and "3 items (verified)" in as_table.stdout


def test_items_read_in_detail_show_each_criterion_s_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    judged = {
        **B,
        "criteria": [
            {"type": "location", "verdict": "yes", "reasoning": "Its record places it in DE, as required."},
            {"type": "industry", "verdict": "unclear", "reasoning": "Its label “Industrials” is broad."},
        ],
    }
    fake = FakeWebsets(Snapshot([A, judged], [(10, 2)]))
    result = invoke(fake, monkeypatch, "items", "ws_1", "--detail", "full")
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    assert "Verdicts" in out and "location yes" in out and "industry unclear" in out
    assert "Industrials" in out and "as required" not in out  # a yes needs no explanation in the table


def test_find_more_prints_its_job_follows_its_run_and_reports_a_busy_webset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakeWebsets(
        Snapshot([A], [(30, 5)], status="completed"), [Conn(PRELUDE + changed(31, 6, [C]) + complete(32, 6))]
    )

    started = invoke(fake, monkeypatch, "find-more", "ws_1", "--count", "100")
    fake.find_more_failures = [503]  # the retry reuses the given key
    followed = invoke(fake, monkeypatch, "find-more", "ws_1", "--follow", "--idempotency-key", "fm-7")
    fake.busy = True
    busy = invoke(fake, monkeypatch, "find-more", "ws_1")

    assert started.exit_code == 0 and started.stdout.startswith("job job_fm1  websets.find_more  queued")
    assert followed.exit_code == 0, followed.output
    assert "find-more job job_fm1" in followed.stdout and "Gamma, Lines" in followed.stdout
    assert [r.headers["idempotency-key"] for r in fake.sent("/find-more")][1:3] == ["fm-7", "fm-7"]
    assert fake.sent("/find-more/stream")[0].url.params["job_id"] == "job_fm1"
    assert busy.exit_code == 1 and busy.stdout == "" and "error: 409 webset_busy" in busy.stderr


def test_list_get_and_strategy_print_their_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeWebsets(Snapshot([A], [(10, 3)]))

    listed = invoke(fake, monkeypatch, "list", "--limit", "5")
    got = invoke(fake, monkeypatch, "get", "ws_1")
    strategy = invoke(fake, monkeypatch, "strategy", "ws_1")
    as_json = invoke(fake, monkeypatch, "get", "ws_1", "--json")
    missing = invoke(fake, monkeypatch, "get", "ws_nope")

    assert (
        "EU forwarders" in listed.stdout and "2/25" in listed.stdout and "--cursor ws-page-2" in listed.stdout
    )
    assert "webset ws_1  EU forwarders  verifying" in got.stdout and "Ships freight in Europe" in got.stdout
    assert "readiness ready" in strategy.stdout and "freight forwarder Rotterdam  [NL]" in strategy.stdout
    assert json.loads(as_json.stdout)["progress"]["verify_cap"] == 75
    assert missing.exit_code == 1 and "error: 404 webset_not_found" in missing.stderr


def test_the_live_view_on_a_terminal_ends_with_the_final_table() -> None:
    stream = PRELUDE + changed(11, 4, [B]) + complete(12, 4)
    fake = FakeWebsets(Snapshot([A], [(10, 3)]), [Conn(stream)])
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=160, color_system=None)
    with Leadwire(KEY, BASE, transport=fake.transport) as lw:
        state = watch(lw.follow_webset("ws_1"), console, {"goal": 25})
    assert set(state.items) == {"item_a", "item_b"}
    text = screen.getvalue()
    assert "qualified 1/25" in text  # the live bar's line, from the stream's progress
    final = text[text.rindex("Name") :]
    assert "Alpha Freight" in final and "Beta [bold]Cargo[/bold]" in final
    assert "webset ws_1 completed, 2 items" in final


def test_exclude_names_lists_on_create_and_find_more(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeWebsets(
        Snapshot([A], [(30, 5)], status="completed"), [Conn(PRELUDE + changed(31, 6, [C]) + complete(32, 6))]
    )

    created = invoke(
        fake, monkeypatch, "create", "EU freight forwarders", "--exclude", "ws_a", "--exclude", "ws_b"
    )
    started = invoke(fake, monkeypatch, "find-more", "ws_1", "--exclude", "ws_c")
    followed = invoke(fake, monkeypatch, "find-more", "ws_1", "--exclude", "ws_d", "--follow")

    assert created.exit_code == started.exit_code == followed.exit_code == 0, followed.output
    sent = [
        body for request, body in zip(fake.requests, fake.bodies, strict=True) if request.method == "POST"
    ]
    assert sent == [
        {
            "query": "EU freight forwarders",
            "exclude": [{"source": "webset", "id": "ws_a"}, {"source": "webset", "id": "ws_b"}],
        },
        {"exclude": [{"source": "webset", "id": "ws_c"}]},
        {"exclude": [{"source": "webset", "id": "ws_d"}]},
    ]


def test_seed_import_sends_the_seed_object_with_its_type(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeWebsets(Snapshot([A], [(10, 3)]))

    seeded = invoke(fake, monkeypatch, "create", "EU freight forwarders", "--seed-import", "imp_1")
    searched = invoke(fake, monkeypatch, "create", "EU freight forwarders")

    assert seeded.exit_code == searched.exit_code == 0, seeded.output
    assert fake.bodies == [
        {"query": "EU freight forwarders", "seed": {"type": "import", "id": "imp_1"}},
        {"query": "EU freight forwarders"},
    ]


def test_customs_terms_send_a_customs_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeWebsets(Snapshot([A], [(10, 3)]))
    terms = ["--trade-role", "importer", "--hs-code", "8471", "--country-codes", "DEU"]
    terms += ["--start-date", "2024-01-01", "--end-date", "2024-12-31"]

    implied = invoke(fake, monkeypatch, "create", "laptop importers", *terms, "--min-trade-count", "2")
    said = invoke(fake, monkeypatch, "create", "laptop importers", "--seed", "customs", *terms)

    assert implied.exit_code == said.exit_code == 0, implied.output
    seed = {
        "type": "customs",
        "role": "importer",
        "hs_code": "8471",
        "country_codes": "DEU",
        "start_date": "2024-01-01",
        "end_date": "2024-12-31",
    }
    assert fake.bodies == [
        {"query": "laptop importers", "seed": {**seed, "min_trade_count": 2}},
        {"query": "laptop importers", "seed": seed},
    ]
