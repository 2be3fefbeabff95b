"""The sync client: the same calls as `AsyncLeadwire`, blocking."""

from __future__ import annotations

import itertools
import time
from collections.abc import Generator
from typing import Any

import httpx

from leadwire.client.core import TERMINAL, Answer, Call, Connection, poll_delay, transport_error
from leadwire.client.flows import Emit, Fetch, Flow, Next, NextChunk, Open, Pause, Step
from leadwire.client.sse import SSEDecoder, SSEEvent
from leadwire.client.state import WebsetState
from leadwire.client.surface import Operations
from leadwire.client.websets import OnChange, WebsetFlows, WebsetFollow

Items = Generator[dict[str, Any], None, None]
Chunks = Generator[bytes, None, None]


class Leadwire(Connection[httpx.Client], Operations[Any], WebsetFlows[WebsetFollow, Items, Chunks]):
    def _open(self, base_url: str, headers: dict[str, str], timeout: float, transport: Any) -> httpx.Client:
        return httpx.Client(base_url=base_url, headers=headers, timeout=timeout, transport=transport)

    def __enter__(self) -> Leadwire:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _run(self, call: Call) -> Any:
        return call.pick(self._send(call))

    def _send(self, call: Call) -> dict[str, Any]:
        for attempt in itertools.count():
            try:
                response: Answer = self._http.request(**call.request)
            except httpx.TransportError as failure:
                response = failure
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

    # Driving the multi-request flows (flows.py).

    def _follow(self, flow: Flow, state: WebsetState, on_change: OnChange | None) -> WebsetFollow:
        return WebsetFollow(self._drive(flow), state, on_change)

    def _emitted(self, flow: Flow) -> Items:
        return self._drive(flow)

    def _chunks(self, flow: Flow) -> Chunks:
        return self._drive(flow)

    def _drive(self, flow: Flow) -> Generator[Any, None, None]:
        """Run the flow's steps, yielding what it emits; the open stream is closed however it ends."""
        stream: _Stream | None = None
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
                        stream.close()
                    stream, reply = self._open_stream(step.call), None
                else:
                    reply = self._answer(step, stream)
        finally:
            if stream is not None:
                stream.close()
            flow.close()

    def _answer(self, step: Step, stream: _Stream | None) -> Any:
        if isinstance(step, Fetch):
            return self._run(step.call)
        if isinstance(step, Next):
            return stream.next_event() if stream is not None else None
        if isinstance(step, NextChunk):
            return stream.next_chunk() if stream is not None else None
        if isinstance(step, Pause):
            time.sleep(step.seconds)
        return None

    def _open_stream(self, call: Call) -> _Stream:
        """The SSE response of `call`, retried (timeouts, 429, 5xx) as any call; errors raise."""
        for attempt in itertools.count():
            try:
                response: Answer = self._http.send(self._http.build_request(**call.request), stream=True)
            except httpx.TransportError as failure:
                response = failure
            if isinstance(response, httpx.Response) and response.status_code == 200:
                return _Stream(response)
            if isinstance(response, httpx.Response):
                response.read()
                response.close()
            time.sleep(self._refused(response, attempt))
        raise AssertionError("unreachable")


class _Stream:
    """An open SSE response, read one event at a time."""

    def __init__(self, response: httpx.Response) -> None:
        self._response = response
        self._lines = response.iter_lines()
        self._bytes = response.iter_bytes()  # a stream is read as events or as bytes, never both
        self._decoder = SSEDecoder()

    def next_event(self) -> SSEEvent | None:
        """The next event, or None once the stream ended or broke."""
        try:
            for line in self._lines:
                if (event := self._decoder.feed(line)) is not None:
                    return event
        except (httpx.TransportError, httpx.StreamError):
            pass
        return None

    def next_chunk(self) -> bytes | None:
        """The body's next bytes, or None at its end; raises `network_error` when it was cut."""
        try:
            return next(self._bytes, None)
        except httpx.TransportError as failure:
            raise transport_error(failure) from failure

    def close(self) -> None:
        self._response.close()
