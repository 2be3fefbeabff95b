"""A dispatch whose worker process is SIGKILLed while the SMTP server holds the message: the rescued job
fails with `delivery_unknown` and the person is never sent the message a second time (PostgreSQL, real
worker processes, a real SMTP server on loopback)."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import Envelope, Session

from leadwire.app import create_app
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.jobs import with_runtime
from tests.support.lifespan import asgi_client
from tests.support.processes import free_port, leadwire_process, process_env, wait_for

pytestmark = pytest.mark.e2e


class HoldingInbox:
    """Accepts the envelope, then holds every DATA until released: the provider call is in flight."""

    def __init__(self) -> None:
        self.data_attempts = 0
        self.release = threading.Event()

    async def handle_DATA(self, server: Any, session: Session, envelope: Envelope) -> str:
        self.data_attempts += 1
        while not self.release.is_set():
            await asyncio.sleep(0.05)
        return "250 Message accepted"


async def _dispatch(runtime: Runtime, smtp_port: int) -> tuple[str, dict[str, str]]:
    factory = AccountFactory(runtime)
    owner = await factory.create()
    account_id = await factory.connect_smtp(owner.user_id, smtp_port, password=None)
    body = {
        "account_id": account_id,
        "channel": "email",
        "action": "outreach",
        "recipient": {"address": "jane@acme.example"},
        "content": {"subject": "Once", "text": "Only once, please."},
    }
    async with asgi_client(create_app(runtime=runtime), "http://localhost") as client:
        response = await client.post("/api/v2/outreach/dispatches", json=body, headers=owner.headers)
    assert response.status_code == 202, response.text
    return response.json()["item"]["id"], owner.headers


async def _status(runtime: Runtime, job_id: str, headers: dict[str, str]) -> dict[str, Any]:
    async with asgi_client(create_app(runtime=runtime), "http://localhost", conformance=False) as client:
        item: dict[str, Any] = (await client.get(f"/api/v2/jobs/{job_id}", headers=headers)).json()["item"]
        return item


def test_a_worker_killed_while_the_smtp_server_holds_the_message_never_sends_twice(
    pg_database: str, tmp_path: Path
) -> None:
    from tests.conftest import _empty_pg

    asyncio.run(_empty_pg(pg_database))
    inbox, smtp_port = HoldingInbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        job_id, headers = asyncio.run(with_runtime(pg_database, lambda rt: _dispatch(rt, smtp_port)))
        env = process_env(
            tmp_path / "var", pg_database, LEADWIRE_JOB_LEASE_SECONDS="2", LEADWIRE_WORKER_POLL_SECONDS="0.2"
        )
        with leadwire_process(["worker"], env, tmp_path / "worker-a.log") as first:
            wait_for(lambda: inbox.data_attempts == 1, timeout=30)
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
        inbox.release.set()
        with leadwire_process(["worker"], env, tmp_path / "worker-b.log"):

            def finished() -> bool:
                job = asyncio.run(with_runtime(pg_database, lambda rt: _status(rt, job_id, headers)))
                return job["status"] in ("succeeded", "failed")

            wait_for(finished, timeout=30, interval=0.5)
        job = asyncio.run(with_runtime(pg_database, lambda rt: _status(rt, job_id, headers)))
    finally:
        inbox.release.set()
        controller.stop()
    assert (job["status"], job["error"], job["attempt_count"]) == ("failed", {"code": "delivery_unknown"}, 2)
    assert inbox.data_attempts == 1  # the second worker did not send again
