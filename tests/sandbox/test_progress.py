"""Progress of a world build shown line by line (output that is not a terminal) and mirrored into the
status file `/readyz` reads."""

from __future__ import annotations

import io
import re
from datetime import date
from pathlib import Path

from leadwire.sandbox.progress import (
    WORLD_STAGES,
    LogLines,
    announcement,
    read_status,
    status_path,
)
from leadwire.sandbox.world import build_world


def test_a_build_shown_line_by_line_times_every_stage_and_ends_at_100_percent(tmp_path: Path) -> None:
    world_dir = tmp_path / "world"
    out = io.StringIO()
    status_file = status_path(world_dir)
    with LogLines(out, status_file=status_file, interval=0.01, status={"state": "building"}) as lines:
        lines.expect(WORLD_STAGES)
        stats = build_world(world_dir, seed=7, size="small", as_of=date(2026, 11, 1), progress=lines)
    text = out.getvalue()
    assert set(stats.stage_seconds) == set(WORLD_STAGES)  # the weights name the stages a build runs
    for stage in WORLD_STAGES:
        assert re.search(
            rf"^world build: {re.escape(stage)} \([\d,]+\) started; \d+% after \d+ s$", text, re.M
        )
        assert re.search(rf"^world build: {re.escape(stage)} done in [\d.]+ s; \d+% after \d+ s$", text, re.M)
    assert "world build: shipments (20,000) started" in text  # each shipment counted once
    assert lines.percent() == 100.0
    status = read_status(status_file)
    assert status is not None and status["state"] == "building" and status["percent"] == 100.0
    assert set(status["stages_done"]) == set(WORLD_STAGES)


def test_percent_weighs_each_stage_by_its_typical_seconds(tmp_path: Path) -> None:
    lines = LogLines(io.StringIO())
    lines.expect({"quick": 1.0, "slow": 3.0})
    with lines.stage("quick", 10) as advance:
        advance(10)
    assert lines.percent() == 25.0
    with lines.stage("slow", 10) as advance:
        advance(5)
        assert lines.percent() == 62.5
        assert lines.snapshot()["stage"] == "slow" and lines.snapshot()["stage_percent"] == 50.0


def test_the_announcement_says_one_off_with_size_and_time() -> None:
    text = announcement(Path("var/world"), seed=7, size="default")
    assert text.startswith("one-off build of the sandbox world (default, seed 7: 20,000 companies")
    assert "2,000,000 shipments" in text and "MB on disk" in text and "min on 2 cores" in text
