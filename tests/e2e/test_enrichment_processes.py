"""An enrichment of a 1,000-item list across real processes: its worker is SIGKILLed after some cells
are stored, another worker finishes it, and every item has exactly one cell, charged once (SQLite and
PostgreSQL)."""

from __future__ import annotations

import asyncio
import csv
import io
import math
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadwire.sandbox.convert import convert_records
from leadwire.sandbox.ingest import ingest
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.jobs import with_runtime
from tests.support.processes import free_port, leadwire_process, process_env, wait_ready

pytestmark = pytest.mark.e2e

COMPANIES = 1000
CREDITS = 2000
SECTOR = {
    "description": "Which sector is the company in?",
    "format": "options",
    "options": [{"label": "Chemicals"}, {"label": "Banking"}, {"label": "Software"}],
}


@pytest.fixture(scope="session")
def thousand_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A thousand Swiss chemical companies: a list of 1,000 that all qualify."""
    rows = [
        {
            "name": f"Helvetia Chemie {i}",
            "country": "CH",
            "industries": ["Chemicals"],
            "website": f"hc{i}.example",
        }
        for i in range(COMPANIES)
    ]
    conversion = convert_records(enumerate(rows, start=1))
    work = tmp_path_factory.mktemp("thousand")
    companies, documents = conversion.write(work / "ingest")
    world = work / "world"
    for kind, path in (("companies", companies), ("documents", documents)):
        assert ingest(world, kind, path).accepted
    return world


def _ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


def _until(check: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{what} within {timeout}s")


def test_an_enrichment_whose_worker_is_killed_finishes_elsewhere_with_one_cell_each_charged_once(
    database_url: str, thousand_world: Path, tmp_path: Path
) -> None:
    acct: TestAccount = asyncio.run(
        with_runtime(database_url, lambda rt: AccountFactory(rt).create(plan="business", credits=CREDITS))
    )
    env = process_env(
        tmp_path / "var",
        database_url,
        LEADWIRE_WORLD_DIR=str(thousand_world),
        LEADWIRE_JOB_LEASE_SECONDS="4",
        LEADWIRE_WORKER_POLL_SECONDS="0.2",
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (
        leadwire_process(["api", "--port", str(port)], env, tmp_path / "api.log") as api,
        httpx.Client(base_url=base, headers=acct.headers, timeout=30) as http,
    ):
        wait_ready(base, api, tmp_path / "api.log")
        body = {"query": "chemical companies in Switzerland", "count": COMPANIES}
        webset_id = _ok(http.post("/api/v2/websets", json=body), 202)["item"]["webset"]["id"]
        url = f"/api/v2/websets/{webset_id}/enrichments"
        with leadwire_process(["worker"], env, tmp_path / "worker-a.log") as first:
            done = _until(
                lambda: (
                    (w := _ok(http.get(f"/api/v2/websets/{webset_id}"))["item"])["status"] == "completed"
                    and w
                ),
                240,
                "the list completed",
            )
            enrichment = _ok(http.post(url, json=SECTOR), 202)["item"]
            _until(
                lambda: _ok(http.get(f"{url}/{enrichment['id']}"))["item"]["progress"]["done"] > 0,
                120,
                "a first batch of cells was stored",
            )
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
        caught = _ok(http.get(f"{url}/{enrichment['id']}"))["item"]
        with leadwire_process(["worker"], env, tmp_path / "worker-b.log"):
            job = _until(
                lambda: (
                    (j := _ok(http.get(f"/api/v2/jobs/{enrichment['job_id']}"))["item"])["status"]
                    in ("succeeded", "failed")
                    and j
                ),
                240,
                "the enrichment's job ended",
            )
        final = _ok(http.get(f"{url}/{enrichment['id']}"))["item"]
        exported = list(csv.reader(io.StringIO(http.get(f"/api/v2/websets/{webset_id}/export").text)))
        credits = _ok(http.get("/api/v2/credits"))["item"]
        run_job = _ok(http.get(f"/api/v2/jobs/{done['run_job_id']}"))["item"]
    assert done["progress"]["qualified"] >= COMPANIES, done["progress"]
    assert 0 < caught["progress"]["done"] < COMPANIES, "the worker was killed mid-enrichment"
    assert (job["status"], job["attempt_count"]) == ("succeeded", 2), job
    assert final["status"] == "completed" and final["progress"] == {"done": COMPANIES, "total": COMPANIES}
    header, rows = exported[0], exported[1:]
    column = header.index("enrichment: Which sector is the company in?")
    filled = sum(1 for row in rows if row[column])
    assert len(rows) == COMPANIES and filled >= COMPANIES * 0.9
    # Charged once, for the filled cells both attempts stored: 0.2 credit each, rounded up once.
    assert job["result"]["cells"] == filled
    assert job["billing"]["charged_credits"] == math.ceil(0.2 * filled)
    charged = run_job["billing"]["charged_credits"] + job["billing"]["charged_credits"]
    assert credits["reserved"] == 0 and credits["balance"] == CREDITS - charged, credits
