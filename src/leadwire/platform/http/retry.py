"""A request whose database connection was lost is answered from a fresh one, once, before 503.

A database restart or a failover cuts every pooled connection; the first request to draw one fails
through no fault of its own. `RetryOnLostConnection` records the request as it is received; when the
app's answer is the 503 of a lost connection (`mark_retryable`, set by the database error handler, and
nothing of the response sent yet), it runs the request again with the same body. The failed attempt
rolled its transaction back and its idempotency claim is given back, so the second attempt starts
clean; a request that fails again is answered 503 as before.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_HOLDER = "leadwire.retry"


def mark_retryable(request: Request) -> None:
    """Called while answering a lost connection with 503: worth one more try, if it is the first."""
    holder = request.scope.get(_HOLDER)
    if isinstance(holder, dict):
        holder["retry"] = True


class RetryOnLostConnection:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        received: list[Message] = []
        holder: dict[str, Any] = {"retry": False}

        async def recording() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                received.append(message)
            return message

        swallowed = False

        async def first_send(message: Message) -> None:
            nonlocal swallowed
            if message["type"] == "http.response.start" and message["status"] == 503 and holder["retry"]:
                swallowed = True
            if not swallowed:
                await send(message)

        await self.app(
            {**scope, _HOLDER: holder, "state": dict(scope.get("state") or {})}, recording, first_send
        )
        if not swallowed:
            return
        replay = list(received)

        async def replaying() -> Message:
            if replay:
                return replay.pop(0)
            return await receive()

        # The second attempt's own 503, if it fails too, goes out as it is.
        await self.app(
            {**scope, _HOLDER: {"retry": False}, "state": dict(scope.get("state") or {})}, replaying, send
        )
