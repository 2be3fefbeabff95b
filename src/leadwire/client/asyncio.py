"""The async client."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable
from typing import Any

import httpx

from leadwire.client.core import TERMINAL, Call, Connection, poll_delay
from leadwire.client.surface import Operations


class AsyncLeadwire(Connection[httpx.AsyncClient], Operations[Awaitable[Any]]):
    def _open(
        self, base_url: str, headers: dict[str, str], timeout: float, transport: Any
    ) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=base_url, headers=headers, timeout=timeout, transport=transport)

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
        for attempt in itertools.count():
            try:
                response: httpx.Response | None = await self._http.request(**call.request)
            except httpx.TransportError:
                response = None
            body, delay = self._settle(response, attempt)
            if body is not None:
                return body
            await asyncio.sleep(delay)
        raise AssertionError("unreachable")

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
