"""Runs every benchmark listed in BENCHMARKS in turn, each as its own process, then prints a summary.

Each benchmark prints figure lines `name: value unit` (with `name_baseline` and a ratio beside each
figure); this runner streams their output and repeats all figure lines, grouped by benchmark, at the
end. A listed file that does not exist yet is skipped with a note; a benchmark that fails or runs past
its time limit is reported and the others still run (the exit status is then 1).

    .venv/bin/python bench/run.py [NAME ...] [--timeout SECONDS]
    (`make bench` installs the `bench` extra and runs this)
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent

# (script, extra arguments). Add yours here. `serve_startup.py --cold` (git clone + make serve) is
# slow and needs PyPI: run it by hand.
BENCHMARKS: list[tuple[str, list[str]]] = [
    ("world_build.py", []),
    ("search_quality.py", []),
    ("real_discovery.py", []),
    ("websets_quality.py", []),
    ("websets_real.py", []),
    ("websets_speed.py", []),
    ("websets_speed.py", ["--query", "B2B companies in Europe selling industrial equipment"]),
    ("search_latency.py", []),
    ("hierarchy_quality.py", []),
    ("post_like_relevance.py", []),
    ("contacts_latency.py", []),
    ("serve_startup.py", []),
    ("jobs_throughput.py", []),
    ("jobs_http.py", []),
    ("prefer_wait_lag.py", []),
    ("wait_overhead.py", []),
    ("job_read_rps.py", []),
    ("job_poll_payload.py", []),
    ("soak.py", []),
    ("dispatch.py", []),
    ("held_queue.py", []),
    ("console_pages.py", []),
    ("console_live.py", []),
    ("customs.py", []),
    ("customs_scale.py", []),
    ("search_scale.py", []),
    ("websets_sse.py", []),
    ("websets_sse.py", ["--api-processes", "2"]),
    ("cluster_load.py", []),
    ("webhooks.py", []),
    ("imports_load.py", []),
    ("websets_export.py", []),
    ("enrichment_quality.py", []),
    ("enrichment_speed.py", []),
    ("monitor_lag.py", []),
    ("trade_seed_quality.py", []),
]

FIGURE = re.compile(r"^[A-Za-z][\w.\-]*: \S")


def run_one(script: Path, extra: list[str], timeout: float) -> tuple[int | None, list[str], float]:
    """(exit code or None on timeout, figure lines, seconds); output is streamed as it comes."""
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, str(script), *extra],
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
        start_new_session=True,  # its servers and workers share its process group
    )
    timed_out = threading.Event()

    def stop() -> None:
        timed_out.set()
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return

    timer = threading.Timer(timeout, stop)
    timer.start()
    figures: list[str] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            if FIGURE.match(line):
                figures.append(line.rstrip("\n"))
        code = process.wait()
    finally:
        timer.cancel()
    return (None if timed_out.is_set() else code), figures, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="run only these (file names, with or without .py)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds allowed per benchmark")
    args = parser.parse_args()
    wanted = {name if name.endswith(".py") else f"{name}.py" for name in args.names}
    summary: list[tuple[str, str, list[str]]] = []
    failed = False
    for name, extra in BENCHMARKS:
        if wanted and name not in wanted:
            continue
        script = BENCH / name
        if not script.exists():
            print(f"== {name}: skipped (bench/{name} does not exist yet)\n", flush=True)
            summary.append((name, "skipped: not present", []))
            continue
        print(f"== {name}", flush=True)
        code, figures, seconds = run_one(script, extra, args.timeout)
        if code is None:
            status = f"timed out after {args.timeout:.0f} s"
        elif code != 0:
            status = f"failed (exit {code}) after {seconds:.0f} s"
        else:
            status = f"ok in {seconds:.0f} s"
        failed = failed or code != 0
        print(f"== {name}: {status}\n", flush=True)
        summary.append((name, status, figures))
    print("== summary")
    for name, status, figures in summary:
        print(f"-- {name}: {status}")
        for line in figures:
            print(f"   {line}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
