"""Fault injection on loopback: a TCP forwarder that can be made to hang, standing in for a database
or Redis server that accepts connections and never answers."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class HangableProxy:
    """Forwards 127.0.0.1:<port> to a real server until `hang()`; from then on it accepts connections
    and reads what clients send, but nothing reaches the server and nothing comes back. `heal()` drops
    the hung connections (as a restarted server or a reset network would) and forwards again."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.hung = False
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> HangableProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def hang(self) -> None:
        self.hung = True

    def heal(self) -> None:
        self.hung = False
        for writer in list(self._writers):
            writer.close()
        self._writers.clear()

    async def close(self) -> None:
        self.heal()
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            if self.hung:
                await self._swallow(reader)
                return
            up_reader, up_writer = await asyncio.open_connection(*self.target)
            self._writers.add(up_writer)
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                while self.hung:  # hold everything: the peer waits forever
                    await asyncio.sleep(0.05)
                    if writer.is_closing():
                        return
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()

    @staticmethod
    async def _swallow(reader: asyncio.StreamReader) -> None:
        while await reader.read(65536):
            pass


@contextlib.asynccontextmanager
async def hangable_proxy(host: str, port: int) -> AsyncIterator[HangableProxy]:
    proxy = await HangableProxy(host, port).start()
    try:
        yield proxy
    finally:
        await proxy.close()


async def terminate_backends(database_url: str) -> int:
    """Cut every connection to `database_url`'s database from the server side, as a restart or a
    failover would (`pg_terminate_backend`); the number cut."""
    import asyncpg

    dsn = database_url.replace("postgresql+asyncpg://", "postgresql://", 1).split("?")[0]
    admin = await asyncpg.connect(dsn)
    try:
        rows = await admin.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await admin.close()
    return len(rows)
