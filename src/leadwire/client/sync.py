"""The sync client: the same calls as `AsyncLeadwire`, blocking."""

from __future__ import annotations

import time
from typing import Any

import httpx

from leadwire.client.core import (
    TERMINAL,
    Call,
    LeadwireError,
    auth_headers,
    parse,
    poll_delay,
    should_retry,
)
from leadwire.client.surface import Operations


class Leadwire(Operations[Any]):
    def __init__(
        self,
        api_key: str,
        base_url: str = "http://127.0.0.1:8000",
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url, headers=auth_headers(api_key), timeout=timeout, transport=transport
        )
        self._max_retries = max_retries

    def __enter__(self) -> Leadwire:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _run(self, call: Call) -> Any:
        return self._send(call)[call.unwrap]

    def _send(self, call: Call) -> dict[str, Any]:
        attempt = 0
        while True:
            try:
                response = self._http.request(
                    call.method, call.path, json=call.json, params=call.params, headers=call.headers
                )
                return parse(response)
            except httpx.TransportError:
                error = LeadwireError(0, "network_error")
            except LeadwireError as exc:
                error = exc
            delay = should_retry(error, attempt, self._max_retries)
            if delay is None:
                raise error
            attempt += 1
            time.sleep(delay)

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
