"""Webhook delivery: events/s delivered to a local receiver, and latency from the change's commit to the
receiver's 2xx, beside the SSE stream's latency for the same events, in the same run.

Deployment: the embedded one (`leadwire serve`: API and worker in one process), on SQLite and on
PostgreSQL. This process builds the runtime, serves the app on a loopback port (uvicorn) and runs a
worker with no job actions, so only its delivery task works. Changes are written the way discovery
writes them: one transaction that locks a webset, bumps `items_revision` and calls
`websets.states.append_added`. That transaction appends the streams' `items.changed` and reports
`webset.items.added` to the webhooks' outbox. The write time is taken just before the commit.

* **Latency** (`--events` 100 at `--rate` 20/s, one webhook): the receiver stamps each delivery when
  it sends its 2xx, and one SSE client of `GET /api/v2/websets/{id}/items/stream` (httpx, this
  process) stamps each `items.changed` when it is decoded. Both are keyed by `items_revision`. The
  baseline is the SSE stream, the issue's own comparison: the ratio is webhook p50 ÷ SSE p50.
* **Throughput** (`--burst` 300 changes written back to back, then drained; 1 and 20 webhooks
  subscribed): deliveries received ÷ seconds from the first write to the last delivery. The baseline
  is the floor of the same work without Leadwire: the same signed bodies POSTed by one httpx client
  to the same receiver, with as many at once as the delivery task allows
  (`LEADWIRE_WEBHOOK_CONCURRENCY`, and one at a time for one webhook, which is delivered in order).
* **Fairness** (`--fair-events` 20 at `--fair-rate` 2/s to one webhook of the bench's account): the
  latency from commit to 2xx while another account's 20 webhooks, each with a backlog, answer after
  `--slow-seconds` (10 s), against the same with none, in the same run; the ratio of the p50s is the
  figure (target <= 1.5x). The slow phase is bounded: its webhooks are deleted once the measured events
  are in, and their sends under way end within the slow answer's time.

    .venv/bin/python bench/webhooks.py [--events 100] [--rate 20] [--burst 300] [--fair-events 20]
        [--fairness-only]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import _stream_seed as seeding
import _support as bs

WEBHOOK_COUNTS = (1, 20)
SLOW_WEBHOOKS = 20  # another account's, each answering after `--slow-seconds`
SLOW_TIMEOUT_SECONDS = 15.0
FAIR_TARGET = 1.5


@dataclass
class Receiver:
    """Loopback HTTP receiver: per request, the time its 2xx was sent and the event's revision."""

    port: int = 0
    answered: list[tuple[str, int, float]] = field(default_factory=list)  # (path, revision, time)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    delay: float = 0.0  # seconds before answering (a slow receiver)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            path = lines[0].split(" ")[1]
            length = next(
                int(v) for k, _, v in (ln.partition(":") for ln in lines[1:]) if k.lower() == "content-length"
            )
            body = json.loads(await reader.readexactly(length))
            if self.delay:
                await asyncio.sleep(self.delay)
            writer.write(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
            await writer.drain()
            self.answered.append((path, int(body["data"]["items_revision"]), time.time()))
            self.arrived.set()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def wait_for(self, count: int, timeout: float) -> None:
        async with asyncio.timeout(timeout):
            while len(self.answered) < count:
                self.arrived.clear()
                await self.arrived.wait()


@contextlib.asynccontextmanager
async def receiving(delay: float = 0.0) -> AsyncIterator[Receiver]:
    receiver = Receiver(delay=delay)
    server = await asyncio.start_server(receiver.handle, "127.0.0.1", 0, backlog=1024)
    receiver.port = server.sockets[0].getsockname()[1]
    try:
        yield receiver
    finally:
        server.close()


class Bench:
    """One deployment: the runtime, the served app, a worker running the delivery task, a webset."""

    def __init__(self, database_url: str, data_dir: Path) -> None:
        self.database_url = database_url
        self.data_dir = data_dir

    async def __aenter__(self) -> Bench:
        import uvicorn

        from leadwire.app import create_app
        from leadwire.config import Settings
        from leadwire.platform.http.server import uvicorn_config
        from leadwire.platform.jobs.runner import Worker
        from leadwire.platform.runtime import build_runtime

        settings = Settings(
            data_dir=self.data_dir,
            database_url=self.database_url,
            webhook_allow_private_networks=True,
            # The fairness phase's slow receivers answer within it (a 2xx, not a timeout and retry).
            webhook_timeout_seconds=SLOW_TIMEOUT_SECONDS,
            log_level="warning",
        )
        self.runtime = await build_runtime(settings)
        port = bs.free_port()
        self.base_url = f"http://127.0.0.1:{port}"
        self.server = uvicorn.Server(
            uvicorn_config(create_app(runtime=self.runtime), settings, host="127.0.0.1", port=port)
        )
        self.serving = asyncio.create_task(self.server.serve())
        while not self.server.started:
            await asyncio.sleep(0.02)
        self.worker = Worker(self.runtime, actions=[])  # no job: only the delivery task works
        self.working = asyncio.create_task(self.worker.run())
        self.webset_id, self.key, self.cursor = await seeding.running_webset(self.database_url)
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.worker.shutdown(grace_seconds=5)
        await self.working
        self.server.should_exit = True
        await self.serving
        await self.runtime.close()

    async def register(self, url: str, key: str | None = None) -> None:
        import httpx

        headers = {"Authorization": f"Bearer {key or self.key}"}
        async with httpx.AsyncClient(base_url=self.base_url, headers=headers) as http:
            answer = await http.post("/api/v2/webhooks", json={"url": url, "events": ["webset.items.added"]})
            answer.raise_for_status()

    async def write(self, n: int, webset_id: str | None = None) -> tuple[int, float]:
        """One change as discovery writes it; (items_revision, time just before the commit)."""
        from sqlalchemy import select

        from leadwire.platform.db import transaction  # noqa: F401 - the same unit of work as the worker's
        from leadwire.platform.time import utcnow
        from leadwire.websets import states
        from leadwire.websets.models import Webset

        async with self.runtime.sessionmaker() as session:
            statement = select(Webset).where(Webset.id == (webset_id or self.webset_id)).with_for_update()
            webset = (await session.execute(statement)).scalar_one()
            webset.items_revision += 1
            webset.qualified += 3
            webset.progress_updated_at = webset.updated_at = utcnow()
            items = [seeding.company_item(n * 3 + i + 1) for i in range(3)]
            await states.append_added(session, self.runtime.notifier, webset, items)  # type: ignore[arg-type]
            revision, at = webset.items_revision, time.time()
            await session.commit()
        return revision, at


async def follow_sse(bench: Bench, seen: dict[int, float], ready: asyncio.Event) -> None:
    import httpx

    path = f"/api/v2/websets/{bench.webset_id}/items/stream"
    headers = {"Authorization": f"Bearer {bench.key}", "Accept": "text/event-stream"}
    async with (
        httpx.AsyncClient(base_url=bench.base_url, timeout=None) as http,
        http.stream("GET", path, params={"stream_cursor": bench.cursor}, headers=headers) as response,
    ):
        ready.set()
        event = ""
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event == "items.changed":
                seen.setdefault(int(json.loads(line[5:])["items_revision"]), time.time())


async def measure_latency(bench: Bench, args: argparse.Namespace) -> tuple[list[float], list[float]]:
    async with receiving() as receiver:
        await bench.register(f"http://127.0.0.1:{receiver.port}/latency")
        seen: dict[int, float] = {}
        ready = asyncio.Event()
        follower = asyncio.create_task(follow_sse(bench, seen, ready))
        await ready.wait()
        await bench.write(0)  # warm-up, not measured
        await receiver.wait_for(1, 30)
        written: dict[int, float] = {}
        start = time.monotonic()
        for n in range(1, args.events + 1):
            delay = start + n / args.rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            revision, at = await bench.write(n)
            written[revision] = at
        await receiver.wait_for(args.events + 1, 60)
        await asyncio.sleep(0.5)
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower
    hooks = [(t - written[r]) * 1000 for _, r, t in receiver.answered if r in written]
    sse = [(seen[r] - at) * 1000 for r, at in written.items() if r in seen]
    return hooks, sse


async def measure_throughput(bench: Bench, webhooks: int, burst: int) -> float:
    """Deliveries per second: `burst` changes, each delivered to `webhooks` webhooks."""
    async with receiving() as receiver:
        for k in range(webhooks):
            await bench.register(f"http://127.0.0.1:{receiver.port}/burst{webhooks}-{k}")
        started = time.monotonic()
        for n in range(burst):
            await bench.write(10_000 + n)
        await receiver.wait_for(webhooks * burst, 600)
        elapsed = time.monotonic() - started
    await delete_all(bench)
    return webhooks * burst / elapsed


async def delete_all(bench: Bench, key: str | None = None) -> None:
    """The next phase's webhooks are the only ones subscribed (and the account's limit is 20)."""
    import httpx

    headers = {"Authorization": f"Bearer {key or bench.key}"}
    async with httpx.AsyncClient(base_url=bench.base_url, headers=headers) as http:
        listed = (await http.get("/api/v2/webhooks", params={"limit": 100})).json()["items"]
        for hook in listed:
            (await http.delete(f"/api/v2/webhooks/{hook['id']}")).raise_for_status()


async def quick_latencies(
    bench: Bench, receiver: Receiver, args: argparse.Namespace, base: int
) -> list[float]:
    """Milliseconds from commit to 2xx of `--fair-events` changes of the bench's account, at
    `--fair-rate`, to the one webhook `receiver` stands behind."""
    written: dict[int, float] = {}
    before = len(receiver.answered)
    start = time.monotonic()
    for n in range(args.fair_events):
        delay = start + n / args.fair_rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        revision, at = await bench.write(base + n)
        written[revision] = at
    await receiver.wait_for(before + args.fair_events, 120)
    return [(t - written[r]) * 1000 for _, r, t in receiver.answered[before:] if r in written]


async def measure_fairness(bench: Bench, args: argparse.Namespace) -> tuple[list[float], list[float]]:
    """The bench's account's latencies alone, then beside another account's 20 slow webhooks with a
    backlog each (`--slow-backlog` changes of its own list, each delivered to all 20)."""
    slow_webset, slow_key, _ = await seeding.running_webset(bench.database_url)
    async with receiving() as quick, receiving(delay=args.slow_seconds) as slow:
        await bench.register(f"http://127.0.0.1:{quick.port}/quick")
        await bench.write(20_000)  # warm-up, not measured
        await quick.wait_for(1, 30)
        alone = await quick_latencies(bench, quick, args, 20_001)
        for k in range(SLOW_WEBHOOKS):
            await bench.register(f"http://127.0.0.1:{slow.port}/slow-{k}", slow_key)
        for n in range(args.slow_backlog):
            await bench.write(30_000 + n, slow_webset)
        await asyncio.sleep(1.0)  # the slow receivers hold their slots before the measured events
        beside = await quick_latencies(bench, quick, args, 20_001 + args.fair_events)
        bs.note(f"fairness: {len(slow.answered)} slow deliveries answered while measured")
        await delete_all(bench, slow_key)  # the backlog goes with its webhooks
        await asyncio.sleep(args.slow_seconds + 1)  # the slow sends under way end
    await delete_all(bench)
    return alone, beside


async def measure_raw(total: int, concurrency: int) -> float:
    """The floor: `total` signed POSTs of the same size by one httpx client, `concurrency` at once."""
    import httpx

    from leadwire.client.webhooks import sign

    secret = "whsec_" + "a" * 43 + "="
    body = json.dumps(
        {
            "id": "evt_x",
            "type": "webset.items.added",
            "data": {"items_revision": 1, "item_ids": ["item_1"] * 3},
        }
    ).encode()
    async with (
        receiving() as receiver,
        httpx.AsyncClient(limits=httpx.Limits(max_keepalive_connections=0)) as http,
    ):
        url = f"http://127.0.0.1:{receiver.port}/raw"
        queue: asyncio.Queue[int] = asyncio.Queue()
        for n in range(total):
            queue.put_nowait(n)

        async def sender() -> None:
            while not queue.empty():
                queue.get_nowait()
                stamp = int(time.time())
                headers = {
                    "webhook-id": "evt_x",
                    "webhook-timestamp": str(stamp),
                    "webhook-signature": sign([secret], "evt_x", stamp, body),
                }
                await http.post(url, content=body, headers={**headers, "content-type": "application/json"})

        started = time.monotonic()
        await asyncio.gather(*(sender() for _ in range(concurrency)))
        await receiver.wait_for(total, 120)
        return total / (time.monotonic() - started)


async def run_one(label: str, database_url: str, data_dir: Path, args: argparse.Namespace) -> None:
    async with Bench(database_url, data_dir) as bench:
        if not args.fairness_only:
            await report_latency(bench, label, args)
        await report_fairness(bench, label, args)
        if not args.fairness_only:
            await report_throughput(bench, label, args)


async def report_latency(bench: Bench, label: str, args: argparse.Namespace) -> None:
    hooks, sse = await measure_latency(bench, args)
    await delete_all(bench)
    p50, p99 = bs.percentile(hooks, 50), bs.percentile(hooks, 99)
    sse50, sse99 = bs.percentile(sse, 50), bs.percentile(sse, 99)
    bs.note(f"{label}: {len(hooks)} deliveries, {len(sse)} stream events measured of {args.events}")
    bs.emit_triple(
        f"webhooks_{label}_latency_p50", p50, sse50, "ms", ratio=bs.safe_ratio(p50, sse50), target="report"
    )
    bs.emit_triple(
        f"webhooks_{label}_latency_p99", p99, sse99, "ms", ratio=bs.safe_ratio(p99, sse99), target="report"
    )


async def report_fairness(bench: Bench, label: str, args: argparse.Namespace) -> None:
    alone, beside = await measure_fairness(bench, args)
    p50_alone, p50_beside = bs.percentile(alone, 50), bs.percentile(beside, 50)
    ratio = bs.safe_ratio(p50_beside, p50_alone)
    bs.note(
        f"{label}: p99 {bs.fmt(bs.percentile(beside, 99))} ms beside {SLOW_WEBHOOKS} slow webhooks, "
        f"{bs.fmt(bs.percentile(alone, 99))} ms alone"
    )
    bs.emit_triple(
        f"webhooks_{label}_fair_latency_p50",
        p50_beside,
        p50_alone,
        "ms",
        ratio=ratio,
        target=f"target <= {FAIR_TARGET}x: {bs.verdict(ratio <= FAIR_TARGET)}",
    )


async def report_throughput(bench: Bench, label: str, args: argparse.Namespace) -> None:
    from leadwire.config import Settings

    concurrency = Settings().webhook_concurrency
    for count in WEBHOOK_COUNTS:
        rate = await measure_throughput(bench, count, args.burst)
        raw = await measure_raw(count * args.burst, 1 if count == 1 else concurrency)
        bs.emit_triple(
            f"webhooks_{label}_{count}_events_per_s",
            rate,
            raw,
            "/s",
            ratio=bs.safe_ratio(rate, raw),
            target="report",
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--burst", type=int, default=300)
    parser.add_argument("--fair-events", type=int, default=20)
    parser.add_argument("--fair-rate", type=float, default=2.0)
    parser.add_argument("--slow-seconds", type=float, default=10.0)
    parser.add_argument("--slow-backlog", type=int, default=3)
    parser.add_argument("--fairness-only", action="store_true", help="only the fairness phase")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-webhooks-") as tmp:
        sqlite_url = f"sqlite+aiosqlite:///{tmp}/leadwire.db"
        env = bs.leadwire_env(Path(tmp) / "var", database_url=sqlite_url)
        bs.run_checked(bs.leadwire_cmd("migrate"), env)
        asyncio.run(run_one("sqlite", sqlite_url, Path(tmp) / "var", args))
        if not bs.postgres_reachable():
            bs.note("PostgreSQL is not reachable: its figures are not measured")
            return
        with bs.temp_postgres_database("webhooks") as pg:
            url = bs.sqlalchemy_url(pg)
            bs.run_checked(
                bs.leadwire_cmd("migrate"), bs.leadwire_env(Path(tmp) / "var-pg", database_url=url)
            )
            asyncio.run(run_one("postgres", url, Path(tmp) / "var-pg", args))


if __name__ == "__main__":
    main()
