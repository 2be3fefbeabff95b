"""Memory of an API process after a storm of streams, and what giving it back costs (issue 35).

One `leadwire api` process on PostgreSQL; `--rounds` (3) rounds of `--clients` (1000) SSE clients (a
child process, raw sockets: `websets_sse.py --clients-of`) following one running webset each round,
which is sent 5 `items.changed` events and then `complete`, ending every stream. The process's RSS
(VmRSS) is read idle, at the peak of each round (all clients connected) and 2 s after each round's
streams ended; twice, in the same run: with the heap trimmed when the last stream of the burst ends
(`LEADWIRE_MEMORY_TRIM_AFTER_STREAMS=100`) and without (`=0`, the default). The baseline is the process
idle (before any stream), the floor to come back to.

With `--probe`, the process runs under `_memory_probe.py` and reports, idle and after each round, where
its memory is: live objects, pymalloc's arenas, glibc's heap (`_memory_probe.py` says what each is).

    .venv/bin/python bench/stream_memory.py [--clients 1000] [--rounds 3] [--probe]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _stream_seed as seeding
import _support as bs
import websets_sse as sse


async def _round(
    url: str, database_url: str, clients: int, pid: int, tmp: Path, n: int
) -> tuple[float, float]:
    """One storm: (RSS at its peak, RSS 2 s after its streams ended), in MB."""
    from sqlalchemy import select

    from leadwire.platform.db import make_engine, make_sessionmaker
    from leadwire.platform.notify import make_notifier
    from leadwire.platform.time import utcnow
    from leadwire.websets import states
    from leadwire.websets.models import Webset

    webset_id, key, cursor = await seeding.running_webset(database_url)
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    notifier = make_notifier(database_url)

    async def change(finish: bool) -> None:
        async with sessions() as session:
            statement = select(Webset).where(Webset.id == webset_id).with_for_update()
            webset = (await session.execute(statement)).scalar_one()
            if finish:
                await states.finish(session, notifier, webset, "completed", "goal_reached", job_id=None)
            else:
                webset.items_revision += 1
                webset.updated_at = utcnow()
                await states.append_changed(
                    session, notifier, webset, [seeding.company_item(webset.items_revision)], []
                )  # type: ignore[list-item]
            await session.commit()

    path = f"/api/v2/websets/{webset_id}/items/stream?stream_cursor={cursor}"
    out = tmp / f"clients-{n}.json"
    argv = [sys.executable, sse.__file__, "--clients-of", url, "--path", path, "--key", key]
    argv += ["--clients", str(clients), "--out", str(out), "--deadline", "90"]
    child = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE, env=bs.child_env())
    assert child.stdout is not None
    line = (await asyncio.wait_for(child.stdout.readline(), 120)).decode().strip()
    bs.note(f"round {n}: {line} of {clients} streams")
    peak = bs.vm_rss_mb(pid)
    try:
        for _ in range(5):
            await change(finish=False)
            await asyncio.sleep(0.2)
            peak = max(peak, bs.vm_rss_mb(pid))
        await change(finish=True)
        await asyncio.wait_for(child.wait(), 120)
    finally:
        await engine.dispose()
    await asyncio.sleep(2.0)
    return peak, bs.vm_rss_mb(pid)


PROBE = Path(__file__).with_name("_memory_probe.py")


def _probed(pid: int, out: Path) -> dict[str, Any]:
    """The probe's report of process `pid` (SIGUSR2, then its line in `out`)."""
    before = out.read_text().count("\n") if out.exists() else 0
    os.kill(pid, signal.SIGUSR2)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        lines = out.read_text().splitlines() if out.exists() else []
        if len(lines) > before:
            return dict(json.loads(lines[-1]))
        time.sleep(0.1)
    raise RuntimeError("no memory report within 30 s")


def _say_probe(label: str, found: dict[str, Any]) -> None:
    py, libc = found["pymalloc"], found["glibc"]
    bs.note(
        f"  {label}: RSS {found['rss_mb']:.0f} MB, {found['rss_after_trim_mb']:.0f} MB once trimmed; "
        f"gc objects {found['gc_objects']}, pymalloc blocks {found['allocated_blocks']}; "
        f"arenas {py['arenas_now']} (highest {py['arenas_highest']}), {py['in_blocks_mb']:.1f} MB in blocks, "
        f"{py['free_in_arenas_mb']:.1f} MB free inside arenas; glibc heap {libc['heap_mb']:.1f} MB "
        f"({libc['in_use_mb']:.1f} in use, {libc['free_mb']:.1f} free, top {libc['trimmable_top_mb']:.1f}), "
        f"mmapped {libc['mmapped_mb']:.1f} MB"
    )
    bs.note(f"    top types: {', '.join(f'{name} {n}' for name, n in found['top_types'][:8])}")


def _variant(
    trim_after: int, clients: int, rounds: int, probe: bool = False, python_malloc: bool = False
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-mem-") as tmp_name:
        tmp = Path(tmp_name)
        with bs.temp_postgres_database("mem") as pg_url:
            database_url = bs.sqlalchemy_url(pg_url)
            caps = str(clients + 10)
            env = bs.leadwire_env(
                tmp / "data", database_url=database_url, pycache=tmp / "pycache",
                LEADWIRE_STREAM_LIMIT_PER_KEY=caps, LEADWIRE_STREAM_LIMIT_PER_ACCOUNT=caps,
                LEADWIRE_MEMORY_TRIM_AFTER_STREAMS=str(trim_after),
            )  # fmt: skip
            bs.run_checked(bs.leadwire_cmd("migrate"), env)
            if python_malloc:  # objects on glibc's heap, where a trim reaches them, not in pymalloc's arenas
                env["PYTHONMALLOC"] = "malloc"
            port = str(bs.free_port())
            command = bs.leadwire_cmd("api", "--port", port)
            if probe:
                command = [sys.executable, str(PROBE), *command[1:]]
                env["LEADWIRE_MEMORY_PROBE_OUT"] = str(tmp / "probe.jsonl")
            with bs.running(command, env, tmp / "api.log") as api:
                url = f"http://127.0.0.1:{port}"
                bs.wait_http_ok(f"{url}/readyz", api, timeout=120.0)
                time.sleep(1.0)
                idle = bs.vm_rss_mb(api.pid)
                if probe:
                    _say_probe(f"idle ({idle:.0f} MB)", _probed(api.pid, tmp / "probe.jsonl"))
                peaks, afters = [], []
                for n in range(1, rounds + 1):
                    peak, after = asyncio.run(_round(url, database_url, clients, api.pid, tmp, n))
                    peaks.append(peak)
                    afters.append(after)
                    if probe:
                        _say_probe(f"after round {n} ({after:.0f} MB)", _probed(api.pid, tmp / "probe.jsonl"))
            _say_log_errors(tmp / "api.log")
    return {"idle": idle, "peaks": peaks, "afters": afters}


def _say_log_errors(log: Path) -> None:
    """What the server logged as an error through the storms and its stop (none expected)."""
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    marks = ("Exception in ASGI application", "Traceback", "CancelledError", '"level": "error"')
    errors = [line for line in lines if any(mark in line for mark in marks)]
    bs.note(f"  server log: {len(errors)} error lines" + (f"; first: {errors[0][:300]}" if errors else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--probe", action="store_true", help="say where the memory is (untrimmed only)")
    parser.add_argument(
        "--python-malloc", action="store_true", help="the server with PYTHONMALLOC=malloc (no arenas)"
    )
    args = parser.parse_args()
    if not bs.postgres_reachable():
        bs.note(f"skipped: PostgreSQL not reachable at {bs.PG_URL}")
        return
    if args.probe:
        _variant(0, args.clients, args.rounds, probe=True, python_malloc=args.python_malloc)
        return
    for label, trim_after in (("untrimmed", 0), ("trimmed", 100)):
        label += "_python_malloc" if args.python_malloc else ""
        found = _variant(trim_after, args.clients, args.rounds, python_malloc=args.python_malloc)
        bs.note(
            f"{label}: idle {found['idle']:.0f} MB; peaks "
            + ", ".join(f"{p:.0f}" for p in found["peaks"])
            + " MB; after each round "
            + ", ".join(f"{a:.0f}" for a in found["afters"])
            + " MB"
        )
        after = found["afters"][-1]
        bs.emit_triple(
            f"stream_memory_after_storm_{label}_mb", after, found["idle"], "MB",
            ratio=bs.safe_ratio(after, found["idle"]),
            target=f"RSS 2 s after round {args.rounds} of {args.clients} streams; baseline: the process idle",
        )  # fmt: skip
        bs.emit(f"stream_memory_peak_{label}_mb", max(found["peaks"]), "MB")


if __name__ == "__main__":
    main()
