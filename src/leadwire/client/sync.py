"""The sync client: the same calls as `AsyncLeadwire`, blocking."""

from __future__ import annotations

import itertools
import time
from typing import Any

import httpx

from leadwire.client.core import TERMINAL, Call, Connection, poll_delay
from leadwire.client.surface import Operations


class Leadwire(Connection[httpx.Client], Operations[Any]):
    def _open(self, base_url: str, headers: dict[str, str], timeout: float, transport: Any) -> httpx.Client:
        return httpx.Client(base_url=base_url, headers=headers, timeout=timeout, transport=transport)

    def __enter__(self) -> Leadwire:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _run(self, call: Call) -> Any:
        return self._send(call)[call.unwrap]

    def _send(self, call: Call) -> dict[str, Any]:
        for attempt in itertools.count():
            try:
                response: httpx.Response | None = self._http.request(**call.request)
            except httpx.TransportError:
                response = None
            body, delay = self._settle(response, attempt)
            if body is not None:
                return body
            time.sleep(delay)
        raise AssertionError("unreachable")

    def wait_for(self, job_id: str, *, timeout: float = 300.0) -> dict[str, Any]:
        """Poll until the job is terminal (2-5 s apart); raises TimeoutError after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        attempt = 0
        while True:
            job: dict[str, Any] = self.job(job_id)
            if job["status"] in TERMINAL:
                return job
            if time.monotonic() >= deadline:
                raise TimeoutError(f"job {job_id} still {job['status']}")
            time.sleep(min(poll_delay(attempt), max(0.0, deadline - time.monotonic())))
            attempt += 1
