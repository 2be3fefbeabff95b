"""Prospect lists across real processes on the sandbox world: a discovery whose worker is SIGKILLed
mid-run is resumed by another worker from its checkpoint without a duplicate item or a wrong charge, and
a list's items stream opened on one API process follows a run created on another (PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import _empty_pg
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.jobs import with_runtime
from tests.support.processes import free_port, leadwire_process, process_env, wait_ready

pytestmark = pytest.mark.e2e

# On the small world this plans several queries, verifies about two hundred companies in a first batch
# of 30 and then bigger ones (seconds each), and qualifies most of them: a run long enough to interrupt.
QUERY = "B2B companies in Europe"
COUNT = 100  # a count the business plan may ask for (websets.service.PLAN_COUNTS)
CREDITS = 1000
RUNNING = ("generating_criteria", "queued", "searching", "verifying")
FINISHED = ("completed", "failed", "cancelled")
QUALIFIED = ("full", "partial")


@pytest.fixture
def pg_url(pg_database: str) -> str:
    asyncio.run(_empty_pg(pg_database))
    return pg_database


def _account(url: str) -> TestAccount:
    account: TestAccount = asyncio.run(
        with_runtime(url, lambda rt: AccountFactory(rt).create(plan="business", credits=CREDITS))
    )
    return account


def _env(tmp_path: Path, url: str, world: Path, **extra: str) -> dict[str, str]:
    return process_env(tmp_path / "var", url, LEADWIRE_WORLD_DIR=str(world), **extra)


def _ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


def _create(http: httpx.Client) -> str:
    created = _ok(http.post("/api/v2/websets", json={"query": QUERY, "count": COUNT}), 202)["item"]
    assert created["webset"]["status"] == "generating_criteria", created
    webset_id: str = created["webset"]["id"]
    return webset_id


def _detail(http: httpx.Client, webset_id: str) -> dict[str, Any]:
    item: dict[str, Any] = _ok(http.get(f"/api/v2/websets/{webset_id}"))["item"]
    return item


def _wait(
    http: httpx.Client, webset_id: str, until: Callable[[dict[str, Any]], bool], timeout: float = 60.0
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        webset = _detail(http, webset_id)
        if until(webset):
            return webset
        if time.monotonic() > deadline:
            raise AssertionError(f"webset {webset_id} stayed {webset['status']}: {webset['progress']}")
        time.sleep(0.05)


def _items(http: httpx.Client, webset_id: str, match: str) -> list[dict[str, Any]]:
    """Every released item of `match`, page by page (compact, 50 a page)."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        params = {"match": match, "limit": "50", **({"cursor": cursor} if cursor else {})}
        page = _ok(http.get(f"/api/v2/websets/{webset_id}/items", params=params))
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if not cursor:
            return items


def _job(http: httpx.Client, job_id: str) -> dict[str, Any]:
    item: dict[str, Any] = _ok(http.get(f"/api/v2/jobs/{job_id}"))["item"]
    return item


def test_a_worker_killed_mid_discovery_resumes_without_duplicates(
    database_url: str, indexed_world: Path, tmp_path: Path
) -> None:
    acct = _account(database_url)
    env = _env(
        tmp_path,
        database_url,
        indexed_world,
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
        webset_id = _create(http)
        with leadwire_process(["worker"], env, tmp_path / "worker-a.log") as first:
            caught = _wait(
                http, webset_id, lambda w: w["progress"]["verified"] > 0 or w["status"] in FINISHED
            )
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
        assert caught["status"] in RUNNING, f"the run finished before the worker could be killed: {caught}"
        orphaned = _detail(http, webset_id)
        assert orphaned["status"] in RUNNING  # nobody runs it now: the killed worker's lease is still out
        run_job_id = orphaned["run_job_id"]
        assert run_job_id and _job(http, run_job_id)["status"] == "running"
        with leadwire_process(["worker"], env, tmp_path / "worker-b.log"):
            final = _wait(http, webset_id, lambda w: w["status"] in FINISHED)
        run_job = _job(http, run_job_id)
        preparation = _job(http, final["preparation_job_id"])
        verified = _items(http, webset_id, "verified")
        qualified = _items(http, webset_id, "qualified")
        credits = _ok(http.get("/api/v2/credits"))["item"]

    assert final["status"] == "completed", (final["failure"], final["progress"])
    # The run's job was interrupted and rescued: claimed once by each worker.
    assert (run_job["status"], run_job["attempt_count"]) == ("succeeded", 2), run_job
    assert preparation["status"] == "succeeded"
    progress = final["progress"]

    # No company twice, neither by item id nor by what the item is.
    assert len({i["id"] for i in verified}) == len(verified)
    websites = [i["entity"]["website"] for i in verified]
    assert all(websites) and len(set(websites)) == len(websites), "a company was verified twice"
    assert [i for i in verified if i["match"]["status"] in QUALIFIED] == qualified
    assert all(not i["provisional"] for i in verified)

    # The counters describe the items: qualified includes overflow past the goal, never released.
    assert 0 < len(qualified) <= COUNT
    overflow = progress["qualified"] - len(qualified)
    assert overflow == 0 or (overflow > 0 and progress["stop_reason"] == "goal_reached"), progress
    assert progress["verified"] == len(verified) + overflow, progress
    full = sum(1 for i in qualified if i["match"]["status"] == "full")
    assert full <= progress["full"] <= full + overflow, progress
    assert progress["verified"] <= progress["verify_cap"]

    # Billed once: a credit per released qualified item, the rest of the reservation released.
    assert run_job["billing"]["charged_credits"] == len(qualified), run_job["billing"]
    assert credits["reserved"] == 0 and credits["balance"] == CREDITS - len(qualified), credits


def _sse(response: httpx.Response, deadline: float) -> Iterator[tuple[str | None, str, dict[str, Any]]]:
    """(id, event, data) of each server-sent event; comments (pings) are skipped, but a stream that
    goes on past `deadline` fails the test."""
    event_id: str | None = None
    event, data = "message", ""
    for line in response.iter_lines():
        assert time.monotonic() < deadline, "the stream never completed"
        if line == "":
            if data:
                yield event_id, event, json.loads(data)
            event_id, event, data = None, "message", ""
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "id":
                event_id = value
            elif field == "event":
                event = value
            elif field == "data":
                data = f"{data}\n{value}" if data else value


def test_webset_stream_across_two_api_processes_on_postgres(
    pg_url: str, indexed_world: Path, tmp_path: Path
) -> None:
    acct = _account(pg_url)
    env = _env(tmp_path, pg_url, indexed_world)
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    timeout = httpx.Timeout(30.0, read=20.0)  # the stream pings every 15 s
    with (
        leadwire_process(["api", "--port", str(ports[0])], env, tmp_path / "api-a.log") as a,
        leadwire_process(["api", "--port", str(ports[1])], env, tmp_path / "api-b.log") as b,
        httpx.Client(base_url=bases[0], headers=acct.headers, timeout=timeout) as on_a,
        httpx.Client(base_url=bases[1], headers=acct.headers, timeout=timeout) as on_b,
    ):
        wait_ready(bases[0], a, tmp_path / "api-a.log")
        wait_ready(bases[1], b, tmp_path / "api-b.log")
        webset_id = _create(on_a)
        # The snapshot's first page, read on B before any work: its checkpoint is where the stream starts.
        first_page = _ok(on_b.get(f"/api/v2/websets/{webset_id}/items", params={"limit": "50"}))
        assert first_page["webset_status"] in RUNNING and first_page["next_cursor"] is None
        merged: dict[str, dict[str, Any]] = {i["id"]: i for i in first_page["items"]}
        checkpoint = {
            "stream_cursor": str(first_page["stream_cursor"]),
            "items_revision": str(first_page["items_revision"]),
        }
        received: list[tuple[str | None, str, dict[str, Any]]] = []
        with leadwire_process(["worker"], env, tmp_path / "worker.log"):
            # The stream opens late, once the worker committed items: those are replayed from the log,
            # whatever comes after is followed live (written by the worker, read by B).
            _wait(on_b, webset_id, lambda w: w["progress"]["verified"] > 0 or w["status"] in FINISHED)
            deadline = time.monotonic() + 50
            path = f"/api/v2/websets/{webset_id}/items/stream"
            with on_b.stream("GET", path, params=checkpoint) as stream:
                assert stream.status_code == 200, stream.read().decode()
                assert stream.headers["content-type"].startswith("text/event-stream")
                for event_id, event, data in _sse(stream, deadline):
                    received.append((event_id, event, data))
                    assert event != "reset", data
                    if event == "items.changed":
                        for item in data["items"]:
                            merged[item["id"]] = item
                        for removed in data["removed"]:
                            merged.pop(removed, None)
                    if event == "complete":
                        break
        final = _detail(on_a, webset_id)
        snapshot_page = _ok(on_a.get(f"/api/v2/websets/{webset_id}/items", params={"limit": "50"}))
        qualified = _items(on_a, webset_id, "qualified")
        verified = _items(on_a, webset_id, "verified")

    assert received and received[-1][1] == "complete", [e for _, e, _ in received[-3:]]
    complete = received[-1][2]
    assert final["status"] == "completed" and complete["webset_status"] == "completed", final
    assert complete["webset_id"] == webset_id
    assert complete["items_revision"] == snapshot_page["items_revision"]
    # Every event carried its id (the stream cursor), in increasing order, matching its payload.
    ids = [event_id for event_id, _, _ in received]
    assert all(i is not None and i.isdigit() for i in ids), ids
    seqs = [int(i) for i in ids if i is not None]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), seqs
    assert all(data["stream_cursor"] == int(i) for i, _, data in received if i is not None)
    assert seqs[0] > first_page["stream_cursor"]
    revisions = [data["items_revision"] for _, event, data in received if event == "items.changed"]
    assert revisions == sorted(revisions) and revisions[-1] == complete["items_revision"]
    # What the stream delivered on B is exactly what A now lists (the items by id, compared by content).
    assert qualified, "the run qualified nothing: the comparison would prove nothing"
    streamed_qualified = {k: v for k, v in merged.items() if v["match"]["status"] in QUALIFIED}
    assert _comparable(streamed_qualified) == _comparable({i["id"]: i for i in qualified})
    assert _comparable(merged) == _comparable({i["id"]: i for i in verified})


def _comparable(items: dict[str, dict[str, Any]]) -> dict[str, tuple[str, str, float, str | None]]:
    """An item as both views show it; `provisional` is left out (true while the run went on)."""
    return {
        key: (item["target_kind"], item["match"]["status"], item["match"]["score"], item["entity"]["website"])
        for key, item in items.items()
    }
