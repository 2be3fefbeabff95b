"""A long download a caller holds (an export): streamed as it is read, counted against the key's and
the account's open streams like an SSE stream, and given back however the response ends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

if TYPE_CHECKING:
    from leadwire.platform.callers import Caller
    from leadwire.platform.runtime import Runtime


class _Download(StreamingResponse):
    def __init__(
        self, chunks: AsyncIterator[bytes], media_type: str, filename: str, on_close: Callable[[], None]
    ) -> None:
        super().__init__(
            chunks,
            media_type=media_type,
            headers={
                "Content-Disposition": f'attachment; filename="{filename}"',
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # a proxy passes rows on as they come, not the whole file
            },
        )
        self._on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._on_close()


def owned_download(
    runtime: Runtime, caller: Caller, chunks: AsyncIterator[bytes], *, media_type: str, filename: str
) -> StreamingResponse:
    """The streamed response of ``chunks``: a stream slot of the caller's key and account taken now (or
    429, `admission.stream_slots`), given back when the response ends. A failure after the first
    chunk cuts the connection, so a client never mistakes a partial file for a whole one."""
    give_back = runtime.stream_slots.hold(caller)
    try:
        return _Download(chunks, media_type, filename, give_back)
    except BaseException:
        give_back()
        raise
