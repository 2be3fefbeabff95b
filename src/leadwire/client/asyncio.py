"""The async client."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncGenerator, Awaitable
from typing import Any

import httpx

from leadwire.client.core import TERMINAL, Answer, Call, Connection, poll_delay, transport_error
from leadwire.client.flows import Emit, Fetch, Flow, Next, NextChunk, Open, Pause, Step
from leadwire.client.sse import SSEDecoder, SSEEvent
from leadwire.client.state import WebsetState
from leadwire.client.surface import Operations
from leadwire.client.websets import AsyncWebsetFollow, OnChange, WebsetFlows

AsyncItems = AsyncGenerator[dict[str, Any], None]
AsyncChunks = AsyncGenerator[bytes, None]


class AsyncLeadwire(
    Connection[httpx.AsyncClient],
    Operations[Awaitable[Any]],
    WebsetFlows[AsyncWebsetFollow, AsyncItems, AsyncChunks],
):
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
        return call.pick(await self._send(call))

    async def _send(self, call: Call) -> dict[str, Any]:
        for attempt in itertools.count():
            try:
                response: Answer = await self._http.request(**call.request)
            except httpx.TransportError as failure:
                response = failure
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

    # Driving the multi-request flows (flows.py).

    def _follow(self, flow: Flow, state: WebsetState, on_change: OnChange | None) -> AsyncWebsetFollow:
        return AsyncWebsetFollow(self._drive(flow), state, on_change)

    def _emitted(self, flow: Flow) -> AsyncItems:
        return self._drive(flow)

    def _chunks(self, flow: Flow) -> AsyncChunks:
        return self._drive(flow)

    async def _drive(self, flow: Flow) -> AsyncGenerator[Any, None]:
        """Run the flow's steps, yielding what it emits; the open stream is closed however it ends."""
        stream: _AsyncStream | None = None
        reply: Any = None
        try:
            while True:
                try:
                    step = flow.send(reply)
                except StopIteration:
                    return
                if isinstance(step, Emit):
                    yield step.value
                    reply = None
                elif isinstance(step, Open):
                    if stream is not None:
                        await stream.aclose()
                    stream, reply = await self._open_stream(step.call), None
                else:
                    reply = await self._answer(step, stream)
        finally:
            if stream is not None:
                await stream.aclose()
            flow.close()

    async def _answer(self, step: Step, stream: _AsyncStream | None) -> Any:
        if isinstance(step, Fetch):
            return await self._run(step.call)
        if isinstance(step, Next):
            return await stream.next_event() if stream is not None else None
        if isinstance(step, NextChunk):
            return await stream.next_chunk() if stream is not None else None
        if isinstance(step, Pause):
            await asyncio.sleep(step.seconds)
        return None

    async def _open_stream(self, call: Call) -> _AsyncStream:
        """The SSE response of `call`, retried (timeouts, 429, 5xx) as any call; errors raise."""
        for attempt in itertools.count():
            try:
                response: Answer = await self._http.send(
                    self._http.build_request(**call.request), stream=True
                )
            except httpx.TransportError as failure:
                response = failure
            if isinstance(response, httpx.Response) and response.status_code == 200:
                return _AsyncStream(response)
            if isinstance(response, httpx.Response):
                await response.aread()
                await response.aclose()
            await asyncio.sleep(self._refused(response, attempt))
        raise AssertionError("unreachable")


class _AsyncStream:
    """An open SSE response, read one event at a time."""

    def __init__(self, response: httpx.Response) -> None:
        self._response = response
        self._lines = response.aiter_lines()
        self._bytes = response.aiter_bytes()  # a stream is read as events or as bytes, never both
        self._decoder = SSEDecoder()

    async def next_event(self) -> SSEEvent | None:
        """The next event, or None once the stream ended or broke."""
        try:
            async for line in self._lines:
                if (event := self._decoder.feed(line)) is not None:
                    return event
        except (httpx.TransportError, httpx.StreamError):
            pass
        return None

    async def next_chunk(self) -> bytes | None:
        """The body's next bytes, or None at its end; raises `network_error` when it was cut."""
        try:
            return await anext(self._bytes, None)
        except httpx.TransportError as failure:
            raise transport_error(failure) from failure

    async def aclose(self) -> None:
        await self._response.aclose()
