"""Progress of a sandbox world build: timed stages shown as bars on a terminal or as log lines
elsewhere (a redirected `make serve` shows progress line by line), mirrored into a status file that
`/readyz` reads while `leadwire serve` builds the world in a separate process."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter
from typing import IO, Any

from leadwire.sandbox.config import size_config

Advance = Callable[[int], None]

# Seconds of each stage for the default world on 2 cores (measured, the machine busy): the weights
# of the overall percent. Shipments build on a second thread beside the text stages; counting them in
# full keeps the estimate simple and errs on the slow side.
WORLD_STAGES: dict[str, float] = {
    "companies": 1.1,
    "people": 4.5,
    "shipments": 13.0,
    "people → world.db": 2.9,
    "documents": 5.7,
    "posts": 10.6,
    "companies → world.db": 0.3,
    "indexes": 1.7,
}
INDEX_STAGES: dict[str, float] = {
    "search index: reading": 9.0,
    "search index: words": 8.3,
    "search index: embeddings": 145.0,
}


@dataclass(frozen=True)
class Expected:
    """What a first build costs, measured on 2 cores: disk, and wall-clock time on cores to itself and
    on cores shared with other work."""

    megabytes: int
    seconds: int
    busy_seconds: int


# `default`: 88 s built alone and 87 s under `serve` (install to world ready) on 2 quiet cores; 190 s
# alone and 276 s under `serve` on a day the same 2 cores ran other work (the embeddings are most of
# it). `large` is estimated from it: ten times the shipments. Disk: the trade file holds the shipments
# in both orders (`trade.write_for_companies`): 122 MB at 2M rows, 1,063 MB at 20M, and writing them
# takes about 6 s more at 2M (measured; the times above are from before).
EXPECTED: dict[str, Expected] = {
    "small": Expected(megabytes=10, seconds=8, busy_seconds=15),
    "default": Expected(megabytes=750, seconds=95, busy_seconds=285),
    "large": Expected(megabytes=1_700, seconds=170, busy_seconds=360),
}


def announcement(world_dir: Path, *, seed: int, size: str) -> str:
    """The first line of a build: a one-off job, what it makes, how big and how long."""
    cfg = size_config(size)
    expected = EXPECTED.get(size)
    rows = (
        f"{cfg.companies:,} companies, {cfg.people:,} people, {cfg.documents:,} documents, "
        f"{cfg.posts:,} posts, {cfg.shipments:,} shipments"
    )
    cost = (
        f"about {expected.megabytes:,} MB on disk, about {_duration(expected.seconds)} on 2 cores "
        f"(up to {_duration(expected.busy_seconds)} when they run other work)"
        if expected is not None
        else "size and time not measured"
    )
    return (
        f"one-off build of the sandbox world ({size}, seed {seed}: {rows}) and its search "
        f"index into {world_dir}: {cost}. Later starts reuse it."
    )


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min".replace(".0 min", " min")


@dataclass
class _Stage:
    name: str
    total: int
    started: float
    done: int = 0
    seconds: float | None = None

    @property
    def fraction(self) -> float:
        return 1.0 if self.seconds is not None else min(1.0, self.done / self.total)


class StageProgress:
    """Times the stages of a build (`seconds`) and knows how far it got; shows nothing itself.

    Thread-safe: shipments advance from a second thread. `expect` names the stages this build will
    run, each weighted by its typical seconds, so `percent` estimates the whole build."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.started = perf_counter()
        self._weights: dict[str, float] = {}
        self._stages: dict[str, _Stage] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> StageProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def expect(self, weights: dict[str, float]) -> None:
        self._weights.update(weights)

    @contextlib.contextmanager
    def stage(self, name: str, total: int) -> Iterator[Advance]:
        stage = _Stage(name, max(total, 1), perf_counter())
        with self._lock:
            self._stages[name] = stage
        self._began(stage)
        yield lambda n: self._advance(stage, n)
        with self._lock:
            stage.done = stage.total
            stage.seconds = self.seconds[name] = round(perf_counter() - stage.started, 3)
        self._ended(stage)

    def _advance(self, stage: _Stage, n: int) -> None:
        with self._lock:
            stage.done = min(stage.total, stage.done + n)

    def _began(self, stage: _Stage) -> None:
        """A stage started (subclasses show it)."""

    def _ended(self, stage: _Stage) -> None:
        """A stage finished (subclasses show it)."""

    def percent(self) -> float:
        """Overall progress estimate: each stage's share of its typical seconds."""
        with self._lock:
            weights = {**{name: 1.0 for name in self._stages}, **self._weights}
            done = sum(w * self._stages[n].fraction for n, w in weights.items() if n in self._stages)
        return round(100 * done / sum(weights.values()), 1) if weights else 0.0

    def elapsed(self) -> float:
        return round(perf_counter() - self.started, 1)

    def done_seconds(self) -> dict[str, float]:
        with self._lock:
            return dict(self.seconds)

    def running(self) -> list[_Stage]:
        with self._lock:
            return [s for s in self._stages.values() if s.seconds is None]

    def snapshot(self) -> dict[str, Any]:
        """The build as `/readyz` shows it: the latest running stage (or, between two, the one that just
        ended), its percent and the overall one."""
        running = self.running()
        with self._lock:
            current = running[-1] if running else next(reversed(self._stages.values()), None)
        return {
            "stage": current.name if current else None,
            "stage_percent": round(100 * current.fraction, 1) if current else None,
            "percent": self.percent(),
            "elapsed_seconds": self.elapsed(),
            "stages_done": self.done_seconds(),
        }


class LogLines(StageProgress):
    """One line per stage start and end, and every `interval` seconds one line per running stage,
    each with its elapsed time; mirrors the progress into `status_file` when given."""

    def __init__(
        self,
        stream: IO[str],
        *,
        status_file: Path | None = None,
        interval: float = 5.0,
        status: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.stream = stream
        self.status_file = status_file
        self.interval = interval
        self.status = status or {}
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self._writing = threading.Lock()  # the ticker and the stages write the one status file

    def __enter__(self) -> LogLines:
        self._ticker = threading.Thread(target=self._tick, name="world-build-progress", daemon=True)
        self._ticker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            for stage in self.running():
                self._line(
                    f"{stage.name} {stage.done:,}/{stage.total:,} ({100 * stage.fraction:.0f}%), "
                    f"{perf_counter() - stage.started:.1f} s"
                )
            self.write_status()

    def _began(self, stage: _Stage) -> None:
        self._line(f"{stage.name} ({stage.total:,}) started")
        self.write_status()

    def _ended(self, stage: _Stage) -> None:
        self._line(f"{stage.name} done in {stage.seconds:.1f} s")
        self.write_status()

    def _line(self, text: str) -> None:
        self.stream.write(f"world build: {text}; {self.percent():.0f}% after {self.elapsed():.0f} s\n")
        self.stream.flush()

    def write_status(self) -> None:
        if self.status_file is not None:
            with self._writing:
                write_status(self.status_file, {**self.status, **self.snapshot()})


class RichBars(StageProgress):
    """Rich progress bars on a terminal: one bar per stage with its count and elapsed time."""

    def __init__(self, stream: IO[str]) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        super().__init__()
        self.bars = Progress(
            TextColumn("{task.description:<26}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(file=stream),
        )
        self._tasks: dict[str, Any] = {}

    def __enter__(self) -> RichBars:
        self.bars.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bars.stop()

    def _began(self, stage: _Stage) -> None:
        self._tasks[stage.name] = self.bars.add_task(stage.name, total=stage.total)

    def _advance(self, stage: _Stage, n: int) -> None:
        super()._advance(stage, n)
        self.bars.advance(self._tasks[stage.name], n)

    def _ended(self, stage: _Stage) -> None:
        self.bars.update(self._tasks[stage.name], completed=stage.total)


def for_stream(stream: IO[str]) -> StageProgress:
    """Bars on a terminal; line by line when the output goes to a file or a pipe."""
    return RichBars(stream) if stream.isatty() else LogLines(stream)


def on_stderr(shown: bool) -> StageProgress:
    """Progress on stderr when `shown`, else stages timed without a word."""
    return for_stream(sys.stderr) if shown else StageProgress()


def status_path(world_dir: Path) -> Path:
    """Where a running build keeps its status: beside the world, which a build replaces whole."""
    return world_dir.with_name(f"{world_dir.name}.build.json")


def write_status(path: Path, status: dict[str, Any]) -> None:
    """Replace the status file atomically: a reader sees the old status or the new, never half."""
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_text(json.dumps(status, ensure_ascii=False))
    os.replace(partial, path)


def read_status(path: Path) -> dict[str, Any] | None:
    try:
        status = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return status if isinstance(status, dict) else None
