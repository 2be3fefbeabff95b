"""A real HTTP receiver on loopback for webhook tests: it records every request it gets (headers and
raw body) and answers with the statuses a test lines up (200 once they run out)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    port: int = 0
    answers: list[int] = field(default_factory=list)
    # Seconds to wait before answering (a slow receiver).
    delay: float = 0.0
    # Answer a 200 announcing 10 MB, send this many bytes of it, then hold the connection open
    # (a receiver that never finishes its answer).
    endless_body: int = 0
    # Answers wait until it is set (a receiver the test holds from answering, then lets go).
    gate: asyncio.Event | None = None
    requests: list[Received] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def wait_for(self, count: int, timeout: float = 15.0) -> list[Received]:
        async with asyncio.timeout(timeout):
            while len(self.requests) < count:
                self.arrived.clear()
                await self.arrived.wait()
        return self.requests

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, path, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            self.requests.append(Received(method, path, headers, body))
            self.arrived.set()
            status = self.answers.pop(0) if self.answers else 200
            if self.gate is not None:
                await self.gate.wait()
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.endless_body:
                writer.write(
                    b"HTTP/1.1 200 OK\r\ncontent-length: 10000000\r\n\r\n" + b"x" * self.endless_body
                )
                await writer.drain()
                await asyncio.sleep(3600)
            writer.write(f"HTTP/1.1 {status} X\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok".encode())
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


@contextlib.asynccontextmanager
async def receiving(
    *answers: int, delay: float = 0.0, endless_body: int = 0, gate: asyncio.Event | None = None
) -> AsyncIterator[Receiver]:
    receiver = Receiver(answers=list(answers), delay=delay, endless_body=endless_body, gate=gate)
    server = await asyncio.start_server(receiver.handle, "127.0.0.1", 0)
    receiver.port = server.sockets[0].getsockname()[1]
    try:
        yield receiver
    finally:
        server.close()
        await server.wait_closed()
