"""The async client."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
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


class AsyncLeadwire(Operations[Awaitable[Any]]):
    def __init__(
        self,
        api_key: str,
        base_url: str = "http://127.0.0.1:8000",
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url, headers=auth_headers(api_key), timeout=timeout, transport=transport
        )
        self._max_retries = max_retries

    async def __aenter__(self) -> AsyncLeadwire:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def _run(self, call: Call) -> Awaitable[Any]:
        return self._unwrapped(call)

    async def _unwrapped(self, call: Call) -> Any:
        return (await self._send(call))[call.unwrap]

    async def _send(self, call: Call) -> dict[str, Any]:
        attempt = 0
        while True:
            try:
                response = await self._http.request(
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
            await asyncio.sleep(delay)

    async def wait_for(self, job_id: str, *, timeout: float = 300.0) -> dict[str, Any]:
        """Poll until the job is terminal (2-5 s apart); raises TimeoutError after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        attempt = 0
        while True:
            job: dict[str, Any] = await self.job(job_id)
            if job["status"] in TERMINAL:
                return job
            if loop.time() >= deadline:
                raise TimeoutError(f"job {job_id} still {job['status']}")
            await asyncio.sleep(min(poll_delay(attempt), max(0.0, deadline - loop.time())))
            attempt += 1
