"""Websets export: items per second and the API process's memory while a list streams as CSV and as
JSON lines from one `leadwire api`, on SQLite and PostgreSQL.

The list (`--items`, 100,000 by default, and a tenth of that to show memory does not follow the size) is
written straight into the tables, as discovery would have left it: a company per item with three
judged criteria. The download runs from this process over loopback while a thread samples the server's
VmRSS every 20 ms.

Baseline in the same run, the honest floor: the raw driver (`sqlite3`, `asyncpg`) reading the same
rows in the same order and the standard `csv` module writing the same columns, with no HTTP, no ORM and
no Leadwire code. The ratio is Leadwire's items/s over the floor's. Memory is reported as the peak
above the server's RSS just before the export, for both sizes: constant memory means the two are alike.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import csv
import io
import json
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

import _support as bs

CRITERIA = [
    {"id": f"crit_{n}", "description": d, "type": t, "weight": 1 / 3, "required": True, "active": True}
    for n, (d, t) in enumerate(
        [
            ("Headquartered in Germany", "location"),
            ("In the chemical manufacturing industry", "industry"),
            ("More than 200 employees", "size"),
        ]
    )
]
SEED_BATCH = 5000
COLUMNS = ("name", "domain", "website", "industry", "country", "city", "employees", "founded")


def _item(webset_id: str, n: int, now: Any) -> dict[str, Any]:
    domain = f"company-{n}.example"
    verdicts = ("yes", "yes", "unclear" if n % 3 else "yes")
    return {
        "id": f"item_{webset_id[-8:]}_{n:07d}",
        "webset_id": webset_id,
        "entity_key": domain,
        "position": n + 1,
        "run_number": 1,
        "target_kind": "company",
        "entity": {
            "name": f"Rheinchemie {n} GmbH",
            "website": f"https://{domain}",
            "domain": domain,
            "industry": "Chemical manufacturing",
            "industry_code": "325",
            "country": "DE",
            "city": "Ludwigshafen",
            "location": "Ludwigshafen, DE",
            "employees": 200 + n % 5000,
            "founded": 1900 + n % 120,
            "description": "Specialty chemicals for coatings, adhesives and plastics; plants in Europe.",
            "technologies": ["SAP", "Salesforce"],
            "products": ["coatings", "adhesives"],
            "linkedin_url": None,
        },
        "match_status": "full" if n % 3 == 0 else "partial",
        "score": 85.0 if n % 3 == 0 else 62.5,
        "evaluations": [
            {
                "criterion_id": c["id"],
                "verdict": v,
                "score": 0.9 if v == "yes" else 0.5,
                "reasoning": f"The company's site states it ({c['type']}).",
                "confidence": 0.85,
                "references": [f"https://{domain}/about"],
            }
            for c, v in zip(CRITERIA, verdicts, strict=True)
        ],
        "released": True,
        "created_at": now,
        "updated_at": now,
    }


async def _seed(database_url: str, user_id: str, items: int) -> str:
    """A finished list of `items` items of `user_id`, written in batches; its id."""
    import leadwire.models  # noqa: F401 - every table must be known for foreign keys to resolve
    from leadwire.platform.db import make_engine, make_sessionmaker, transaction
    from leadwire.platform.ids import new_id
    from leadwire.platform.time import utcnow
    from leadwire.websets.models import Webset, WebsetItem

    engine = make_engine(database_url)
    now = utcnow()
    webset_id = new_id("ws")
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            session.add(
                Webset(
                    id=webset_id,
                    user_id=user_id,
                    name="bench export",
                    query="chemical companies in Germany",
                    target_kind="company",
                    locale="en",
                    count=1000,
                    status="completed",
                    criteria=CRITERIA,
                    exclude=[],
                    preparation_job_id="job_bench",
                    run_number=1,
                    items_revision=1,
                    stage="completed",
                    goal=1000,
                    verified=items,
                    qualified=items,
                    full=items // 3,
                    progress_updated_at=now,
                    created_at=now,
                    updated_at=now,
                )
            )
        for start in range(0, items, SEED_BATCH):
            async with transaction(make_sessionmaker(engine)) as session:
                rows = [_item(webset_id, n, now) for n in range(start, min(items, start + SEED_BATCH))]
                await session.execute(WebsetItem.__table__.insert(), rows)
        if engine.dialect.name == "postgresql":
            # The statistics autovacuum gathers within a minute of a big insert: without them the
            # planner takes the fresh table for empty and sorts every remaining item for each page.
            async with engine.begin() as connection:
                await connection.exec_driver_sql("ANALYZE webset_items")
    finally:
        await engine.dispose()
    return webset_id


@contextlib.contextmanager
def _sampling(pid: int) -> Iterator[list[float]]:
    """VmRSS of `pid` every 20 ms while the block runs."""
    samples: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            with contextlib.suppress(OSError, RuntimeError):
                samples.append(bs.vm_rss_mb(pid))
            done.wait(0.02)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield samples
    finally:
        done.set()
        thread.join()


def _download(base_url: str, key: str, webset_id: str, form: str) -> tuple[float, int]:
    """Seconds for the whole export and its size in bytes."""
    started = time.perf_counter()
    size = 0
    with (
        httpx.Client(base_url=base_url, timeout=600) as client,
        client.stream(
            "GET",
            f"/api/v2/websets/{webset_id}/export",
            params={"format": form, "match": "qualified"},
            headers={"Authorization": f"Bearer {key}"},
        ) as response,
    ):
        response.raise_for_status()
        for chunk in response.iter_bytes():
            size += len(chunk)
    return time.perf_counter() - started, size


def _raw_rows_sqlite(path: Path, webset_id: str) -> Iterator[tuple[str, str, str, float, str]]:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        yield from connection.execute(
            "SELECT id, entity, match_status, score, evaluations FROM webset_items "
            "WHERE webset_id = ? AND released = 1 AND match_status IN ('full', 'partial') ORDER BY position",
            (webset_id,),
        )


def _raw_rows_postgres(url: str, webset_id: str) -> list[tuple[str, str, str, float, str]]:
    async def fetch() -> list[tuple[str, str, str, float, str]]:
        import asyncpg

        connection = await asyncpg.connect(url)
        try:
            rows: list[tuple[str, str, str, float, str]] = []
            async with connection.transaction():
                cursor = connection.cursor(
                    "SELECT id, entity::text, match_status, score, evaluations::text FROM webset_items "
                    "WHERE webset_id = $1 AND released AND match_status IN ('full', 'partial') "
                    "ORDER BY position",
                    webset_id,
                    prefetch=500,
                )
                async for row in cursor:
                    rows.append(tuple(row))  # type: ignore[arg-type]
            return rows
        finally:
            await connection.close()

    return asyncio.run(fetch())


def _raw_csv(rows: Any) -> float:
    """Seconds to write the export's CSV columns of `rows` with the csv module (the floor's work)."""
    started = time.perf_counter()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["id", *COLUMNS, "match_status", "score", *(c["description"] for c in CRITERIA)])
    for item_id, entity, status, score, evaluations in rows:
        facts = json.loads(entity)
        verdicts = [e["verdict"] for e in json.loads(evaluations)]
        writer.writerow([item_id, *(facts.get(c) for c in COLUMNS), status, score, *verdicts])
        if out.tell() > 1 << 20:  # written and dropped, as a socket would take it
            out.seek(0)
            out.truncate()
    return time.perf_counter() - started


def _measure(engine: str, database_url: str, tmp: Path, sizes: list[int]) -> None:
    data_dir = tmp / engine
    data_dir.mkdir(parents=True, exist_ok=True)
    env = bs.leadwire_env(data_dir, database_url=database_url, pycache=tmp / "pycache")
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    user_id, keys = asyncio.run(bs.create_account(database_url))
    lists = {size: asyncio.run(_seed(database_url, user_id, size)) for size in sizes}
    port = str(bs.free_port())
    with bs.running(bs.leadwire_cmd("api", "--port", port), env, tmp / f"api-{engine}.log") as api:
        base_url = f"http://127.0.0.1:{port}"
        bs.wait_http_ok(f"{base_url}/readyz", api, timeout=120.0)
        _download(base_url, keys[0][1], lists[min(sizes)], "csv")  # warm-up: imports, pools, caches
        for size in sorted(sizes):
            for form in ("csv", "jsonl"):
                idle = bs.vm_rss_mb(api.pid)
                with _sampling(api.pid) as samples:
                    seconds, size_bytes = _download(base_url, keys[0][1], lists[size], form)
                rate = size / seconds
                peak = max(samples, default=idle) - idle
                bs.emit(f"export_{form}_{engine}_{size}_items_per_s", rate, "items/s")
                bs.emit(
                    f"export_{form}_{engine}_{size}_peak_rss_above_idle",
                    peak,
                    "MB",
                    f"{bs.fmt(idle)} MB before; {size_bytes / 1e6:.0f} MB sent",
                )
                if form == "csv" and size == max(sizes):
                    raw_rows: Any = (
                        _raw_rows_sqlite(Path(database_url.split("///", 1)[1]), lists[size])
                        if engine == "sqlite"
                        else _raw_rows_postgres(database_url.replace("+asyncpg", ""), lists[size])
                    )
                    started = time.perf_counter()
                    rows = list(raw_rows) if engine == "sqlite" else raw_rows
                    floor = size / (time.perf_counter() - started + _raw_csv(rows))
                    bs.emit_triple(
                        f"export_csv_{engine}_items_per_s",
                        rate,
                        floor,
                        "items/s",
                        ratio=bs.safe_ratio(rate, floor),
                        target="Leadwire's CSV export over HTTP / the raw driver and csv module",
                    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--items", type=int, default=100_000)
    args = parser.parse_args()
    sizes = [args.items // 10, args.items]
    bs.note(f"exports of lists of {sizes[0]:,} and {sizes[1]:,} items, CSV and JSON lines")
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-export-") as tmp_name:
        tmp = Path(tmp_name)
        _measure("sqlite", f"sqlite+aiosqlite:///{tmp / 'leadwire.db'}", tmp, sizes)
        if not bs.postgres_reachable():
            bs.note(f"PostgreSQL part skipped: not reachable at {bs.PG_URL}")
            return
        with bs.temp_postgres_database("export") as pg_url:
            _measure("postgres", bs.sqlalchemy_url(pg_url), tmp, sizes)


if __name__ == "__main__":
    main()
