"""The async client."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from leadwire.client.core import (
    TERMINAL,
    Call,
    LeadwireError,
    auth_headers,
    creation,
    parse,
    poll_delay,
    should_retry,
)


class AsyncLeadwire:
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

    async def credits(self) -> dict[str, Any]:
        return (await self._send(Call("GET", "/api/v2/credits")))["item"]

    async def accounts(self, *, can_send: bool | None = None) -> list[dict[str, Any]]:
        params = None if can_send is None else {"can_send": str(can_send).lower()}
        return (await self._send(Call("GET", "/api/v2/connect/accounts", params=params)))["items"]

    async def public_web(
        self,
        queries: list[str],
        *,
        search_limit: int | None = None,
        category: str | None = None,
        include_domains: list[str] | None = None,
        user_location: str | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        body = {
            "queries": queries,
            "search_limit": search_limit,
            "category": category,
            "include_domains": include_domains,
            "user_location": user_location,
        }
        call = creation("/api/v2/research/public-web", body, idempotency_key=idempotency_key, wait=wait)
        return (await self._send(call))["item"]

    async def contacts(
        self,
        domain: str,
        *,
        positions: list[str] | None = None,
        limit: int | None = None,
        locale: str | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        body = {"domain": domain, "positions": positions, "limit": limit, "locale": locale}
        call = creation("/api/v2/research/contacts", body, idempotency_key=idempotency_key, wait=wait)
        return (await self._send(call))["item"]

    async def job(self, job_id: str) -> dict[str, Any]:
        return (await self._send(Call("GET", f"/api/v2/jobs/{job_id}")))["item"]

    async def cancel(self, job_id: str) -> dict[str, Any]:
        return (await self._send(Call("POST", f"/api/v2/jobs/{job_id}/cancel")))["item"]

    async def wait_for(self, job_id: str, *, timeout: float = 300.0) -> dict[str, Any]:
        """Poll until the job is terminal (2-5 s apart); raises TimeoutError after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        attempt = 0
        while True:
            job = await self.job(job_id)
            if job["status"] in TERMINAL:
                return job
            if loop.time() >= deadline:
                raise TimeoutError(f"job {job_id} still {job['status']}")
            await asyncio.sleep(min(poll_delay(attempt), max(0.0, deadline - loop.time())))
            attempt += 1
