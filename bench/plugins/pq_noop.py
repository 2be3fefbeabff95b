"""Bench plugin for the procrastinate baseline: an app with one task, `bench.noop`, that does nothing.

Used as `procrastinate --app bench.plugins.pq_noop.app worker ...` (PYTHONPATH=<repo root>); the
database comes from BENCH_PROCRASTINATE_CONNINFO (a libpq conninfo or `postgresql://` URL).
"""

from __future__ import annotations

import os

import procrastinate

app = procrastinate.App(
    connector=procrastinate.PsycopgConnector(conninfo=os.environ.get("BENCH_PROCRASTINATE_CONNINFO", ""))
)


@app.task(name="bench.noop")
async def noop() -> None:
    return None
