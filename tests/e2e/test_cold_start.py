"""A first `leadwire serve` in an empty data directory: the API answers while the sandbox world builds in
a separate process, and a job that needs the world waits queued and runs once the world is built."""

from __future__ import annotations

import contextlib
import fcntl
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from subprocess import Popen
from typing import Any

import httpx
import pytest

from leadwire.sandbox.progress import INDEX_STAGES, WORLD_STAGES
from tests.support.processes import free_port, leadwire_process, process_env

pytestmark = pytest.mark.e2e

Body = dict[str, Any]


@contextlib.contextmanager
def another_build_running(world_dir: Path) -> Iterator[Callable[[], None]]:
    """Holds the world's build lock as a second builder would, until the returned call releases it:
    the server's build waits meanwhile, so the test sees the building phase for as long as it needs."""
    world_dir.parent.mkdir(parents=True)
    with open(world_dir.with_name(f"{world_dir.name}.build.lock"), "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield lambda: fcntl.flock(handle, fcntl.LOCK_UN)


def readiness_when(
    base: str, process: Popen[bytes], log: Path, wanted: Callable[[Body], bool], timeout: float
) -> tuple[int, Body]:
    """The first `/readyz` answer `wanted` accepts."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"serve exited {process.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            answer = httpx.get(f"{base}/readyz", timeout=2)
            if wanted(answer.json()):
                return answer.status_code, answer.json()
        time.sleep(0.1)
    raise AssertionError(f"/readyz never answered as wanted in {timeout}s:\n{log.read_text()[-3000:]}")


def world_state(state: str) -> Callable[[Body], bool]:
    return lambda body: body.get("world", {}).get("state") == state


def test_cold_start_answers_readyz_while_the_world_builds_and_runs_waiting_jobs_after(tmp_path: Path) -> None:
    data_dir = tmp_path / "var"
    port = free_port()
    env = process_env(data_dir, LEADWIRE_PORT=str(port), LEADWIRE_SANDBOX_SIZE="small")
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    with (
        another_build_running(data_dir / "world") as release,
        leadwire_process(["serve"], env, log) as process,
    ):
        # The build reports "starting" until it reaches the lock; the lock is held, so it then waits.
        def waiting_for_the_lock(body: Body) -> bool:
            return world_state("building")(body) and body["world"].get("stage") == "waiting for another build"

        status, building = readiness_when(base, process, log, waiting_for_the_lock, timeout=30)
        assert status == 200 and building["ok"] is True
        assert building["status"] == "building" and building["checks"]["world"] == "building"
        assert building["world"]["size"] == "small" and building["world"]["percent"] == 0.0

        key = (data_dir / "demo-api-key").read_text().strip()
        headers = {"Authorization": f"Bearer {key}"}
        assert httpx.get(f"{base}/api/v2/credits", headers=headers).status_code == 200  # the API serves
        created = httpx.post(
            f"{base}/api/v2/research/public-web",
            json={"queries": ["software company"], "search_limit": 2},
            headers={**headers, "Prefer": "wait=1"},
            timeout=10,
        )
        assert created.status_code == 202, created.text
        job_id = created.json()["item"]["id"]
        assert job(base, job_id, headers)["status"] == "queued"  # waits: the world is not there yet
        assert not (data_dir / "world" / "world.db").exists()

        release()

        # The in-process worker starts once the world is built, and is counted at its first beat.
        def serving(body: Body) -> bool:
            return world_state("ready")(body) and body["checks"].get("workers") == "ok"

        status, ready = readiness_when(base, process, log, serving, timeout=60)
        assert status == 200 and ready["status"] == "ready" and ready["checks"]["world"] == "ready"
        assert set(ready["world"]["stages_done"]) == set(WORLD_STAGES) | set(INDEX_STAGES)
        finished = job(base, job_id, headers, until=("succeeded", "failed"), timeout=30)
        assert finished["status"] == "succeeded", finished
        assert finished["result"]["results"][0]["sources"]

    output = log.read_text()
    assert output.index(key) < output.index("world build:")  # the demo key comes first
    assert re.search(r"world build: one-off build .* about [\d,]+ MB on disk, about \d+ s", output)
    assert "world build: waiting for another process building" in output
    for stage in (*WORLD_STAGES, *INDEX_STAGES):  # every stage shows its elapsed time, line by line
        assert re.search(rf"world build: {re.escape(stage)} done in [\d.]+ s; \d+% after \d+ s\n", output)
    assert re.search(r"world build: ready in \d+ s: [\d,]+ MB in ", output)


def job(
    base: str, job_id: str, headers: dict[str, str], *, until: tuple[str, ...] = (), timeout: float = 0
) -> Body:
    """The job now, or (with `until`) once it reached one of those statuses."""
    deadline = time.monotonic() + timeout
    while True:
        answer = httpx.get(f"{base}/api/v2/jobs/{job_id}", headers=headers, timeout=10)
        assert answer.status_code == 200, answer.text
        item: Body = answer.json()["item"]
        if not until or item["status"] in until:
            return item
        assert time.monotonic() < deadline, f"job {job_id} stayed {item['status']}"
        time.sleep(0.1)
