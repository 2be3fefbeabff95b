"""Webset SSE fan-out: event written → received by each of 500 clients on ONE API process, p50/p99.

Measures: `--clients` (500) concurrent `GET /api/v2/websets/{id}/items/stream` on one `leadwire api`
process (uvicorn, 1 process) over PostgreSQL, all following the same webset (status `searching`).
This process writes `--events` (60) `items.changed` events at `--rate` (5/s) the way discovery does:
one transaction that locks the webset, bumps `items_revision` and calls `websets.states.append_changed`
(so `pg_notify` reaches the API's LISTEN connection, as from a `leadwire worker`); then
`states.finish` appends `complete`, which ends every stream. The clients run in a child process
(raw asyncio streams, HTTP/1.1 chunked decoding, one socket each) and stamp each SSE `id:` (the
event's `seq`) with `time.time()` when its chunk is decoded.
Latency = receive time − write time, where the write time is taken just before the event's
transaction commits (for the baseline, just before the publish request is sent); over all
clients × events. A client that connected but misses a written event counts as lost (must be 0).
Streams start at an explicit `stream_cursor` taken before the clients connect, so a slow subscription
shows as latency (replay), never as a loss. One warm-up event precedes the measured ones.
Baseline (same run, same client process, same uvicorn settings): a bare Starlette app whose
`GET /stream` is a StreamingResponse fed by an in-memory queue per client and whose `POST /publish`
puts one event (same payload) into every queue: the floor of fanning one event out to 500 sockets
from one process. Ratio: Leadwire ÷ bare (lower is better). Target: p99 <= 250 ms.
With `--api-processes 2` the clients connect to `leadwire cluster --api 2 --workers 0` (one address,
two API processes, PostgreSQL + Redis): the kernel spreads them over both, and each process follows
through its own LISTEN connection (figures `websets_sse_2_api_*`; the baseline stays one bare process).
SQLite is not measured: its notifier is in-process (`leadwire serve` writes from its own worker), so
a writer in another process is only seen by the followers' 1 s re-read.

    .venv/bin/python bench/websets_sse.py [--clients 500] [--events 60] [--rate 5]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _stream_seed as seeding
import _support as bs

TARGET_P99_MS = 250.0
CONNECT_PARALLEL = 64
BENCH_KEEP_LOG = os.environ.get(
    "BENCH_KEEP_LOG", ""
)  # copy the API log there  # connections being opened at once by the client process


# --- the client process (run as `websets_sse.py --clients-of URL ...`) ------------------------------


async def _one_client(
    host: str, port: int, request: bytes, received: list[tuple[int, float]], connected: asyncio.Event
) -> str | None:
    """Follows one stream until it ends; None, or why it failed."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(request)
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            rest = await asyncio.wait_for(reader.read(2000), 2)
            return f"{status.decode(errors='replace').strip()} {rest[-300:]!r}"
        chunked = False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
                chunked = True
        connected.set()
        pending = b""
        complete = False
        while True:
            if chunked:
                size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    return None if complete else "stream ended before `complete`"
                data = await reader.readexactly(size + 2)
                data = data[:-2]
            else:
                data = await reader.read(65536)
                if not data:
                    return None if complete else "stream ended before `complete`"
            now = time.time()
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line.startswith(b"id:"):
                    received.append((int(line[3:].strip()), now))
                elif line.startswith(b"event:") and line[6:].strip() == b"complete":
                    complete = True
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def _clients_main(url: str, path: str, key: str, count: int, out: Path, deadline: float) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count * 2 + 256)), hard))
    host, port = url.removeprefix("http://").split(":")
    headers = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Accept: text/event-stream"]
    if key:
        headers.append(f"Authorization: Bearer {key}")
    request = ("\r\n".join(headers) + "\r\n\r\n").encode()
    received: list[list[tuple[int, float]]] = [[] for _ in range(count)]
    flags = [asyncio.Event() for _ in range(count)]
    gate = asyncio.Semaphore(CONNECT_PARALLEL)
    errors: list[str] = []

    async def client(index: int) -> None:
        async with gate:
            task = asyncio.ensure_future(_one_client(host, int(port), request, received[index], flags[index]))
            waiter = asyncio.ensure_future(flags[index].wait())
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        try:
            error = await task
        except Exception as exc:  # reported, counted as not connected or cut
            error = f"{type(exc).__name__}: {exc}"
        if error:
            errors.append(error)

    tasks = [asyncio.ensure_future(client(i)) for i in range(count)]
    started = time.monotonic()
    while not all(f.is_set() for f in flags) and time.monotonic() - started < 60:
        if all(t.done() for t in tasks):
            break
        await asyncio.sleep(0.05)
    print(f"connected {sum(f.is_set() for f in flags)}", flush=True)
    _done, late = await asyncio.wait(tasks, timeout=deadline)
    for task in late:
        task.cancel()
    out.write_text(
        json.dumps(
            {
                "connected": [f.is_set() for f in flags],
                "received": received,
                "errors": errors[:20],
                "n_errors": len(errors),
                "unfinished": len(late),
            }
        )
    )


# --- the bare baseline server (run as `websets_sse.py --serve-baseline --port P`) --------------------


def serve_baseline(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    queues: set[asyncio.Queue[bytes | None]] = set()

    async def stream(request: Request) -> Response:
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        queues.add(queue)

        async def body() -> Any:
            try:
                while (message := await queue.get()) is not None:
                    yield message
            finally:
                queues.discard(queue)

        return StreamingResponse(
            body(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    async def publish(request: Request) -> Response:
        event = await request.json()
        message = f"id: {event['id']}\nevent: {event['type']}\ndata: {event['data']}\n\n".encode()
        for queue in list(queues):
            queue.put_nowait(message)
            if event["type"] == "complete":
                queue.put_nowait(None)
        return Response(status_code=204)

    async def readyz(request: Request) -> Response:
        return Response(b'{"ok":true}', media_type="application/json")

    app = Starlette(
        routes=[
            Route("/stream", stream),
            Route("/publish", publish, methods=["POST"]),
            Route("/readyz", readyz),
        ]
    )
    # The uvicorn settings of `leadwire api` (leadwire.platform.http.server.uvicorn_config), bare protocol.
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, http="httptools", log_config=None, access_log=False, lifespan="on"
    )
    uvicorn.Server(config).run()


# --- measurement -------------------------------------------------------------------------------------


@dataclass
class Result:
    latencies_ms: list[float] = field(default_factory=list)
    clients: int = 0
    connected: int = 0
    written: int = 0
    lost: int = 0
    errors: list[str] = field(default_factory=list)
    server_cpu_s: float = 0.0
    wall_s: float = 0.0
    db_transactions: float = float("nan")


def _cpu_seconds(pid: int) -> float:
    """CPU of the server process and its live children (the API processes of `leadwire cluster`)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / 100.0  # utime + stime, clock ticks of 10 ms
    children = Path(f"/proc/{pid}/task/{pid}/children")
    kids = [int(child) for child in children.read_text().split()] if children.exists() else []
    return own + sum(_cpu_seconds(kid) for kid in kids if Path(f"/proc/{kid}/stat").exists())


async def _drive(
    tmp: Path,
    label: str,
    url: str,
    path: str,
    key: str,
    server_pid: int,
    args: argparse.Namespace,
    write: Callable[[int, list[dict[str, Any]]], Awaitable[tuple[int, float]]],
    complete: Callable[[], Awaitable[None]],
    transactions: Callable[[], Awaitable[float]] | None = None,
) -> Result:
    """Connect the clients, write the events at the rate, end the streams, collect receive times."""
    out = tmp / f"clients-{label}.json"
    deadline = args.events / args.rate + 40
    argv = [sys.executable, __file__, "--clients-of", url, "--path", path, "--key", key]
    argv += ["--clients", str(args.clients), "--out", str(out), "--deadline", str(deadline)]
    child = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE, env=bs.child_env())
    assert child.stdout is not None
    line = (await asyncio.wait_for(child.stdout.readline(), 90)).decode().strip()
    bs.note(f"{label}: {line} of {args.clients} streams")
    await asyncio.sleep(1.0)
    await write(-1, [seeding.company_item(0)])  # warm-up, not measured
    await asyncio.sleep(1.0)
    written: dict[int, float] = {}
    xact0 = await transactions() if transactions else float("nan")
    cpu0, wall0 = _cpu_seconds(server_pid), time.monotonic()
    for n in range(args.events):
        delay = wall0 + n / args.rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        seq, at = await write(n, [seeding.company_item(n * 3 + i + 1) for i in range(3)])
        written[seq] = at
    await asyncio.sleep(1.0)
    cpu1, wall1 = _cpu_seconds(server_pid), time.monotonic()
    if transactions:
        await asyncio.sleep(1.5)  # PostgreSQL flushes a busy backend's counters about every second
    xact1 = await transactions() if transactions else float("nan")
    await complete()
    await asyncio.wait_for(child.wait(), deadline + 30)
    data = json.loads(out.read_text())
    result = Result(clients=args.clients, written=len(written), errors=data["errors"])
    result.server_cpu_s, result.wall_s = cpu1 - cpu0, wall1 - wall0
    result.db_transactions = xact1 - xact0
    if data["n_errors"] or data["unfinished"]:
        result.errors.insert(0, f"{data['n_errors']} client errors, {data['unfinished']} streams not ended")
    for ok, events in zip(data["connected"], data["received"], strict=True):
        if not ok:
            continue
        result.connected += 1
        got = {seq: at for seq, at in events if seq in written}
        result.lost += len(written) - len(got)
        result.latencies_ms.extend((at - written[seq]) * 1000 for seq, at in got.items())
    return result


async def _measure_leadwire(
    tmp: Path, url: str, database_url: str, server_pid: int, seeded: tuple[str, str, int], args: Any
) -> Result:
    from sqlalchemy import select, text

    from leadwire.platform.db import make_engine, make_sessionmaker
    from leadwire.platform.notify import make_notifier
    from leadwire.platform.time import utcnow
    from leadwire.websets import states
    from leadwire.websets.models import Webset

    webset_id, key, cursor = seeded
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    notifier = make_notifier(database_url)  # publishes pg_notify in the transaction; never listens

    async def locked(session: Any) -> Webset:
        statement = select(Webset).where(Webset.id == webset_id).with_for_update()
        return (await session.execute(statement)).scalar_one()

    async def write(n: int, items: list[dict[str, Any]]) -> tuple[int, float]:
        async with sessions() as session:
            webset = await locked(session)
            webset.items_revision += 1
            webset.verified += 4
            webset.qualified += len(items)
            webset.full += len(items)
            webset.progress_updated_at = webset.updated_at = utcnow()
            seq = await states.append_changed(session, notifier, webset, items, [])  # type: ignore[arg-type]
            at = time.time()
            await session.commit()
        return seq, at

    async def complete() -> None:
        async with sessions() as session:
            await states.finish(
                session, notifier, await locked(session), "completed", "goal_reached", job_id=None
            )
            await session.commit()

    async def transactions() -> float:
        async with sessions() as session:
            statement = text(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
            )
            return float(await session.scalar(statement) or 0)

    path = f"/api/v2/websets/{webset_id}/items/stream?stream_cursor={cursor}"
    try:
        return await _drive(tmp, "leadwire", url, path, key, server_pid, args, write, complete, transactions)
    finally:
        await engine.dispose()


async def _measure_baseline(tmp: Path, url: str, server_pid: int, args: Any) -> Result:
    import httpx
    import orjson

    from leadwire.platform.time import iso, utcnow

    counter = iter(range(1, 1_000_000))
    revision = iter(range(1, 1_000_000))

    async with httpx.AsyncClient(base_url=url, timeout=30.0) as client:

        async def write(n: int, items: list[dict[str, Any]]) -> tuple[int, float]:
            seq = next(counter)
            payload = {  # the shape of append_changed's payload, plus stream_cursor as the stream adds
                "webset_id": "ws_bench",
                "items_revision": next(revision),
                "webset_status": "searching",
                "progress": {
                    "stage": "searching",
                    "goal": 1000,
                    "verified": 4 * seq,
                    "updated_at": iso(utcnow()),
                },
                "items": items,
                "removed": [],
                "stream_cursor": seq,
            }
            body = {"id": seq, "type": "items.changed", "data": orjson.dumps(payload).decode()}
            at = time.time()
            (await client.post("/publish", json=body)).raise_for_status()
            return seq, at

        async def complete() -> None:
            body = {"id": next(counter), "type": "complete", "data": "{}"}
            (await client.post("/publish", json=body)).raise_for_status()

        return await _drive(tmp, "baseline", url, "/stream", "", server_pid, args, write, complete)


def _report(leadwire: Result, bare: Result, prefix: str) -> None:
    for label, result in (("leadwire", leadwire), ("baseline", bare)):
        bs.note(
            f"{label}: {result.connected}/{result.clients} streams, {result.written} events written, "
            f"{len(result.latencies_ms)} deliveries, {result.lost} lost; server CPU "
            f"{result.server_cpu_s:.1f} s over {result.wall_s:.1f} s of writing"
        )
        if result.db_transactions == result.db_transactions:  # not NaN
            bs.note(
                f"{label}: ~{result.db_transactions:.0f} database transactions during the writing "
                f"(pg_stat_database; ~{result.db_transactions / max(result.written, 1):.0f} per event "
                f"incl. the writer's own)"
            )
        for error in result.errors[:5]:
            bs.note(f"{label}: {error}")
    p50, p99 = bs.percentile(leadwire.latencies_ms, 50), bs.percentile(leadwire.latencies_ms, 99)
    b50, b99 = bs.percentile(bare.latencies_ms, 50), bs.percentile(bare.latencies_ms, 99)
    bs.emit_triple(
        f"{prefix}_p50_ms",
        p50,
        b50,
        "ms",
        ratio=bs.safe_ratio(p50, b50),
        target="Leadwire / bare; no target",
    )
    bs.emit_triple(
        f"{prefix}_p99_ms",
        p99,
        b99,
        "ms",
        ratio=bs.safe_ratio(p99, b99),
        target=f"Leadwire / bare; target p99 <= {TARGET_P99_MS:.0f} ms: {bs.verdict(p99 <= TARGET_P99_MS)}",
    )
    bs.emit_triple(
        f"{prefix}_max_ms",
        max(leadwire.latencies_ms, default=float("nan")),
        max(bare.latencies_ms, default=float("nan")),
        "ms",
        ratio=bs.safe_ratio(max(leadwire.latencies_ms, default=0), max(bare.latencies_ms, default=0)),
        target="Leadwire / bare; no target",
    )
    bs.emit_triple(
        f"{prefix}_clients_connected",
        leadwire.connected,
        bare.connected,
        "clients",
        ratio=bs.safe_ratio(leadwire.connected, bare.connected),
        target=f"of {leadwire.clients}",
    )
    bs.emit_triple(
        f"{prefix}_events_lost",
        leadwire.lost,
        bare.lost,
        "deliveries",
        ratio=float(leadwire.lost - bare.lost),
        ratio_name=f"{prefix}_events_lost_diff",
        target=f"Leadwire - bare, of {leadwire.written} events x {leadwire.connected} clients; "
        f"must be 0: {bs.verdict(leadwire.lost == 0)}",
    )


def _log_errors(log: Path) -> None:
    """The API's errors during the run (a stream that fails ends early: its events count as lost)."""
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    errors = [line for line in lines if "Error" in line or "Timeout" in line or '"level": "error"' in line]
    if errors:
        bs.note(f"api log: {len(errors)} error lines; first: {errors[0][:400]}")
    if BENCH_KEEP_LOG:
        (Path(BENCH_KEEP_LOG)).write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--rate", type=float, default=5.0, help="events written per second")
    parser.add_argument(
        "--api-processes",
        type=int,
        default=1,
        help="API processes: above 1, `leadwire cluster --api N --workers 0` on one address (Redis too)",
    )
    parser.add_argument("--api-plugins", default="", help="LEADWIRE_PLUGINS of the API (to try a change)")
    parser.add_argument("--api-pythonpath", default="", help="prepended to the API's PYTHONPATH")
    parser.add_argument("--serve-baseline", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--clients-of", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    parser.add_argument("--key", default="", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--deadline", type=float, default=60.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_baseline:
        serve_baseline(args.port)
        return
    if args.clients_of:
        asyncio.run(
            _clients_main(args.clients_of, args.path, args.key, args.clients, Path(args.out), args.deadline)
        )
        return
    args.clients = min(args.clients, 500)
    processes = "one process" if args.api_processes == 1 else f"{args.api_processes} API processes"
    bs.note(
        f"{args.clients} SSE clients on {processes}; {args.events} events at {args.rate:g}/s "
        f"(+1 warm-up); latency = received - written (just before commit / publish)"
    )
    if not bs.postgres_reachable():
        bs.note(f"skipped: PostgreSQL not reachable at {bs.PG_URL}")
        return
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-sse-") as tmp_name:
        tmp = Path(tmp_name)
        with bs.temp_postgres_database("sse") as pg_url:
            database_url = bs.sqlalchemy_url(pg_url)
            # One key holds every client's stream here: the per-key and per-account stream caps are
            # raised to the bench's client count (a deployment keeps the defaults).
            caps = str(args.clients + 10)
            env = bs.leadwire_env(
                tmp / "data", database_url=database_url, plugins=args.api_plugins, pycache=tmp / "pycache",
                LEADWIRE_STREAM_LIMIT_PER_KEY=caps, LEADWIRE_STREAM_LIMIT_PER_ACCOUNT=caps,
            )  # fmt: skip
            if args.api_pythonpath:
                env["PYTHONPATH"] = f"{args.api_pythonpath}:{env['PYTHONPATH']}"
                bs.note(f"API with LEADWIRE_PLUGINS={args.api_plugins} from {args.api_pythonpath}")
            bs.run_checked(bs.leadwire_cmd("migrate"), env)
            seeded = asyncio.run(seeding.running_webset(database_url))
            port = str(bs.free_port())
            argv = bs.leadwire_cmd("api", "--port", port)
            if args.api_processes > 1:
                env["LEADWIRE_REDIS_URL"] = bs.REDIS_URL
                argv = bs.leadwire_cmd("cluster", "--port", port, "--workers", "0", "--no-build-world")
                argv += ["--api", str(args.api_processes)]
            with bs.running(argv, env, tmp / "api.log") as api:
                url = f"http://127.0.0.1:{port}"
                bs.wait_http_ok(f"{url}/readyz", api, timeout=120.0)
                leadwire = asyncio.run(_measure_leadwire(tmp, url, database_url, api.pid, seeded, args))
                if not api.alive():
                    bs.note(f"api exited: {api.tail()}")
            _log_errors(tmp / "api.log")
        port = str(bs.free_port())
        argv = [sys.executable, __file__, "--serve-baseline", "--port", port]
        with bs.running(argv, bs.child_env(), tmp / "bare.log") as bare_server:
            url = f"http://127.0.0.1:{port}"
            bs.wait_http_ok(f"{url}/readyz", bare_server, timeout=60.0)
            bare = asyncio.run(_measure_baseline(tmp, url, bare_server.pid, args))
    _report(
        leadwire, bare, "websets_sse" if args.api_processes == 1 else f"websets_sse_{args.api_processes}_api"
    )


if __name__ == "__main__":
    main()
