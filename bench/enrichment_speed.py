"""Enrichment speed on the small sandbox world: a finished list of 100 companies, then an enrichment per
format through the real route, filled by the in-process worker (SQLite).

Per format: cells/s from the POST to the job's end, and the time from the POST to the first stored cell
(p50 over three runs), beside a baseline measured in the same run: the same cells computed by the same
code directly (`websets.cells.compute`'s adapters: the reasoner, the contacts source, the pages),
with no route, job, database or event log. The ratio is what the job around the work costs.

    .venv/bin/python bench/enrichment_speed.py [--world DIR] [--count 100]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _support import emit, emit_triple, note
from _websets import WebsetHarness, small_world
from leadwire.providers.prospects import CompanyRef
from leadwire.providers.reasoner import EnrichmentAsk
from leadwire.websets import cells

ASKS: dict[str, dict[str, Any]] = {
    "number": {"description": "Number of employees", "format": "number"},
    "text": {"description": "What does the company sell?", "format": "text"},
    "options": {
        "description": "Which sector is the company in?",
        "format": "options",
        "options": [{"label": "Software"}, {"label": "Manufacturing"}, {"label": "Finance"}],
    },
    "url": {"description": "Careers page", "format": "url"},
    "email": {"description": "Email of the CEO", "format": "email"},
    "phone": {"description": "Phone number", "format": "phone"},
}
RUNS = 3


async def through_the_api(
    harness: WebsetHarness, webset_id: str, body: dict[str, Any]
) -> tuple[float, float, int]:
    """(seconds to the first cell, seconds to the job's end, cells) of one enrichment, then deleted (a
    list holds at most 10)."""
    base = f"/api/v2/websets/{webset_id}/enrichments"
    started = time.perf_counter()
    enrichment, first = (await harness.call("POST", base, json=body))["item"], None
    while True:
        read = (await harness.call("GET", f"{base}/{enrichment['id']}"))["item"]
        if first is None and read["progress"]["done"] > 0:
            first = time.perf_counter() - started
        if read["status"] in ("completed", "cancelled"):
            total = time.perf_counter() - started
            await harness.call("DELETE", f"{base}/{enrichment['id']}")
            return first if first is not None else total, total, read["progress"]["done"]
        await asyncio.sleep(0.02)  # a poll that does not starve the in-process worker


async def directly(harness: WebsetHarness, webset_id: str, body: dict[str, Any]) -> float:
    """Seconds to compute the same cells with the same adapters, no job around them."""
    assert harness.runtime is not None
    items = await harness.items(webset_id, detail="standard")
    ask = EnrichmentAsk(
        body["description"], body["format"], tuple(o["label"] for o in body.get("options", []))
    )
    adapters = harness.runtime.adapters
    started = time.perf_counter()
    refs = [CompanyRef(i["entity"].get("name"), i["entity"].get("domain"), None) for i in items]
    found = await adapters["prospects"].lookup(refs)
    prospects = [p for p in found if p is not None]
    if ask.format == "email":
        await cells.emails(adapters["contacts"], ask, prospects)
    elif ask.format == "phone":
        for prospect in prospects:
            cells.phone_on_pages(prospect)
    else:
        await adapters["reasoner"].enrich(ask, prospects)
    return time.perf_counter() - started


async def measure(world: Path, count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="leadwire-enrich-") as scratch:
        async with WebsetHarness(world, Path(scratch)) as harness:
            webset = await harness.run("B2B companies in Europe", count=count)
            items = len(await harness.items(webset["id"]))
            note(f"a finished list of {items} qualified companies; {RUNS} enrichments per format")
            for name, body in ASKS.items():
                firsts, rates, raw = [], [], []
                for _ in range(RUNS):
                    first, total, cells_done = await through_the_api(harness, webset["id"], body)
                    firsts.append(first)
                    rates.append(cells_done / total)
                    raw.append(items / await directly(harness, webset["id"], body))
                rate, base = statistics.median(rates), statistics.median(raw)
                emit_triple(
                    f"enrichment_{name}_cells_per_s",
                    rate,
                    base,
                    "cells_per_s",
                    ratio=rate / base,
                    target="the job, the route and the database around the same computation",
                )
                emit(f"enrichment_{name}_time_to_first_cell_p50", statistics.median(firsts) * 1000, "ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", type=Path, default=None)
    parser.add_argument("--count", type=int, default=100)
    args = parser.parse_args()
    with small_world(args.world) as world:
        asyncio.run(measure(world, args.count))


if __name__ == "__main__":
    main()
