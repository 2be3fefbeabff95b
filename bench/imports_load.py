"""Another account's writes while a 100,000-line suppression CSV is imported, on SQLite.

`leadwire serve` on a fresh SQLite database (its in-process worker beside the API, the documented
single-process deployment). One account sends `POST /api/v2/outreach/suppressions`, one at a time
every `--every` seconds, each a new address; its latency is measured twice in one run on one server:
first with nothing else going on (the baseline), then while a second account imports a CSV of
`--lines` (100,000) good lines through `POST /api/v2/outreach/suppressions/import` (checked in a child
process, written in batches of their own transactions). Figures: the writes' p50 and p99 with the
import and without, and their ratio; how many of them failed; how long the import took. Target: p99
under 100 ms during the import.

    .venv/bin/python bench/imports_load.py [--lines 100000] [--every 0.02]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

import _support as bs


def _csv(lines: int) -> bytes:
    rows = (f"email,user{n}@firm{n % 997}.example,opted out\n" for n in range(lines))
    return ("channel,value,reason\n" + "".join(rows)).encode()


def _writes(
    base: str, key: str, tag: str, *, every: float, until: threading.Event | None, count: int
) -> dict[str, Any]:
    """Writes one at a time, `every` seconds apart: `count` of them, or until `until` is set."""
    latencies: list[float] = []
    starts: list[float] = []
    failed = 0
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, timeout=30.0) as client:
        n = 0
        while (until is None and n < count) or (until is not None and not until.is_set() and n < 100_000):
            started = time.perf_counter()
            answer = client.post(
                "/api/v2/outreach/suppressions",
                json={"channel": "email", "value": f"{tag}{n}@other.example"},
                headers=headers,
            )
            latencies.append(time.perf_counter() - started)
            starts.append(started)
            failed += answer.status_code != 201
            n += 1
            time.sleep(every)
    return {"latencies": latencies, "starts": starts, "failed": failed}


def measure(tmp: Path, args: argparse.Namespace) -> None:
    data_dir = tmp / "sqlite"
    env = bs.leadwire_env(data_dir, plugins="bench.plugins.unlimited")
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    from leadwire.config import Settings

    resolved = Settings(data_dir=data_dir).resolved_database_url
    (_, ((_, importer),)), (_, ((_, writer),)) = asyncio.run(bs.create_accounts(resolved, [0, 0]))
    body = _csv(args.lines)
    port = str(bs.free_port())
    base = f"http://127.0.0.1:{port}"
    with bs.running(
        bs.leadwire_cmd("serve", "--no-build-world", "--port", port), env, tmp / "serve.log"
    ) as server:
        bs.wait_http_ok(f"{base}/readyz", server, timeout=120.0)
        # The child process that checks a CSV starts at the first import: a small one starts it.
        small = httpx.post(
            f"{base}/api/v2/outreach/suppressions/import",
            content=_csv(10),
            headers={"Authorization": f"Bearer {importer}", "Content-Type": "text/csv"},
            timeout=120.0,
        )
        small.raise_for_status()
        alone = _writes(base, writer, "alone", every=args.every, until=None, count=args.baseline)
        done = threading.Event()
        outcome: dict[str, Any] = {}

        def run_import() -> None:
            started = time.perf_counter()
            answer = httpx.post(
                f"{base}/api/v2/outreach/suppressions/import",
                content=body,
                headers={"Authorization": f"Bearer {importer}", "Content-Type": "text/csv"},
                timeout=600.0,
            )
            outcome.update(
                seconds=time.perf_counter() - started, status=answer.status_code, body=answer.json()
            )
            done.set()

        importing = threading.Thread(target=run_import)
        importing.start()
        during = _writes(base, writer, "during", every=args.every, until=done, count=0)
        importing.join()
    if outcome["status"] != 200:
        raise RuntimeError(f"the import answered {outcome['status']}: {outcome['body']}")
    item = outcome["body"]["item"]
    bs.note(
        f"import of {args.lines:,} lines: {outcome['seconds']:.1f} s, added {item['added']:,}, "
        f"{len(during['latencies'])} writes during it, {len(alone['latencies'])} alone"
    )
    # Where in the import the slow writes fall: its first part is the child checking the lines (the
    # server shares the CPU with it), the last the batches.
    first, last = during["starts"][0], during["starts"][-1]
    for tenth in range(10):
        low, high = first + (last - first) * tenth / 10, first + (last - first) * (tenth + 1) / 10
        inside = [x for t, x in zip(during["starts"], during["latencies"], strict=True) if low <= t <= high]
        if inside:
            bs.note(
                f"tenth {tenth + 1} of the import: {len(inside)} writes, p50 "
                f"{bs.percentile(inside, 50) * 1000:.0f} ms, p99 {bs.percentile(inside, 99) * 1000:.0f} ms"
            )
    for q in (50, 99):
        with_import = bs.percentile(during["latencies"], q) * 1000
        without = bs.percentile(alone["latencies"], q) * 1000
        bs.emit_triple(
            f"suppression_write_p{q}_during_import_sqlite", with_import, without, "ms",
            ratio=bs.safe_ratio(with_import, without),
            target="p99 under 100 ms; baseline: the same writes with no import, same server and run",
        )  # fmt: skip
    bs.emit("suppression_writes_failed_during_import_sqlite", during["failed"], "writes")
    bs.emit("suppression_import_seconds_sqlite", outcome["seconds"], "s", note=f"{args.lines:,} lines")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=100_000, help="lines of the imported CSV")
    parser.add_argument("--every", type=float, default=0.02, help="seconds between two writes")
    parser.add_argument("--baseline", type=int, default=300, help="writes measured with no import")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="leadwire-imports-") as raw:
        measure(Path(raw), args)


if __name__ == "__main__":
    main()
