"""The world built beside a running server: `/readyz` reports the build and the in-process worker claims
no job until it finished. A real process stands in for the build, so the test decides when it ends."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from leadwire.app import create_app
from leadwire.platform.runtime import Runtime
from leadwire.sandbox.background import WorldBuild
from tests.support.accounts import AccountFactory
from tests.support.jobs import poll_job
from tests.support.lifespan import asgi_client

# Runs until its stdin closes, then exits with the code the test wrote.
_STAND_IN = "import sys; raise SystemExit(int(sys.stdin.read() or 0))"


@pytest.fixture
def build(tmp_path: Path) -> Iterator[WorldBuild]:
    world_build = WorldBuild(tmp_path / "world", seed=7, size="small")
    world_build.process = subprocess.Popen(
        [sys.executable, "-c", _STAND_IN], stdin=subprocess.PIPE, text=True
    )
    yield world_build
    world_build.stop()


def end_build(build: WorldBuild, code: int) -> None:
    assert build.process is not None and build.process.stdin is not None
    build.process.stdin.write(str(code))
    build.process.stdin.close()
    build.process.wait(10)


async def test_the_worker_claims_no_job_until_the_world_is_built(runtime: Runtime, build: WorldBuild) -> None:
    account = await AccountFactory(runtime).create(credits=10)
    app = create_app(runtime=runtime, in_process_worker=True, world_build=build)
    async with asgi_client(app) as http:
        ready = await http.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["status"] == "building" and ready.json()["checks"]["world"] == "building"
        assert ready.json()["world"] == {"state": "building", "stage": "starting", "percent": 0.0}
        created = await http.post("/api/v2/test/echo", json={}, headers=account.headers)
        job_id = created.json()["item"]["id"]
        await asyncio.sleep(1.0)  # an idle worker claims a new job within milliseconds
        queued = await http.get(f"/api/v2/jobs/{job_id}", headers=account.headers)
        assert queued.json()["item"]["status"] == "queued"

        end_build(build, 0)
        done = await poll_job(http, account.headers, job_id, until=("succeeded", "failed"), timeout=15)
        assert done["status"] == "succeeded"
        ready = await http.get("/readyz")
        assert ready.json()["status"] == "ready" and ready.json()["world"]["state"] == "ready"


async def test_a_failed_build_is_degraded_and_jobs_run_anyway(runtime: Runtime, build: WorldBuild) -> None:
    account = await AccountFactory(runtime).create(credits=10)
    end_build(build, 3)
    async with asgi_client(create_app(runtime=runtime, in_process_worker=True, world_build=build)) as http:
        ready = await http.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "degraded"
        assert ready.json()["checks"]["world"] == "failed"
        assert ready.json()["world"]["error"] == "the build process exited with code 3"
        created = await http.post("/api/v2/test/echo", json={}, headers=account.headers)
        job_id = created.json()["item"]["id"]
        done = await poll_job(http, account.headers, job_id, until=("succeeded", "failed"), timeout=15)
        assert done["status"] == "succeeded"


async def test_a_server_that_stops_ends_the_build_it_waits_for(runtime: Runtime, build: WorldBuild) -> None:
    async with asgi_client(create_app(runtime=runtime, in_process_worker=True, world_build=build)):
        pass
    assert build.process is not None
    assert build.process.wait(10) == -15  # SIGTERM
